#!/usr/bin/env bash
# One short, bounded look at a GPU node, for the first session on a new machine: what is installed, whether
# the JVM sees the driver, CUDA runtime, NCCL and GPUs, whether a one-rank communicator works, and a sweep
# -b 8 -e 128M -f 2 -g 1, plain and with -G 1. Every output lands in one folder; each step has a timeout,
# so the whole check takes a few minutes at most. It never stops at a failed step: it records it and goes on.
#
# Usage: scripts/gpu-check.sh [OUT_DIR]            (default: gpu-check-<UTC timestamp>)
#   JAVA=...         java to use (default: runtime/bin/java if scripts/make-runtime.sh was carried, else java)
#   HARNESS_JAR=...  jar to run (default: runtime/harness.jar if present, else harness/target/harness.jar)
#   NCCL_LIB=DIR     directory with libnccl.so.2 (default: found via ldconfig, then pip's nvidia/nccl/lib)
#   STEP_TIMEOUT=s   per-step limit in seconds (default 120)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-gpu-check-$(date -u +%Y%m%dT%H%M%SZ)}
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"

if [ -z "${JAVA:-}" ]; then
  if [ -x runtime/bin/java ]; then JAVA=runtime/bin/java; else JAVA=java; fi
fi
if [ -z "${HARNESS_JAR:-}" ]; then
  if [ -f runtime/harness.jar ]; then HARNESS_JAR=runtime/harness.jar; else HARNESS_JAR=harness/target/harness.jar; fi
fi

# step NAME CMD... : runs CMD with a timeout, output to OUT/NAME.txt, one summary line, tail on the terminal.
step() {
  local name=$1; shift
  local start=$SECONDS
  echo "== $name: $*"
  timeout --kill-after=10 "$STEP_TIMEOUT" "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  local what="rc=$rc"
  [ "$rc" -eq 124 ] && what="TIMEOUT after ${STEP_TIMEOUT}s"
  printf '%-14s %-24s %3ds  %s\n' "$name" "$what" $((SECONDS - start)) "$*" | tee -a "$SUMMARY" >/dev/null
  tail -n 25 "$OUT/$name.txt"
  return 0
}

find_nccl() {
  local d
  d=$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 /{print $NF; exit}')
  if [ -n "$d" ]; then dirname "$d"; return; fi
  for py in python3 python; do
    command -v "$py" >/dev/null || continue
    d=$(timeout 20 "$py" -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)
    if [ -n "$d" ] && [ -f "$d/libnccl.so.2" ]; then echo "$d"; return; fi
  done
  d=$(timeout 60 find / -xdev -name libnccl.so.2 2>/dev/null | head -1)
  [ -n "$d" ] && dirname "$d"
}

step system       bash -c 'uname -a; cat /etc/os-release 2>/dev/null | head -2; nproc; free -g'
step nvidia-smi   bash -c 'nvidia-smi; nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total,compute_cap --format=csv; nvidia-smi topo -m'
step libraries    bash -c 'ldconfig -p | grep -E "libcuda\.so|libcudart|libnccl"; ls -l /usr/local/cuda/lib64/libcudart.so* 2>/dev/null'
step java         "$JAVA" -version

NCCL_DIR=${NCCL_LIB:-$(find_nccl)}
echo "nccl library directory: ${NCCL_DIR:-none found}" | tee -a "$SUMMARY"
NCCL_OPT=()
if [ -n "$NCCL_DIR" ]; then
  NCCL_OPT=(--nccl-lib "$NCCL_DIR")
  # for the commands that may not take --nccl-lib: the dynamic linker finds it too
  export LD_LIBRARY_PATH="$NCCL_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
JAVACPP_CACHE="$OUT/javacpp-cache"
H=("$JAVA" "-Dorg.bytedeco.javacpp.cachedir=$JAVACPP_CACHE" -jar "$HARNESS_JAR")

step version      "${H[@]}" --version
step gpus         "${H[@]}" gpus "${NCCL_OPT[@]}"
step smoke        "${H[@]}" gpus --smoke "${NCCL_OPT[@]}"
step doctor       "${H[@]}" doctor
step sweep        "${H[@]}" sweep -b 8 -e 128M -f 2 -g 1 --json "$OUT/sweep.json"
step sweep-graph  "${H[@]}" sweep -b 8 -e 128M -f 2 -g 1 -G 1 --json "$OUT/sweep-graph.json"
if command -v all_reduce_perf >/dev/null 2>&1 || [ -n "${NCCL_TESTS_BIN:-}" ]; then
  step compare    env JAVA="$JAVA" HARNESS_JAR="$HARNESS_JAR" OUT_DIR="$OUT/compare" scripts/compare-nccl-tests.sh -b 8 -e 128M -f 2 -g 1
fi
rm -rf "$JAVACPP_CACHE"

echo
echo "== summary ($OUT/summary.txt)"
cat "$SUMMARY"
