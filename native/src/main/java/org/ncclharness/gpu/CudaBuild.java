package org.ncclharness.gpu;

/**
 * One build of the harness jar: the CUDA runtime its bindings link and the oldest driver that runs it
 * ({@code gpu/cuda-builds.json}).
 *
 * @param jar           the jar's file name
 * @param preset        the org.bytedeco:cuda version of its bindings
 * @param runtime       the CUDA runtime library it loads
 * @param minDriverCuda the lowest CUDA version the driver must support, as {@code 13.0}
 * @param driverBranch  the driver branch that first supports it, as {@code R580}
 * @param source        where the threshold comes from
 */
public record CudaBuild(String jar, String preset, String runtime, String minDriverCuda, String driverBranch,
        String source) {

    /** {@link #minDriverCuda} as cudaDriverGetVersion codes it ({@code 13.0} is 13000). */
    public int minDriverCode() {
        String[] p = minDriverCuda.split("\\.");
        return Integer.parseInt(p[0]) * 1000 + Integer.parseInt(p[1]) * 10;
    }

    /** The CUDA major version of its runtime, as {@code 13}. */
    public String cudaMajor() {
        return minDriverCuda.substring(0, minDriverCuda.indexOf('.'));
    }

    /** {@code harness.jar (libcudart.so.13; drivers supporting CUDA 13.0+, R580 on)}. */
    public String describe() {
        return jar + " (" + runtime + "; drivers supporting CUDA " + minDriverCuda + "+, " + driverBranch + " on)";
    }
}
