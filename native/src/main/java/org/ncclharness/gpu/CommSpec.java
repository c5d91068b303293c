package org.ncclharness.gpu;

/**
 * The communicators one process creates: one per local GPU, ranks {@code firstRank ..
 * firstRank + devices.length - 1} of {@code nranks}, all from the same unique id (nccl-tests: global rank =
 * (process·threads + thread)·gpus + i). One process per GPU is the case {@code devices.length == 1};
 * {@code -g N} in one process is {@code devices = {0..N-1}, nranks = N, firstRank = 0}.
 *
 * @param devices         CUDA device indices (after CUDA_VISIBLE_DEVICES), one per local rank
 * @param nullStream      {@code -y 1}: launch on the legacy default stream instead of a non-blocking stream
 * @param ctaPolicy       {@code -x}: ncclConfig_t.CTAPolicy (0 default, 1 efficiency, 2 zero), or -1 to leave it
 *                        unset as nccl-tests does without -x
 * @param maxP2pPeers     ncclConfig_t.maxP2pPeers, or 0 to leave it unset (nccl-tests' sendrecv sets 2)
 * @param unalignElements {@code -u}: every buffer pointer handed to NCCL lies this many elements past the start of
 *                        its allocation, as nccl-tests misaligns them
 */
public record CommSpec(int[] devices, int nranks, int firstRank, UniqueId uniqueId, boolean nullStream,
                       int ctaPolicy, int maxP2pPeers, int unalignElements) {

    public CommSpec {
        devices = devices.clone();
        if (devices.length == 0) {
            throw new IllegalArgumentException("at least one local GPU");
        }
        if (firstRank < 0 || firstRank + devices.length > nranks) {
            throw new IllegalArgumentException("local ranks " + firstRank + ".." + (firstRank + devices.length - 1)
                    + " do not fit in " + nranks + " ranks");
        }
        if (ctaPolicy < -1 || ctaPolicy > 2 || maxP2pPeers < 0 || unalignElements < 0) {
            throw new IllegalArgumentException("CTA policy " + ctaPolicy + " (expected -1 to 2), maxP2pPeers "
                    + maxP2pPeers + " and unaligned elements " + unalignElements + " (expected 0 or more)");
        }
    }

    /** NCCL's defaults for the communicator's configuration, aligned buffers. */
    public CommSpec(int[] devices, int nranks, int firstRank, UniqueId uniqueId, boolean nullStream) {
        this(devices, nranks, firstRank, uniqueId, nullStream, -1, 0, 0);
    }

    @Override
    public int[] devices() {
        return devices.clone();
    }
}
