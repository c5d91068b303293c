#!/usr/bin/env bash
# Runs nccl-tests' all_reduce_perf and the harness with the same flags on the same GPUs, one after the other,
# and prints the per-size time ratio harness / nccl-tests for both placements (1.00 = identical).
#
# Usage: scripts/compare-nccl-tests.sh [FLAGS...]      (default flags: -b 8 -e 128M -f 2 -g 1)
#   NCCL_TESTS_BIN=path/to/all_reduce_perf   (default: all_reduce_perf on PATH, then common build dirs)
#   JAVA=..., HARNESS_JAR=...                 as in gpu-check.sh
#   OUT_DIR=...                               where both outputs go (default: compare-<UTC timestamp>)
#   RUN_TIMEOUT=s                             per-run limit (default 300)
# Exit: 0 compared; 3 all_reduce_perf not found; 4 one of the runs failed.
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

echo "nccl-tests: $BIN $*"
timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" "$@" >"$OUT_DIR/nccl-tests.txt" 2>&1 || {
  echo "compare-nccl-tests: all_reduce_perf failed (rc=$?), see $OUT_DIR/nccl-tests.txt" >&2; tail -5 "$OUT_DIR/nccl-tests.txt" >&2; exit 4; }
echo "harness:    $JAVA -jar $HARNESS_JAR sweep $*"
timeout --kill-after=10 "$RUN_TIMEOUT" "$JAVA" -jar "$HARNESS_JAR" sweep "$@" >"$OUT_DIR/harness.txt" 2>&1 || {
  echo "compare-nccl-tests: harness sweep failed (rc=$?), see $OUT_DIR/harness.txt" >&2; tail -5 "$OUT_DIR/harness.txt" >&2; exit 4; }

# Data rows of an nccl-tests table: not '#', first field an integer. 13+ fields (>= 2.13: with root):
# out-of-place time is field 6, in-place field 10; 12 fields (<= 2.11, no root): fields 5 and 9.
rows() {
  awk '$1 !~ /^#/ && $1 ~ /^[0-9]+$/ && NF >= 12 {
         if (NF >= 13) print $1, $6, $10; else print $1, $5, $9 }' "$1"
}
rows "$OUT_DIR/nccl-tests.txt" >"$OUT_DIR/nccl-tests.rows"
rows "$OUT_DIR/harness.txt" >"$OUT_DIR/harness.rows"

awk '
  NR == FNR { oop[$1] = $2; ip[$1] = $3; next }
  FNR == 1 { printf "%12s %12s %12s %7s %12s %12s %7s\n", "size(B)", "nccl-oop-us", "harn-oop-us", "ratio", "nccl-ip-us", "harn-ip-us", "ratio" }
  ($1 in oop) {
    ro = (oop[$1] > 0) ? $2 / oop[$1] : 0; ri = (ip[$1] > 0) ? $3 / ip[$1] : 0
    printf "%12d %12.2f %12.2f %7.2f %12.2f %12.2f %7.2f\n", $1, oop[$1], $2, ro, ip[$1], $3, ri
    if (ro > 0) { lo += log(ro); no++ } if (ri > 0) { li += log(ri); ni++ } }
  END { if (no) printf "geometric mean ratio: out-of-place %.3f (%d sizes), in-place %.3f (%d sizes)\n", exp(lo/no), no, exp(li/ni), ni
        else { print "no sizes in common between the two tables" > "/dev/stderr"; exit 4 } }' \
  "$OUT_DIR/nccl-tests.rows" "$OUT_DIR/harness.rows" | tee "$OUT_DIR/ratio.txt"
exit "${PIPESTATUS[0]}"
