#!/usr/bin/env bash
# One short, bounded look at a GPU node, for the first session on a new machine: what is installed, whether the
# JVM sees the driver, CUDA runtime, NCCL and GPUs, whether a one-rank communicator works, and the sweeps that
# matter, each next to nccl-tests' all_reduce_perf where one can be built. Every output lands in one folder,
# written as it goes, so a call cut short still returns what it did; each step has a timeout and the whole check a
# deadline (5 minutes by default), so a rerun fits in the same device window. A failed step is recorded, never
# fatal.
#
# Usage: scripts/gpu-check.sh [OUT_DIR]        (default: $OUT if set, as on the lent device, else gpu-check-<UTC>)
#   JAVA=...          java to use (default: a carried runtime.tar.xz unpacked, runtime/bin/java, else java)
#   HARNESS_JAR=...   jar to run (default: the runtime's harness.jar if present, else harness/target/harness.jar)
#   NCCL_LIB=DIR      directory with libnccl.so.2 (default: ldconfig, then pip's nvidia/nccl/lib)
#   CUDART_LIB=DIR    directory with libcudart.so.13 for all_reduce_perf (default: ldconfig, then pip's
#                     nvidia/cuda_runtime/lib)
#   NCCL_TESTS_SRC=D  a carried nccl-tests source tree to build all_reduce_perf from (default: nccl-tests/)
#   NVCC_GENCODE=...  passed to its make (default: -gencode=arch=compute_90,code=sm_90, an H100/H200)
#   MAX_BYTES=128M    the sweeps' -e;  BIG="-b 1G -e 8G -c 0" the large-size step's flags
#   STEP_TIMEOUT=s    per-step limit (default 120);  DEADLINE=s  the whole check (default 300)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${OUT:-gpu-check-$(date -u +%Y%m%dT%H%M%SZ)}}
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
DEADLINE=${DEADLINE:-300}
MAX_BYTES=${MAX_BYTES:-128M}
BIG=${BIG:--b 1G -e 8G -c 0}
NVCC_GENCODE=${NVCC_GENCODE:--gencode=arch=compute_90,code=sm_90}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
BEGIN=$SECONDS

note() { echo "$*" | tee -a "$SUMMARY"; }

# step NAME CMD... : runs CMD with a timeout (the smaller of STEP_TIMEOUT and what the deadline leaves), output to
# OUT/NAME.txt, one summary line, its tail on the terminal. Past the deadline a step is skipped and says so.
step() {
  local name=$1; shift
  local left=$((DEADLINE - (SECONDS - BEGIN)))
  if [ "$left" -lt 5 ]; then
    printf '%-16s %-26s %4ds  %s\n' "$name" "SKIPPED: deadline" 0 "$*" >>"$SUMMARY"
    return 0
  fi
  local limit=$STEP_TIMEOUT
  [ "$left" -lt "$limit" ] && limit=$left
  local start=$SECONDS
  echo "== $name: $*"
  timeout --kill-after=5 "$limit" "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  local what="rc=$rc"
  [ "$rc" -eq 124 ] && what="TIMEOUT after ${limit}s"
  printf '%-16s %-26s %4ds  %s\n' "$name" "$what" $((SECONDS - start)) "$*" >>"$SUMMARY"
  tail -n 25 "$OUT/$name.txt"
  return 0
}

# lib_dir SONAME PY_MODULE: the directory holding SONAME (ldconfig, then the pip package's lib folder).
lib_dir() {
  local so=$1 mod=$2 d
  d=$(ldconfig -p 2>/dev/null | awk -v so="$so" '$1 == so {print $NF; exit}')
  if [ -n "$d" ]; then dirname "$d"; return; fi
  for py in python3 python; do
    command -v "$py" >/dev/null || continue
    d=$(timeout 20 "$py" -c "import $mod, os; print(os.path.join(list($mod.__path__)[0], 'lib'))" 2>/dev/null)
    if [ -n "$d" ] && [ -f "$d/$so" ]; then echo "$d"; return; fi
  done
}

if [ -z "${JAVA:-}" ]; then
  if [ -f runtime.tar.xz ]; then
    RT=$(mktemp -d)
    tar -xJf runtime.tar.xz -C "$RT" && JAVA=$(find "$RT" -path '*/bin/java' -type f | head -1)
    [ -z "${HARNESS_JAR:-}" ] && HARNESS_JAR=$(find "$RT" -name harness.jar | head -1)
  fi
  if [ -z "${JAVA:-}" ]; then
    if [ -x runtime/bin/java ]; then JAVA=runtime/bin/java; else JAVA=java; fi
  fi
fi
if [ -z "${HARNESS_JAR:-}" ]; then
  if [ -f runtime/harness.jar ]; then HARNESS_JAR=runtime/harness.jar; else HARNESS_JAR=harness/target/harness.jar; fi
fi

step system       bash -c 'uname -a; cat /etc/os-release 2>/dev/null | head -2; nproc; free -g'
step nvidia-smi   bash -c 'nvidia-smi; nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total,compute_cap --format=csv; nvidia-smi topo -m'
step libraries    bash -c 'ldconfig -p | grep -E "libcuda\.so|libcudart|libnccl"; ls -l /usr/local/cuda/lib64/libcudart.so* 2>/dev/null'
step java         "$JAVA" -version

NCCL_DIR=${NCCL_LIB:-$(lib_dir libnccl.so.2 nvidia.nccl)}
CUDART_DIR=${CUDART_LIB:-$(lib_dir libcudart.so.13 nvidia.cuda_runtime)}
note "nccl library directory: ${NCCL_DIR:-none found}"
note "cudart library directory: ${CUDART_DIR:-none found}"
NCCL_OPT=()
if [ -n "$NCCL_DIR" ]; then
  NCCL_OPT=(--nccl-lib "$NCCL_DIR")
  export LD_LIBRARY_PATH="$NCCL_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
[ -n "$CUDART_DIR" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$CUDART_DIR"

# nccl-tests 2.19.6's all_reduce_perf, built from a carried source tree where nvcc is here (it is not part of the
# project: the public NVIDIA/nccl-tests source, carried alongside).
SRC=${NCCL_TESTS_SRC:-nccl-tests}
BIN=${NCCL_TESTS_BIN:-}
if [ -z "$BIN" ] && [ -d "$SRC/src" ] && command -v nvcc >/dev/null 2>&1 && [ -n "$NCCL_DIR" ]; then
  NCCL_HOME_TMP=$(mktemp -d)
  mkdir -p "$NCCL_HOME_TMP/include" && ln -s "$NCCL_DIR" "$NCCL_HOME_TMP/lib"
  [ -d "$NCCL_DIR/../include" ] && cp "$NCCL_DIR"/../include/nccl*.h "$NCCL_HOME_TMP/include/" 2>/dev/null
  step build-nccl-tests make -C "$SRC/src" -j "$(nproc)" "$PWD/$SRC/build/all_reduce_perf" BUILDDIR="$PWD/$SRC/build" \
    NCCL_HOME="$NCCL_HOME_TMP" CUDA_HOME="$(dirname "$(dirname "$(command -v nvcc)")")" NVCC_GENCODE="$NVCC_GENCODE"
  [ -x "$SRC/build/all_reduce_perf" ] && BIN="$PWD/$SRC/build/all_reduce_perf"
fi
note "all_reduce_perf: ${BIN:-none (no carried source tree, nvcc or NCCL to build it with)}"

JAVACPP_CACHE="$OUT/javacpp-cache"
H=("$JAVA" "-Dorg.bytedeco.javacpp.cachedir=$JAVACPP_CACHE" -jar "$HARNESS_JAR")
FLAGS=(-b 8 -e "$MAX_BYTES" -f 2 -g 1)

# a sweep step, and where all_reduce_perf exists the same flags next to it
pair() {
  local name=$1; shift
  step "$name" "${H[@]}" sweep "$@" "${NCCL_OPT[@]}"
  if [ -n "$BIN" ]; then
    step "$name-compare" env JAVA="$JAVA" HARNESS_JAR="$HARNESS_JAR" NCCL_TESTS_BIN="$BIN" OUT_DIR="$OUT/$name-compare" \
      scripts/compare-nccl-tests.sh "$@"
  fi
}

step version      "${H[@]}" --version
step gpus         "${H[@]}" gpus "${NCCL_OPT[@]}"
step smoke        "${H[@]}" gpus --smoke "${NCCL_OPT[@]}"
step doctor       "${H[@]}" doctor "${NCCL_OPT[@]}"
step sweep-json   "${H[@]}" sweep "${FLAGS[@]}" --json "$OUT/sweep.json" "${NCCL_OPT[@]}"
step bringup      "${H[@]}" bringup -e "$MAX_BYTES" -N 2 -o "$OUT/bringup" "${NCCL_OPT[@]}"
pair sweep        "${FLAGS[@]}"
pair runs-3       "${FLAGS[@]}" -N 3
pair graph-10     "${FLAGS[@]}" -G 10
pair blocking-1   "${FLAGS[@]}" -z 1
pair agg-2        "${FLAGS[@]}" -m 2
pair per-iter     "${FLAGS[@]}" -I 1
# shellcheck disable=SC2086
pair big          $BIG -f 2 -g 1
rm -rf "$JAVACPP_CACHE"

echo
echo "== summary ($SUMMARY), $((SECONDS - BEGIN)) s"
cat "$SUMMARY"
