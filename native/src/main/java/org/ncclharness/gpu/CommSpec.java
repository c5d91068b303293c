package org.ncclharness.gpu;

/**
 * The communicators one process creates: one per local GPU, ranks {@code firstRank ..
 * firstRank + devices.length - 1} of {@code nranks}, all from the same unique id (nccl-tests: global rank =
 * (process·threads + thread)·gpus + i). One process per GPU is the case {@code devices.length == 1};
 * {@code -g N} in one process is {@code devices = {0..N-1}, nranks = N, firstRank = 0}.
 *
 * @param devices    CUDA device indices (after CUDA_VISIBLE_DEVICES), one per local rank
 * @param nullStream {@code -y 1}: launch on the legacy default stream instead of a non-blocking stream
 */
public record CommSpec(int[] devices, int nranks, int firstRank, UniqueId uniqueId, boolean nullStream) {

    public CommSpec {
        devices = devices.clone();
        if (devices.length == 0) {
            throw new IllegalArgumentException("at least one local GPU");
        }
        if (firstRank < 0 || firstRank + devices.length > nranks) {
            throw new IllegalArgumentException("local ranks " + firstRank + ".." + (firstRank + devices.length - 1)
                    + " do not fit in " + nranks + " ranks");
        }
    }

    @Override
    public int[] devices() {
        return devices.clone();
    }
}
