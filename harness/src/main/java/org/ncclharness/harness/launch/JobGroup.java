package org.ncclharness.harness.launch;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The ranks of one job, joined over the harness's own control plane (a star around rank 0, JDK sockets only):
 * what the sweep and the native timing loop use in place of MPI. It knows nothing of NCCL.
 *
 * <p>Every rank calls the same operations in the same order, as with MPI collectives; a rank that calls a
 * different one ends the job ("ranks diverged"). Payloads are small (the 128-byte NCCL unique id, a few timings
 * per size): each contribution is limited to {@link JobOptions#maxMessageBytes()}. Rank 0 reduces in rank
 * order, so results are deterministic. One thread calls the operations (like an MPI communicator without
 * MPI_THREAD_MULTIPLE); {@link #onFailure} hooks and {@link #failure()} may be used from any thread.
 *
 * <p>Faults: a rank that dies, hangs (no heartbeat) or times out makes every operation on every rank throw
 * {@link JobFailedException} (exit code 4) naming it, and runs the {@link #onFailure} hooks once, from another
 * thread, so a rank blocked inside a native call can abort its NCCL communicator. If the process is still alive
 * {@link JobOptions#haltAfterFailure()} later, it is halted with exit code 4: never a hang.
 */
public interface JobGroup extends AutoCloseable {

    /** The reductions of {@link #allreduce}; nccl-tests' {@code -a 1} average is SUM divided by {@link #size()}. */
    enum Op {
        SUM, MIN, MAX;

        double apply(double a, double b) {
            return switch (this) {
                case SUM -> a + b;
                case MIN -> Math.min(a, b);
                case MAX -> Math.max(a, b);
            };
        }
    }

    int rank();

    int size();

    /** Every rank, in rank order, with local rank and size recomputed from host ids. */
    List<Member> members();

    /** Returns when every rank has called it. */
    void barrier();

    /** Element-wise reduction across ranks; every rank passes the same length and gets the result. */
    double[] allreduce(double[] values, Op op);

    /** Rank 0's {@code data} on every rank (the others' argument is ignored and may be null). */
    byte[] broadcast(byte[] data);

    /** Every rank's {@code mine}, in rank order, on every rank. */
    List<byte[]> gather(byte[] mine);

    /**
     * Runs {@code hook} once, with the one-line failure message, when the job fails (immediately if it already
     * has). Hooks run on a watchdog thread: abort native work there (ncclCommAbort), do not block for long.
     */
    void onFailure(Consumer<String> hook);

    /** The failure that ended the job, if one did. */
    Optional<String> failure();

    /** Ends the job on every rank because this rank cannot go on; the others exit 4 with {@code reason}. */
    void abort(String reason);

    /** Leaves the job cleanly; every rank closes after its last operation. */
    @Override
    void close();
}
