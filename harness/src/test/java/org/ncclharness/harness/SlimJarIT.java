package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded harness.jar, after packaging: small, with exactly the natives it needs, and they load; no developer
 * tool (fuzzer, synthetic-data generator) inside.
 */
class SlimJarIT {
    private static final Path JAR = Path.of("target", "harness.jar");

    @Test
    void carriesOnlyTheCudaRuntimeNcclAndJavacppNativesForX8664AndArm64() throws Exception {
        assertThat(Files.size(JAR)).isLessThan(20L << 20);
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> natives = jar.stream().map(e -> e.getName())
                    .filter(n -> n.startsWith("org/bytedeco/") && n.endsWith(".so")).sorted().toList();
            // x86_64 and arm64 (Grace hosts: GB200, GH200), nothing else
            assertThat(natives).containsExactly("org/bytedeco/cuda/linux-arm64/libjnicudart.so",
                    "org/bytedeco/cuda/linux-arm64/libjninccl.so", "org/bytedeco/cuda/linux-x86_64/libjnicudart.so",
                    "org/bytedeco/cuda/linux-x86_64/libjninccl.so", "org/bytedeco/javacpp/linux-arm64/libjnijavacpp.so",
                    "org/bytedeco/javacpp/linux-x86_64/libjnijavacpp.so");
            assertThat(jar.getEntry("org/bytedeco/cuda/global/nccl.class")).isNotNull();
            assertThat(jar.getEntry("org/bytedeco/cuda/global/cublas.class")).isNull();
            // code that exists only to test the product lives in devtools/, never here
            assertThat(jar.stream().map(e -> e.getName()).filter(n -> n.startsWith("org/ncclharness/")))
                    .isNotEmpty().noneMatch(n -> n.matches("(?i).*(fuzz|synthetic|devtools).*"));
        }
    }

    /**
     * Without a driver, the Loader must get as far as extracting libjnicudart.so from this jar and asking the
     * dynamic linker for its dependency libcuda.so.1; a jar missing the JNI library would fail earlier.
     */
    @Test
    void theLoaderFindsTheJniLibrariesInsideTheJar() throws Exception {
        assumeFalse(Files.exists(Path.of("/proc/driver/nvidia/version")), "an NVIDIA driver is loaded here");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-jar", JAR.toString(), "gpus").redirectErrorStream(true);
        pb.environment().put("LD_LIBRARY_PATH", "");
        Process p = pb.start();
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("only a hang takes 10 minutes").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(out).contains("), JNI libraries in this jar: yes");
        assertThat(out).contains("error: NO_DRIVER: libcuda.so.1 not found (libjnicudart.so: libcuda.so.1: cannot open shared object file");
    }
}
