package org.ncclharness.gpu;

import static org.bytedeco.cuda.global.nccl.ncclAllReduce;
import static org.bytedeco.cuda.global.nccl.ncclFloat;
import static org.bytedeco.cuda.global.nccl.ncclSum;

import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.Pointer;

/**
 * The host's share of one collective launch that is the harness's own: the JavaCPP/JNI crossing into NCCL with its
 * argument marshalling, on the very binding the timed loop calls ({@code ncclAllReduce}), with a null
 * communicator, at which NCCL returns {@code ncclInvalidArgument} at its first check: no GPU is touched, and what
 * remains is what a C program such as nccl-tests does not pay. Cold: the first calls, as the first sizes of a
 * sweep meet them before the JIT has compiled the path (the sweep's launch warm-up exists for this); warm: after.
 *
 * @param coldCalls     calls timed first
 * @param coldNsPerCall their mean
 * @param warmCalls     calls timed after them
 * @param warmNsPerCall their mean
 * @param ncclResult    what NCCL returned (ncclInvalidArgument, 4, from a real NCCL)
 */
public record LaunchCost(int coldCalls, double coldNsPerCall, int warmCalls, double warmNsPerCall, int ncclResult) {

    /** Needs libnccl.so.2 loaded ({@link Gpus#probe} reports whether it is). */
    public static LaunchCost measure(int coldCalls, int warmCalls) {
        Pointer send = new Pointer();
        Pointer recv = new Pointer();
        ncclComm none = new ncclComm();
        CUstream_st stream = new CUstream_st();
        int rc = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < coldCalls; i++) {
            rc = ncclAllReduce(send, recv, 1, ncclFloat, ncclSum, none, stream);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < warmCalls; i++) {
            rc = ncclAllReduce(send, recv, 1, ncclFloat, ncclSum, none, stream);
        }
        long t2 = System.nanoTime();
        return new LaunchCost(coldCalls, (t1 - t0) / (double) Math.max(1, coldCalls), warmCalls,
                (t2 - t1) / (double) Math.max(1, warmCalls), rc);
    }
}
