package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.List;

/**
 * Which NCCL release first exports each entry point (or accepts each enum value) this bridge may use. The
 * JavaCPP bindings are compiled against NCCL 2.30.7 headers, but their JNI library binds lazily: calling a
 * function the loaded {@code libnccl.so.2} lacks kills the JVM with {@code symbol lookup error} and no Java
 * exception (docs/gpu-bridge.md). So every call below the bindings' version goes through
 * {@link #isAvailable(NcclVersion)} with the version {@code ncclGetVersion} reported at run time.
 *
 * <p>Versions come from NCCL's release notes and nccl-tests' own {@code NCCL_VERSION(...)} guards: nccl-tests
 * 2.19.6 calls {@code ncclAlltoAll}, {@code ncclGather} and {@code ncclScatter} from NCCL 2.28 on (alltoall.cu,
 * gather.cu, scatter.cu); the 2.27.3 headers lack them.
 */
public enum NcclFeature {
    /** The oldest library the harness runs on: the timed loop's CUDA-graph mode (-G) needs NCCL 2.9. */
    BASELINE(2, 9, 0, "ncclCommInitRank, ncclSend/ncclRecv, ncclCommAbort, CUDA-graph capture"),
    AVG_OP(2, 10, 0, "ncclAvg"),
    BFLOAT16(2, 10, 0, "ncclBfloat16"),
    PREMUL_SUM(2, 11, 0, "ncclRedOpCreatePreMulSum"),
    GET_LAST_ERROR(2, 13, 0, "ncclGetLastError"),
    COMM_INIT_RANK_CONFIG(2, 14, 0, "ncclCommInitRankConfig, ncclCommFinalize"),
    COMM_SPLIT(2, 18, 0, "ncclCommSplit"),
    MEM_ALLOC(2, 19, 0, "ncclMemAlloc, ncclMemFree"),
    COMM_REGISTER(2, 19, 0, "ncclCommRegister, ncclCommDeregister"),
    GROUP_SIMULATE(2, 22, 0, "ncclGroupSimulateEnd (NCCL's own time estimate)"),
    FLOAT8(2, 24, 0, "ncclFloat8e4m3, ncclFloat8e5m2"),
    PER_OP_TUNING_LOG(2, 24, 0, "NCCL_DEBUG_SUBSYS=TUNING per-op 'Bytes -> Algo NAME proto NAME' lines"),
    WINDOW_REGISTER(2, 27, 0, "ncclCommWindowRegister"),
    CTA_POLICY(2, 27, 0, "ncclConfig_t.CTAPolicy (-x 0 or 1)"),
    ALL_TO_ALL_API(2, 28, 0, "ncclAlltoAll"),
    GATHER_SCATTER_API(2, 28, 0, "ncclGather, ncclScatter"),
    CTA_POLICY_ZERO(2, 28, 0, "NCCL_CTA_POLICY_ZERO (-x 2)"),
    /** nccl-tests 2.19.6 built against NCCL 2.28+ sets it on every communicator (common.cu, initComms). */
    NVLINK_CENTRIC_SCHED(2, 28, 0, "ncclConfig_t.nvlinkCentricSched"),
    /** nccl-tests 2.19.6's sendrecv sets it to 2 (a ring has two peers) where NCCL has it (sendrecv.cu). */
    MAX_P2P_PEERS(2, 30, 0, "ncclConfig_t.maxP2pPeers");

    private final NcclVersion since;
    private final String what;

    NcclFeature(int major, int minor, int patch, String what) {
        this.since = new NcclVersion(major, minor, patch);
        this.what = what;
    }

    /** The first NCCL release that has it. */
    public NcclVersion since() {
        return since;
    }

    /** The entry points or values this feature stands for, for messages. */
    public String what() {
        return what;
    }

    public boolean isAvailable(NcclVersion loaded) {
        return loaded.atLeast(since);
    }

    /** The features a loaded library lacks, oldest first. */
    public static List<NcclFeature> missingFrom(NcclVersion loaded) {
        return Arrays.stream(values()).filter(f -> !f.isAvailable(loaded)).toList();
    }

    /** Throws a one-line error if the loaded library lacks the feature; call before the native function. */
    public void require(NcclVersion loaded) {
        if (!isAvailable(loaded)) {
            throw new GpuEnvironmentException(new ProbeProblem(ProbeFailure.NCCL_TOO_OLD,
                    what + " needs NCCL " + since + " or newer; the loaded library is " + loaded));
        }
    }
}
