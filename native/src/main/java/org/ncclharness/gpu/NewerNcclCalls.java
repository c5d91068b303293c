package org.ncclharness.gpu;

import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.Pointer;

/**
 * The only calls to binding methods that not every packaged preset has: harness-cuda12.jar's
 * {@code org.bytedeco:cuda 12.9-9.10-1.5.12} binds NCCL 2.27.3, without {@code ncclAlltoAll}. A call here is
 * made only where {@link #allToAll(NcclVersion)} said yes for the loaded library and binding class; elsewhere
 * the JVM never resolves it, so the same classes run on either preset. (Run against the older binding class it
 * would throw {@link NoSuchMethodError}; against an NCCL without the symbol the JNI library's lazy binding
 * would end the JVM.)
 */
final class NewerNcclCalls {
    /** Whether the binding class on the class path declares ncclAlltoAll; asked once, by reflection. */
    private static final boolean ALL_TO_ALL_BOUND = declares("ncclAlltoAll", Pointer.class, Pointer.class,
            long.class, int.class, ncclComm.class, CUstream_st.class);

    private NewerNcclCalls() {
    }

    /** Whether {@link #ncclAlltoAll} may be called: the loaded NCCL exports it and the binding declares it. */
    static boolean allToAll(NcclVersion loaded) {
        return loaded != null && NcclFeature.ALL_TO_ALL_API.isAvailable(loaded) && ALL_TO_ALL_BOUND;
    }

    static int ncclAlltoAll(Pointer send, Pointer recv, long count, int dtype, ncclComm comm, CUstream_st stream) {
        return nccl.ncclAlltoAll(send, recv, count, dtype, comm, stream);
    }

    /** Reflection reads the class's methods without initializing it, so no native library loads here. */
    static boolean declares(String method, Class<?>... parameters) {
        try {
            nccl.class.getMethod(method, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
