package org.ncclharness.gpu;

/**
 * One NCCL_DEBUG TUNING line: what NCCL chose for one operation, as rank 0 logged it at enqueue time.
 *
 * @param function  NCCL function ({@code AllReduce}); null in the 2.20–2.22 format, which does not name it
 * @param bytes     {@code count · elementSize} of the API call: the nccl-tests size for AllReduce, Broadcast
 *                  and Reduce, the per-rank size (size / nranks) for AllGather and ReduceScatter
 * @param algorithm canonical upper-case name: TREE, RING, COLLNET_DIRECT, COLLNET_CHAIN, NVLS, NVLS_TREE,
 *                  PAT; for a symmetric-memory or copy-engine path the kernel name as logged
 * @param protocol  LL, LL128 or SIMPLE; null for the non-classic paths
 * @param channelLo first channel (2.24+), null before
 * @param channelHi last channel (2.24+), null before
 * @param predictedUs NCCL's predicted time (2.20–2.23 lines only), null otherwise
 * @param path      {@code null} for the classic collective kernels, else the bracketed tag
 *                  ({@code Symmetric}, {@code Copy Engine}, ...)
 * @param line      1-based line number in the log
 */
public record TuningChoice(String function, long bytes, String algorithm, String protocol, Integer channelLo,
                           Integer channelHi, Double predictedUs, String path, int line) {
}
