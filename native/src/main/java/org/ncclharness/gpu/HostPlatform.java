package org.ncclharness.gpu;

import java.util.List;
import org.bytedeco.javacpp.Loader;

/**
 * The host's JavaCPP platform ({@code os.arch} as JavaCPP names it: amd64 is {@code linux-x86_64}, aarch64 is
 * {@code linux-arm64}) and whether this jar carries the JNI libraries for it. A Grace host (GB200, GH200) runs
 * the same jar as an x86_64 one only because both sets are packed; saying which one is loaded, and when none
 * is, turns an {@link UnsatisfiedLinkError} deep in the probe into a line a user can act on.
 *
 * @param osArch          the JVM's {@code os.arch}
 * @param platform        JavaCPP's name for it, the folder its JNI libraries are read from
 * @param nativesCarried  whether the CUDA runtime, NCCL and JavaCPP JNI libraries for {@code platform} are all
 *                        on the class path
 */
public record HostPlatform(String osArch, String platform, boolean nativesCarried) {

    /** The three JNI libraries the bridge loads, per platform folder. */
    static List<String> jniLibraries(String platform) {
        return List.of("org/bytedeco/cuda/" + platform + "/libjnicudart.so",
                "org/bytedeco/cuda/" + platform + "/libjninccl.so",
                "org/bytedeco/javacpp/" + platform + "/libjnijavacpp.so");
    }

    /** This JVM's platform; reads only properties and the class path, loads nothing native. */
    public static HostPlatform current() {
        return of(System.getProperty("os.arch"), Loader.getPlatform(), HostPlatform.class.getClassLoader());
    }

    static HostPlatform of(String osArch, String platform, ClassLoader classes) {
        boolean carried = jniLibraries(platform).stream().allMatch(r -> classes.getResource(r) != null);
        return new HostPlatform(osArch, platform, carried);
    }

    /** {@code linux-arm64 (os.arch aarch64), JNI libraries in this jar: yes}. */
    public String describe() {
        return platform + " (os.arch " + osArch + "), JNI libraries in this jar: " + (nativesCarried ? "yes" : "no");
    }
}
