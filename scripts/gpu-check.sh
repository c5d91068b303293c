#!/usr/bin/env bash
# One bounded look at a GPU node, shaped for a device call that returns at most 8 files and the last 12,000
# characters of output: what is installed, whether the JVM sees the driver, CUDA runtime, NCCL and GPUs, and the
# harness's sweeps next to nccl-tests' all_reduce_perf with the same flags. It writes two files under OUT:
#   summary.txt      (under 10,000 characters, also printed): library paths, driver, GPU, the nccl-tests build and
#                    its time, one line per step, per size harness vs nccl-tests (time, algbw, ratios) for the plain
#                    and -G sweeps, and the geometric means of every flag set
#   gpu-check.tar.gz every step's full output (re-packed after each step, so a call cut short still returns it)
# The build has its own timeout and runs before the sweeps' deadline starts; each step has a timeout and the sweeps
# a deadline, so a rerun fits in the same window. A failed step is recorded, never fatal. HARNESS_NO_REPLAY=1 is
# exported: a sweep whose GPU probe fails exits 3, never prints bundled numbers.
#
# Usage (repository root, OUT set, runtime.tar.xz and nccl-tests/ carried):  bash scripts/gpu-check.sh
#   OUT=DIR           where the two files go (default gpu-check-<UTC>)
#   JAVA / HARNESS_JAR  java and jar (default: runtime/ from scripts/make-runtime.sh or RUNTIME_XZ, that folder
#                     packed with tar -cJf (default runtime.tar.xz), else java and harness/target/harness.jar)
#   NCCL_LIB / CUDART_LIB  directories of libnccl.so.2 / libcudart.so.13 (default: the linker's cache, then pip's
#                     nvidia/nccl/lib and nvidia/cu13/lib or nvidia/cuda_runtime/lib on python3's path, then
#                     /usr/local/cuda/lib64)
#   LDCONFIG=...      the linker-cache tool asked first (default ldconfig)
#   NCCL_TESTS_SRC=D  nccl-tests source tree (default nccl-tests/);  NCCL_TESTS_BIN=F  a built all_reduce_perf
#   NVCC_GENCODE=...  (default -gencode=arch=compute_90,code=sm_90, an H100/H200);  BUILD_TIMEOUT=s (default 300)
#   MAX_BYTES=128M    the sweeps' -e;  BIG="-b 1G -e 8G -c 0" the large sizes' flags
#   STEP_TIMEOUT=s    per step (default 120);  DEADLINE=s  for all the steps after the build (default 240)
#   PROBE_TIMEOUT=s   each lookup before the build: python3's path, nvidia-smi, java -version (default 30)
# Build and sweeps at most 540 s: a device call's 600 s limit leaves the rest to the lookups and the start.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-gpu-check-$(date -u +%Y%m%dT%H%M%SZ)}
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
DEADLINE=${DEADLINE:-240}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-300}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-30}
MAX_BYTES=${MAX_BYTES:-128M}
BIG=${BIG:--b 1G -e 8G -c 0}
NVCC_GENCODE=${NVCC_GENCODE:--gencode=arch=compute_90,code=sm_90}
export HARNESS_NO_REPLAY=1
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
LOGS="$WORK/gpu-check"
mkdir -p "$LOGS"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"

note() { echo "$*" | tee -a "$SUMMARY"; }
DESC=""
pack() { tar -czf "$OUT/gpu-check.tar.gz.part" -C "$WORK" gpu-check && mv "$OUT/gpu-check.tar.gz.part" "$OUT/gpu-check.tar.gz"; }

# run_limited NAME LIMIT CMD...: CMD with a timeout, output to LOGS/NAME.txt (the command on its first line), one
# summary line naming the step, its result, its time and DESC (what the step is, in a few words); sets RC.
run_limited() {
  local name=$1 limit=$2; shift 2
  local start=$SECONDS
  echo "\$ $*" >"$LOGS/$name.txt"
  timeout --kill-after=5 "$limit" "$@" >>"$LOGS/$name.txt" 2>&1
  RC=$?
  local what="rc=$RC"
  [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ] && what="TIMEOUT after ${limit}s"
  note "$(printf 'step %-16s %-20s %4ds  %s' "$name" "$what" $((SECONDS - start)) "$DESC" | cut -c1-120)"
  pack
}

# step NAME CMD...: run_limited with the smaller of STEP_TIMEOUT and what the sweeps' deadline leaves; past the
# deadline the step is skipped and says so.
step() {
  local name=$1; shift
  local left=$((DEADLINE - (SECONDS - BEGIN)))
  if [ "$left" -lt 5 ]; then
    note "$(printf 'step %-16s %-20s %4ds  %s' "$name" "SKIPPED: deadline" 0 "$DESC" | cut -c1-120)"
    RC=-1
    return 0
  fi
  local limit=$STEP_TIMEOUT
  [ "$left" -lt "$limit" ] && limit=$left
  run_limited "$name" "$limit" "$@"
}

# The folders python3 imports from: where pip put the NVIDIA wheels.
SITES=()
if command -v python3 >/dev/null 2>&1; then
  while IFS= read -r d; do [ -d "$d/nvidia" ] && SITES+=("$d/nvidia"); done < <(timeout "$PROBE_TIMEOUT" python3 -c \
    'import sys, site; print("\n".join(sys.path + site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null)
fi

# lib_dir SONAME SUBDIR...: the directory holding SONAME: the linker's cache, pip's nvidia/SUBDIR, system folders.
lib_dir() {
  local so=$1 d s sub; shift
  d=$("${LDCONFIG:-ldconfig}" -p 2>/dev/null | awk -v so="$so" '$1 == so {print $NF; exit}')
  if [ -n "$d" ]; then dirname "$d"; return; fi
  for s in "${SITES[@]}"; do
    for sub in "$@"; do
      [ -f "$s/$sub/$so" ] && { echo "$s/$sub"; return; }
    done
  done
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
    [ -f "$d/$so" ] && { echo "$d"; return; }
  done
}

# The Java runtime: runtime/ (scripts/make-runtime.sh), else runtime.tar.xz (the same folder packed with tar -cJf,
# which carries in about 38 MB where the folder takes 61, beside a working tree under the 64 MiB limit), else java.
RT=$ROOT/runtime
RUNTIME_XZ=${RUNTIME_XZ:-runtime.tar.xz}
if [ ! -x "$RT/bin/java" ] && [ -f "$RUNTIME_XZ" ]; then
  tar -xJf "$RUNTIME_XZ" -C "$WORK" && RT=$(dirname "$(dirname "$(find "$WORK" -path '*/bin/java' -type f | head -1)")")
fi
if [ -z "${JAVA:-}" ]; then
  if [ -x "$RT/bin/java" ]; then JAVA=$RT/bin/java; else JAVA=java; fi
fi
if [ -z "${HARNESS_JAR:-}" ]; then
  if [ -f "$RT/harness.jar" ]; then HARNESS_JAR=$RT/harness.jar; else HARNESS_JAR=$ROOT/harness/target/harness.jar; fi
fi
NCCL_DIR=${NCCL_LIB:-$(lib_dir libnccl.so.2 nccl/lib)}
CUDART_DIR=${CUDART_LIB:-$(lib_dir libcudart.so.13 cu13/lib cuda_runtime/lib)}
note "nccl library directory: ${NCCL_DIR:-none found}"
note "cudart library directory: ${CUDART_DIR:-none found}"
NCCL_OPT=()
if [ -n "$NCCL_DIR" ]; then
  NCCL_OPT=(--nccl-lib "$NCCL_DIR")
  export LD_LIBRARY_PATH="$NCCL_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
[ -n "$CUDART_DIR" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$CUDART_DIR"
note "driver and GPU: $(timeout "$PROBE_TIMEOUT" nvidia-smi --query-gpu=driver_version,name,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1 || true)"
note "java: $JAVA ($(timeout "$PROBE_TIMEOUT" "$JAVA" -version 2>&1 | grep -m1 version))  jar: $HARNESS_JAR"

# nccl-tests' all_reduce_perf from the carried source (the public NVIDIA/nccl-tests tree, not part of the project),
# against a private NCCL_HOME: the WHOLE include folder (NCCL >= 2.28's nccl_device.h includes nccl_device/*.h) and
# an unversioned libnccl.so (pip ships only libnccl.so.2). Timed on its own, before the sweeps' deadline starts.
SRC=${NCCL_TESTS_SRC:-nccl-tests}
BIN=${NCCL_TESTS_BIN:-}
if [ -z "$BIN" ]; then
  if [ ! -d "$SRC/src" ]; then
    note "nccl-tests build: skipped, no source tree at $SRC (carry it: git clone NVIDIA/nccl-tests)"
  elif ! command -v nvcc >/dev/null 2>&1; then
    note "nccl-tests build: skipped, no nvcc on PATH"
  elif [ -z "$NCCL_DIR" ] || [ ! -d "$NCCL_DIR/../include" ]; then
    note "nccl-tests build: skipped, no NCCL include folder beside ${NCCL_DIR:-(no NCCL found)}"
  else
    HOME_DIR="$WORK/nccl-home"
    mkdir -p "$HOME_DIR/lib"
    ln -s "$(cd "$NCCL_DIR/../include" && pwd)" "$HOME_DIR/include"
    ln -s "$NCCL_DIR/libnccl.so.2" "$HOME_DIR/lib/libnccl.so"
    BUILD="$WORK/nccl-tests-build"
    CUDA_DIR=$(dirname "$(dirname "$(command -v nvcc)")")
    DESC="make all_reduce_perf ($NVCC_GENCODE)"
    run_limited build-nccl-tests "$BUILD_TIMEOUT" make -C "$SRC/src" -j "$(nproc)" "$BUILD/all_reduce_perf" \
      BUILDDIR="$BUILD" NCCL_HOME="$HOME_DIR" CUDA_HOME="$CUDA_DIR" NVCC_GENCODE="$NVCC_GENCODE"
    if [ -x "$BUILD/all_reduce_perf" ]; then
      BIN="$BUILD/all_reduce_perf"
    else
      note "nccl-tests build: failed, last lines:"
      tail -n 5 "$LOGS/build-nccl-tests.txt" | cut -c1-150 | tee -a "$SUMMARY"
    fi
  fi
fi
note "all_reduce_perf: ${BIN:-none}"

BEGIN=$SECONDS
H=("$JAVA" "-Dorg.bytedeco.javacpp.cachedir=$WORK/javacpp-cache" -jar "$HARNESS_JAR")
DESC="harness gpus --smoke"
step gpus "${H[@]}" gpus --smoke "${NCCL_OPT[@]}"
sed 1d "$LOGS/gpus.txt" | tail -n 8 | cut -c1-150 | tee -a "$SUMMARY"   # line 1 is the command

# One flag set: with all_reduce_perf, both tools through compare-nccl-tests.sh (one JVM, one nccl-tests process);
# without, the harness sweep alone. --no-diagnose keeps it one JVM (the NCCL_DEBUG pass is a second one, and with
# one GPU there is no transport to diagnose). Only the sets in TABLES print their per-size side-by-side here.
TABLES=" plain graph-10 "
flag_set() {
  local name=$1; shift
  local args=("$@" -f 2 -g 1)
  DESC="${args[*]}"
  if [ -n "$BIN" ]; then
    step "$name" env JAVA="$JAVA" HARNESS_JAR="$HARNESS_JAR" NCCL_TESTS_BIN="$BIN" OUT_DIR="$LOGS/$name" \
      RUN_TIMEOUT="$STEP_TIMEOUT" HARNESS_ARGS="--no-calibrate --no-diagnose -J $LOGS/$name.json ${NCCL_OPT[*]}" \
      "$ROOT/scripts/compare-nccl-tests.sh" "${args[@]}"
    if [ -f "$LOGS/$name/ratio.txt" ]; then
      # the summary stays under 10,000 characters: a table that would pass 9,000 is left to the tarball
      if [[ $TABLES == *" $name "* ]] && [ $(($(wc -c <"$SUMMARY") + $(wc -c <"$LOGS/$name/ratio.txt"))) -lt 9000 ]; then
        note "-- $name ($*): harness vs nccl-tests per size"
        tee -a "$SUMMARY" <"$LOGS/$name/ratio.txt"
      else
        note "-- $name ($*): $(tail -n 1 "$LOGS/$name/ratio.txt")"
      fi
    fi
  else
    step "$name" "${H[@]}" sweep "${args[@]}" --no-calibrate --no-diagnose -J "$LOGS/$name.json" "${NCCL_OPT[@]}"
  fi
}
flag_set plain -b 8 -e "$MAX_BYTES"
flag_set graph-10 -b 8 -e "$MAX_BYTES" -G 10
flag_set blocking-1 -b 8 -e "$MAX_BYTES" -z 1
flag_set per-iter -b 8 -e "$MAX_BYTES" -I 1
flag_set agg-2 -b 8 -e "$MAX_BYTES" -m 2
# shellcheck disable=SC2086
flag_set big $BIG

note "total $SECONDS s (sweeps $((SECONDS - BEGIN)) s of a ${DEADLINE} s deadline); full outputs in gpu-check.tar.gz"
pack
