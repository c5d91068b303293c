/*
 * A STAND-IN for nccl-tests' all_reduce_perf, for testing scripts/gpu-check.sh without a GPU: it prints the table
 * nccl-tests 2.19.6 prints (header, -z and -I lines, -I columns, trailer) with made-up times, and says so in its
 * first line. Only the flags the check passes are read: -b -e -f -n -m -G -z -I; a 1-rank float sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parseBytes(const char *s) {
  char *end;
  double v = strtod(s, &end);
  switch (*end) {
    case 'G': case 'g': v *= 1024; /* fall through */
    case 'M': case 'm': v *= 1024; /* fall through */
    case 'K': case 'k': v *= 1024; break;
    default: break;
  }
  return (long)v;
}

/* getFloatStr in nccl-tests' util.cu: the widest of %.2f, %.1f, %.0f that fits, else an exponent */
static void floatStr(double value, int width, char *str) {
  if (snprintf(str, width + 1, "%*.2f", width, value) <= width) return;
  if (snprintf(str, width + 1, "%*.1f", width, value) <= width) return;
  if (snprintf(str, width + 1, "%*.0f", width, value) <= width) return;
  snprintf(str, width + 1, width >= 7 ? "%*.1e" : "%*.0e", width, value);
}

static void half(long bytes, double us, int perIter, int inPlace) {
  char t[8], a[7], b[7];
  floatStr(us, 7, t);
  floatStr(bytes / 1e3 / us, 6, a);
  floatStr(0.0, 6, b);
  printf("  %7s  %6s  %6s  %6g", t, a, b, 0.0);
  if (perIter) {
    char mn[8], mx[8], p99[8], cv[8];
    floatStr(us * 0.9, 7, mn);
    floatStr(us * 1.3, 7, mx);
    floatStr(us * 1.25, 7, p99);
    floatStr(inPlace ? 4.0 : 5.0, 7, cv);
    printf("  %7s  %7s  %7s  %7s", mn, mx, p99, cv);
  }
}

int main(int argc, char **argv) {
  long minBytes = 32 * 1024 * 1024, maxBytes = 32 * 1024 * 1024, factor = 1;
  int iters = 20, agg = 1, graph = 0, blocking = 0, perIter = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *f = argv[i], *v = argv[i + 1];
    if (!strcmp(f, "-b")) minBytes = parseBytes(v);
    else if (!strcmp(f, "-e")) maxBytes = parseBytes(v);
    else if (!strcmp(f, "-f")) factor = atol(v);
    else if (!strcmp(f, "-n")) iters = atoi(v);
    else if (!strcmp(f, "-m")) agg = atoi(v);
    else if (!strcmp(f, "-G")) graph = atoi(v);
    else if (!strcmp(f, "-z")) blocking = atoi(v);
    else if (!strcmp(f, "-I")) perIter = atoi(v);
  }
  if (perIter && graph) perIter = 0;
  if (blocking == 3 && graph) blocking = 0;
  printf("# STAND-IN all_reduce_perf (a test double, no GPU): nccl-tests 2.19.6's format, made-up times\n");
  printf("# nccl-tests version 2.19.6 nccl-headers=23007 nccl-library=23007\n");
  printf("# Collective test starting: all_reduce_perf\n");
  printf("# nThread 1 nGpus 1 minBytes %ld maxBytes %ld step: %ld(factor) warmup iters: 1 iters: %d agg iters: %d"
         " validation: 1 graph: %d unalign: 0\n", minBytes, maxBytes, factor, iters, agg, graph);
  if (blocking == 1) printf("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
  if (perIter) printf("# Per-Iteration Report: CUDA event timing; i_* uses max over process rows \n");
  printf("#\n# Using devices\n#  Rank  0 Group  0 Pid %6d on %10s device  0 [0000:00:00] Stand-in GPU\n#\n", 1,
         "standin");
  if (perIter) {
    printf("# %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)                                in-place (+ per-iteration)\n", "", "", "", "", "");
    printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s \n",
           "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99",
           "i_cv%", "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%");
    printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s \n",
           "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", "(us)",
           "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)");
  } else {
    printf("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n", "", "", "", "", "");
    printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size", "count", "type", "redop",
           "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
    printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)", "(elements)", "", "", "",
           "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
  }
  for (long size = minBytes; size <= maxBytes; size = factor > 1 ? size * factor : size + 1) {
    long bytes = size / 4 * 4;
    printf("%12li  %12li  %8s  %6s  %6s", bytes, bytes / 4, "float", "sum", "    -1");
    half(bytes, 5.0 + bytes / 2e3, perIter, 0);
    half(bytes, 4.0 + bytes / 2e3, perIter, 1);
    printf("\n");
  }
  printf("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0 \n#\n");
  printf("# Collective test concluded: all_reduce_perf\n#\n\n");
  return 0;
}
