#!/usr/bin/env bash
# Runs nccl-tests' all_reduce_perf and the harness with the same flags on the same GPUs, one after the other, and
# prints per size, for both placements, each tool's time and algbw and the ratio harness / nccl-tests (1.00 =
# identical), then the geometric means. With one rank busbw is algbw times 0, so algbw is compared; for any rank
# count busbw / algbw is the same factor in both tools, so the algbw ratio is the busbw ratio. Both tools divide
# the same bytes by their time, so the bandwidth ratio is taken from the times (the printed algbw has two decimals,
# too few at small sizes).
#
# Usage: scripts/compare-nccl-tests.sh [FLAGS...]      (default flags: -b 8 -e 128M -f 2 -g 1)
#   NCCL_TESTS_BIN=path/to/all_reduce_perf   (default: all_reduce_perf on PATH, then common build dirs)
#   JAVA=..., HARNESS_JAR=...                 as in gpu-check.sh
#   HARNESS_ARGS="..."                        more arguments for the harness only (e.g. --no-calibrate -J f.json)
#   OUT_DIR=...                               where both outputs go (default: compare-<UTC timestamp>)
#   RUN_TIMEOUT=s                             per-run limit (default 300)
# Exit: 0 compared; 3 all_reduce_perf not found; 4 one of the runs failed or the tables share no size.
set -u
cd "$(dirname "$0")/.."
[ $# -eq 0 ] && set -- -b 8 -e 128M -f 2 -g 1
OUT_DIR=${OUT_DIR:-compare-$(date -u +%Y%m%dT%H%M%SZ)}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
mkdir -p "$OUT_DIR"

BIN=${NCCL_TESTS_BIN:-}
if [ -z "$BIN" ]; then
  BIN=$(command -v all_reduce_perf 2>/dev/null)
  for d in /usr/local/bin /opt/nccl-tests/build /workspace/nccl-tests/build "$HOME/nccl-tests/build"; do
    [ -z "$BIN" ] && [ -x "$d/all_reduce_perf" ] && BIN="$d/all_reduce_perf"
  done
fi
if [ -z "$BIN" ]; then
  echo "compare-nccl-tests: all_reduce_perf not found; build nccl-tests (make -C nccl-tests) or set NCCL_TESTS_BIN" >&2
  exit 3
fi
if [ -z "${JAVA:-}" ]; then
  if [ -x runtime/bin/java ]; then JAVA=runtime/bin/java; else JAVA=java; fi
fi
if [ -z "${HARNESS_JAR:-}" ]; then
  if [ -f runtime/harness.jar ]; then HARNESS_JAR=runtime/harness.jar; else HARNESS_JAR=harness/target/harness.jar; fi
fi
# shellcheck disable=SC2206
EXTRA=(${HARNESS_ARGS:-})

echo "nccl-tests: $BIN $*"
timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" "$@" >"$OUT_DIR/nccl-tests.txt" 2>&1 || {
  echo "compare-nccl-tests: all_reduce_perf failed (rc=$?), see $OUT_DIR/nccl-tests.txt" >&2; tail -5 "$OUT_DIR/nccl-tests.txt" >&2; exit 4; }
echo "harness:    $JAVA -jar $HARNESS_JAR sweep $* ${EXTRA[*]}"
timeout --kill-after=10 "$RUN_TIMEOUT" "$JAVA" -jar "$HARNESS_JAR" sweep "$@" "${EXTRA[@]}" >"$OUT_DIR/harness.txt" 2>&1 || {
  echo "compare-nccl-tests: harness sweep failed (rc=$?), see $OUT_DIR/harness.txt" >&2; tail -5 "$OUT_DIR/harness.txt" >&2; exit 4; }

# Data rows of an nccl-tests table: not '#', first field an integer; prints size, then time and algbw of each
# placement. Where a half is laid out: >= 2.13 has a root column (a half starts at field 6, else 5); a -I table
# (its header names i_min) has 8 fields per half instead of 4.
rows() {
  awk '/^#/ && / i_min / { per = 8 }
       /^#/ { next }
       $1 ~ /^[0-9]+$/ && NF >= 12 {
         half = per ? per : 4; first = (NF >= 5 + 2 * half) ? 6 : 5
         print $1, $first, $(first + 1), $(first + half), $(first + half + 1) }' "$1"
}
rows "$OUT_DIR/nccl-tests.txt" >"$OUT_DIR/nccl-tests.rows"
rows "$OUT_DIR/harness.txt" >"$OUT_DIR/harness.rows"

# r(a, b): harness / nccl-tests, 0 when either is missing or zero (left out of the geometric mean)
awk '
  function r(h, n) { return (n > 0 && h > 0) ? h / n : 0 }
  function acc(k, v) { if (v > 0) { lg[k] += log(v); nn[k]++ } }
  function gm(k) { return nn[k] ? sprintf("%.3f", exp(lg[k] / nn[k])) : "n/a" }
  NR == FNR { t1[$1] = $2; b1[$1] = $3; t2[$1] = $4; b2[$1] = $5; next }
  FNR == 1 { printf "%10s | %9s %9s %5s %8s %8s %5s | %9s %9s %5s %8s %8s %5s\n", "bytes", "nccl us", "harn us",
               "ratio", "nccl GB/s", "harn GB/s", "ratio", "nccl us", "harn us", "ratio", "nccl GB/s", "harn GB/s", "ratio"
             printf "%10s | %-50s | %-50s\n", "", "out-of-place: time, algbw", "in-place: time, algbw" }
  ($1 in t1) {
    a = r($2, t1[$1]); b = r(t1[$1], $2); c = r($4, t2[$1]); d = r(t2[$1], $4)
    printf "%10d | %9.2f %9.2f %5.2f %8.2f %8.2f %5.2f | %9.2f %9.2f %5.2f %8.2f %8.2f %5.2f\n", $1, t1[$1], $2, a,
           b1[$1], $3, b, t2[$1], $4, c, b2[$1], $5, d
    acc("to", a); acc("bo", b); acc("ti", c); acc("bi", d); sizes++ }
  END { if (!sizes) { print "no sizes in common between the two tables" > "/dev/stderr"; exit 4 }
        printf "geometric mean harness/nccl-tests, %d sizes: time oop %s ip %s; algbw oop %s ip %s\n",
               sizes, gm("to"), gm("ti"), gm("bo"), gm("bi") }' \
  "$OUT_DIR/nccl-tests.rows" "$OUT_DIR/harness.rows" | tee "$OUT_DIR/ratio.txt"
exit "${PIPESTATUS[0]}"
