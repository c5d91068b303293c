package org.ncclharness.harness.figure;

/** The message sizes a figure spans, in bytes; model curves are sampled across it. */
public record SizeRange(long minBytes, long maxBytes) {

    public SizeRange {
        if (minBytes < 1 || maxBytes < minBytes) {
            throw new IllegalArgumentException("size range needs 1 ≤ min ≤ max, got " + minBytes + ".." + maxBytes);
        }
    }
}
