package org.ncclharness.gpu;

/**
 * The processes of one job, as the launch layer connects them (its own TCP rendezvous, not NCCL): the
 * timed loop's host barrier and the cross-process reduction of times and error counts, i.e. nccl-tests'
 * {@code MPI_Barrier} and {@code MPI_Allreduce} on {@code MPI_COMM_WORLD}.
 */
public interface JobGroup {

    enum Reduction { SUM, MIN, MAX }

    /** This process's index, 0 for the process whose values {@code -a 0} reports. */
    int processIndex();

    /** How many processes take part (each drives one or more local ranks). */
    int processCount();

    /** Returns when every process has called it. */
    void barrier();

    /** Reduces {@code values} element-wise across all processes, in place; every process gets the result. */
    void allreduce(double[] values, Reduction op);

    /** The group of a job that is a single process (one GPU, or {@code -g N} GPUs in one process). */
    static JobGroup single() {
        return SingleProcess.INSTANCE;
    }

    /** The trivial group: nothing to wait for, nothing to combine. */
    enum SingleProcess implements JobGroup {
        INSTANCE;

        @Override
        public int processIndex() {
            return 0;
        }

        @Override
        public int processCount() {
            return 1;
        }

        @Override
        public void barrier() {
            // one process: nobody else to wait for
        }

        @Override
        public void allreduce(double[] values, Reduction op) {
            // one process: the local values are the result
        }
    }
}
