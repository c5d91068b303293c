package org.ncclharness.gpu;

import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.javacpp.Pointer;

/**
 * The only uses of binding members that not every packaged preset has: harness-cuda12.jar's
 * {@code org.bytedeco:cuda 12.9-9.10-1.5.12} binds NCCL 2.27.3, without {@code ncclAlltoAll}, {@code ncclGather},
 * {@code ncclScatter} or {@code ncclConfig_t}'s fields from 2.28 on. A call here is made only where the loaded
 * library has it and the binding class declares it (one reflection check each per JVM); elsewhere the JVM never
 * resolves it, so the same classes run on either preset. (Run against the older binding class it would throw
 * {@link NoSuchMethodError}; against an NCCL without the symbol the JNI library's lazy binding would end the JVM.)
 */
final class NewerNcclCalls {
    private static final boolean ALL_TO_ALL_BOUND = declares(nccl.class, "ncclAlltoAll", Pointer.class,
            Pointer.class, long.class, int.class, ncclComm.class, CUstream_st.class);
    private static final boolean GATHER_SCATTER_BOUND = declares(nccl.class, "ncclGather", Pointer.class,
            Pointer.class, long.class, int.class, int.class, ncclComm.class, CUstream_st.class)
            && declares(nccl.class, "ncclScatter", Pointer.class, Pointer.class, long.class, int.class, int.class,
            ncclComm.class, CUstream_st.class);
    /** The 2.30.7 binding's ncclConfig_t has every field {@link #newerConfigFields} sets; the 2.27.3 one none. */
    private static final boolean CONFIG_FROM_2_28_BOUND = declares(ncclConfig_t.class, "graphStreamOrdering",
            int.class);

    private NewerNcclCalls() {
    }

    /** Whether {@link #ncclAlltoAll} may be called: the loaded NCCL exports it and the binding declares it. */
    static boolean allToAll(NcclVersion loaded) {
        return loaded != null && NcclFeature.ALL_TO_ALL_API.isAvailable(loaded) && ALL_TO_ALL_BOUND;
    }

    static int ncclAlltoAll(Pointer send, Pointer recv, long count, int dtype, ncclComm comm, CUstream_st stream) {
        return nccl.ncclAlltoAll(send, recv, count, dtype, comm, stream);
    }

    /** Whether {@link #ncclGather} and {@link #ncclScatter} may be called, as {@link #allToAll}. */
    static boolean gatherScatter(NcclVersion loaded) {
        return loaded != null && NcclFeature.GATHER_SCATTER_API.isAvailable(loaded) && GATHER_SCATTER_BOUND;
    }

    static int ncclGather(Pointer send, Pointer recv, long count, int dtype, int root, ncclComm comm,
                          CUstream_st stream) {
        return nccl.ncclGather(send, recv, count, dtype, root, comm, stream);
    }

    static int ncclScatter(Pointer send, Pointer recv, long count, int dtype, int root, ncclComm comm,
                           CUstream_st stream) {
        return nccl.ncclScatter(send, recv, count, dtype, root, comm, stream);
    }

    /**
     * ncclConfig_t's fields from NCCL 2.28 on, where the binding's struct has them: NCCL_CONFIG_UNDEF_INT, then
     * what nccl-tests 2.19.6 sets where the loaded NCCL takes it (nvlinkCentricSched 1 from 2.28, maxP2pPeers
     * from 2.30 where above 0). The 2.27.3 struct has none of them, and its smaller size tells NCCL so: the
     * library keeps its defaults for them.
     */
    static void newerConfigFields(ncclConfig_t c, NcclVersion loaded, int maxP2pPeers) {
        if (!CONFIG_FROM_2_28_BOUND) {
            return;
        }
        int undef = Integer.MIN_VALUE;
        c.nChannelsPerNetPeer(undef).nvlinkCentricSched(undef).graphUsageMode(undef).numRmaCtx(undef)
                .maxP2pPeers(undef).graphStreamOrdering(undef);
        if (NcclFeature.NVLINK_CENTRIC_SCHED.isAvailable(loaded)) {
            c.nvlinkCentricSched(1);
        }
        if (maxP2pPeers > 0 && NcclFeature.MAX_P2P_PEERS.isAvailable(loaded)) {
            c.maxP2pPeers(maxP2pPeers);
        }
    }

    /** Reflection reads the class's methods without initializing it, so no native library loads here. */
    static boolean declares(Class<?> owner, String method, Class<?>... parameters) {
        try {
            owner.getMethod(method, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
