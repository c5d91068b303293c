package org.ncclharness.harness.live;

import org.ncclharness.gpu.JobGroup;

/**
 * The launch layer's control plane as the native timed loop sees it: nccl-tests' {@code MPI_Barrier} and
 * {@code MPI_Allreduce} on {@code MPI_COMM_WORLD}, over the harness's own sockets.
 */
final class JobGroupBridge implements JobGroup {

    private final org.ncclharness.harness.launch.JobGroup job;

    JobGroupBridge(org.ncclharness.harness.launch.JobGroup job) {
        this.job = job;
    }

    @Override
    public int processIndex() {
        return job.rank();
    }

    @Override
    public int processCount() {
        return job.size();
    }

    @Override
    public void barrier() {
        job.barrier();
    }

    @Override
    public void allreduce(double[] values, Reduction op) {
        double[] r = job.allreduce(values, switch (op) {
            case SUM -> org.ncclharness.harness.launch.JobGroup.Op.SUM;
            case MIN -> org.ncclharness.harness.launch.JobGroup.Op.MIN;
            case MAX -> org.ncclharness.harness.launch.JobGroup.Op.MAX;
        });
        System.arraycopy(r, 0, values, 0, values.length);
    }
}
