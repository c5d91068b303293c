package org.ncclharness.gpu;

import static org.bytedeco.cuda.global.cudart.cudaGetErrorName;
import static org.bytedeco.cuda.global.cudart.cudaGetErrorString;

/** CUDA runtime error codes the probe tells apart, and their names for messages. */
final class CudaErrors {
    static final int STUB_LIBRARY = 34;
    static final int INSUFFICIENT_DRIVER = 35;
    /** Seen when the driver lacks an entry point the runtime asks for: also a driver older than the runtime. */
    static final int CALL_REQUIRES_NEWER_DRIVER = 36;
    static final int NO_DEVICE = 100;

    private CudaErrors() {
    }

    /** {@code cudaErrorNoDevice (100): no CUDA-capable device is detected}. Needs the runtime loaded. */
    static String describe(int rc) {
        return cudaGetErrorName(rc).getString() + " (" + rc + "): " + cudaGetErrorString(rc).getString();
    }
}
