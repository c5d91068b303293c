package org.ncclharness.gpu;

import java.nio.ByteBuffer;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;

/**
 * What the timed loop needs from CUDA and NCCL, for the local ranks one process drives (one per GPU; {@code -g
 * N} drives N). The loop owns the order of calls, exactly nccl-tests' order; an implementation only performs
 * them. Implementations must not allocate Java objects or log in {@link #launch}, {@link #groupStart},
 * {@link #groupEnd}, {@link #recordEvent}, {@link #launchGraph} and {@link #waitAll}: they run inside the
 * timed region.
 *
 * <p>Buffers: each local rank has a send and a receive buffer, allocated once for the largest size. A launch
 * names its pointers as byte offsets into them; an in-place launch sends from the receive buffer.
 */
public interface CollectiveBackend extends AutoCloseable {

    /** How many ranks this process drives. */
    int localRanks();

    /** The global rank of local rank {@code local}. */
    int rank(int local);

    /** Ranks in the whole communicator. */
    int nranks();

    /** Allocates both buffers of every local rank; called once before the sweep, outside any timing. */
    void allocate(long sendBytes, long recvBytes);

    /** Fixes what every later {@link #launch} runs (nccl-tests runs one type/op/root per timed sweep). */
    void configure(Collective collective, DataType type, ReduceOp op, int root);

    /**
     * As {@link #configure(Collective, DataType, ReduceOp, int)}, with alltoallv's per-peer pattern; a backend that
     * runs alltoallv overrides this, the others need no pattern.
     */
    default void configure(Collective collective, DataType type, ReduceOp op, int root, PeerTraffic traffic) {
        configure(collective, type, op, root);
    }

    void groupStart();

    void groupEnd();

    /**
     * Enqueues one operation of the configured collective on local rank {@code local}'s stream.
     *
     * @param sendFromRecv   true for in-place: the send pointer lies in the receive buffer
     * @param sendOffset     byte offset of the send pointer in its buffer
     * @param recvOffset     byte offset of the receive pointer in the receive buffer
     * @param count          the element count passed to NCCL (nccl-tests' per-rank parameter count)
     */
    void launch(int local, boolean sendFromRecv, long sendOffset, long recvOffset, long count);

    /**
     * Waits until every local stream is idle, polling NCCL's asynchronous error state; on an error or after
     * {@code timeoutNanos} (0 = none) aborts every local communicator and throws {@link GpuJobException}.
     */
    void waitAll(long timeoutNanos);

    /**
     * A barrier through the communicators themselves, for inside the timed loop: a one-element sum all-reduce on
     * every local rank's stream (grouped), then {@link #waitAll}. It is what torch.distributed's barrier does on
     * NCCL, and it releases the ranks within one small collective's latency. It is job-wide only where the
     * communicators span the job (no NCCL_TESTS_SPLIT). Needs {@link #allocate} first.
     */
    void deviceBarrier(long timeoutNanos);

    /** Starts CUDA-graph capture on every local stream (thread-local mode: other JVM threads may use CUDA). */
    void beginCapture();

    /** Ends capture on every local stream and instantiates the graphs. */
    void endCaptureAndInstantiate();

    /** Launches every local rank's instantiated graph once on its stream. */
    void launchGraph();

    /** Destroys the instantiated graphs. */
    void destroyGraph();

    /** Creates {@code slots} CUDA events per local rank for per-iteration timing (outside the timed region). */
    void prepareEvents(int slots);

    /** Records event {@code slot} on every local stream. */
    void recordEvent(int slot);

    /**
     * Milliseconds between events {@code slot} and {@code slot + 1}, the maximum over local ranks (nccl-tests
     * -I: per-iteration time is the max over a thread's GPUs). Called after {@link #waitAll}.
     */
    double elapsedMillisMaxOverLocal(int slot);

    /** Sets the first {@code bytes} of a buffer of local rank {@code local} to zero (synchronously). */
    void zero(int local, boolean recvBuffer, long bytes);

    /** Copies {@code src}'s remaining bytes to a buffer at {@code offset} (synchronously). */
    void upload(int local, boolean recvBuffer, long offset, ByteBuffer src);

    /** Fills {@code dst}'s remaining bytes from the receive buffer at {@code offset} (synchronously). */
    void download(int local, long offset, ByteBuffer dst);

    /**
     * NCCL's own estimate, in µs, of one operation of {@code count} elements of the configured collective
     * (ncclGroupSimulateEnd: nothing runs); empty where the library has no estimate. Outside the timed region.
     */
    default OptionalDouble ncclEstimateUs(long count) {
        return OptionalDouble.empty();
    }

    /** Aborts every local communicator (ncclCommAbort) so no peer waits on this process. Idempotent. */
    void abort();

    /** Frees buffers, events, streams and destroys the communicators. */
    @Override
    void close();
}
