package org.ncclharness.harness.live;

import java.nio.ByteBuffer;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.gpu.CollectiveBackend;
import org.ncclharness.gpu.DataType;
import org.ncclharness.gpu.ReduceOp;

/**
 * Test double for NCCL (test code only, never reachable from the command line): every operation returns at
 * once, so the timed loop measures only itself. It exercises the harness's wiring, not any GPU.
 */
final class NoGpuBackend implements CollectiveBackend {

    private final int nranks;
    int launches;

    NoGpuBackend(int nranks) {
        this.nranks = nranks;
    }

    @Override public int localRanks() { return nranks; }
    @Override public int rank(int local) { return local; }
    @Override public int nranks() { return nranks; }
    @Override public void allocate(long sendBytes, long recvBytes) { }
    @Override public void configure(Collective collective, DataType type, ReduceOp op, int root) { }
    @Override public void groupStart() { }
    @Override public void groupEnd() { }
    @Override public void launch(int local, boolean sendFromRecv, long sendOffset, long recvOffset, long count) {
        launches++;
    }
    @Override public void waitAll(long timeoutNanos) { }
    @Override public void deviceBarrier(long timeoutNanos) { }
    @Override public void beginCapture() { }
    @Override public void endCaptureAndInstantiate() { }
    @Override public void launchGraph() { }
    @Override public void destroyGraph() { }
    @Override public void prepareEvents(int slots) { }
    @Override public void recordEvent(int slot) { }
    @Override public double elapsedMillisMaxOverLocal(int slot) { return 0.001 * (slot + 1); }
    @Override public void zero(int local, boolean recvBuffer, long bytes) { }
    @Override public void upload(int local, boolean recvBuffer, long offset, ByteBuffer src) { }
    @Override public void download(int local, long offset, ByteBuffer dst) { }
    @Override public void abort() { }
    @Override public void close() { }
}
