package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.ncclharness.gpu.HostPlatform;

/**
 * Builds the test-only stand-ins of {@code libcudart.so.13} and {@code libnccl.so.2} with gcc
 * ({@code src/test/resources/standins/}), plus a stub {@code libcuda.so.1} for the JNI library's link, so the
 * real JavaCPP bindings inside harness.jar run end to end without a GPU. Every symbol the preset's JNI libraries
 * reference (read with {@code nm -D --undefined-only} from the jar's own copies) is exported, the CUDA runtime's
 * under its version node {@code libcudart.so.13}; those the C sources do not implement fail with
 * cudaErrorNotSupported / ncclInvalidUsage. Never packaged: they live under test resources and target/.
 *
 * @param dir    the stand-ins, to be found first ({@link #environment})
 * @param driver the stub driver's directory, for LD_LIBRARY_PATH
 * @param jni    the jar's own JNI libraries the symbols were read from
 * @param cudart the CUDA runtime's soname, which is also its symbols' version node
 */
record StandIns(Path dir, Path driver, Path jni, String cudart) {

    /** The JNI libraries of this host's platform: the ones the stand-ins are loaded through. */
    static final String PLATFORM = HostPlatform.current().platform();
    static final String CUDART_VERSION = "libcudart.so.13";
    /** harness-cuda12.jar's runtime and the version its stand-in reports (CUDA 12.9, as the preset's headers). */
    static final String CUDART_12 = "libcudart.so.12";
    static final int CUDA_12_VERSION = 12090;

    private static StandIns built;

    /** Built once per test JVM, under target/, from harness.jar: every integration test shares them. */
    static synchronized StandIns shared() throws IOException, InterruptedException {
        if (built == null) {
            built = build(Processes.JAR, Files.createTempDirectory(Files.createDirectories(
                    Path.of("target").toAbsolutePath()), "standins-"));
        }
        return built;
    }

    static StandIns build(Path jar, Path out) throws IOException, InterruptedException {
        return build(jar, out, CUDART_VERSION, 13000);
    }

    /** Stand-ins for {@code jar}'s JNI libraries, the CUDA runtime built as {@code cudart} reporting {@code cudaVersion}. */
    static StandIns build(Path jar, Path out, String cudart, int cudaVersion) throws IOException, InterruptedException {
        return build(jar, out, cudart, cudaVersion, PLATFORM, "gcc");
    }

    /**
     * The same for another platform's JNI libraries, compiled with {@code cc} (aarch64-linux-gnu-gcc for
     * linux-arm64, to run under qemu-user).
     */
    static StandIns build(Path jar, Path out, String cudart, int cudaVersion, String platform, String cc)
            throws IOException, InterruptedException {
        Path dir = Files.createDirectories(out.resolve("standins"));
        Path driver = Files.createDirectories(out.resolve("driver"));
        Path jni = Files.createDirectories(out.resolve("jni"));
        extractJni(jar, platform, jni);
        Path cudartC = source(out, "cudart.c");
        Path ncclC = source(out, "nccl.c");
        List<String> runtime = undefined(jni.resolve("libjnicudart.so")).stream()
                .filter(s -> s.endsWith("@" + cudart)).map(s -> s.substring(0, s.indexOf('@'))).toList();
        List<String> nccl = undefined(jni.resolve("libjninccl.so")).stream()
                .filter(s -> s.startsWith("nccl") || s.startsWith("pnccl")).toList();
        Set<String> cudartAll = new TreeSet<>(runtime);
        cudartAll.addAll(List.of("standinCaptureActive", "standinCaptureAdd", "standinStreamsStuck"));
        Path map = out.resolve("cudart.map");
        Files.writeString(map, cudart + " {\n  global:\n" + String.join("", cudartAll.stream()
                .map(s -> "    " + s + ";\n").toList()) + "  local: *;\n};\n");
        Path cudartStubs = stubs(out, "cudart-stubs.c", runtime, defined(out, cudartC), 801);
        Path ncclStubs = stubs(out, "nccl-stubs.c", nccl, defined(out, ncclC), 5);
        gcc(List.of(cc, "-O2", "-shared", "-fPIC", "-DSTANDIN_CUDA_VERSION=" + cudaVersion, "-Wl,-soname," + cudart,
                "-Wl,--version-script=" + map, "-o", dir.resolve(cudart).toString(), cudartC.toString(),
                cudartStubs.toString()));
        gcc(List.of(cc, "-O2", "-shared", "-fPIC", "-Wl,-soname,libnccl.so.2", "-o",
                dir.resolve("libnccl.so.2").toString(), ncclC.toString(), ncclStubs.toString(), "-ldl", "-lrt", "-lm"));
        Path drvC = out.resolve("cuda.c");
        Files.writeString(drvC, "int cuDriverGetVersion(int *v) { *v = 13000; return 0; }\n"
                + "int cuInit(unsigned int flags) { return 0; }\n");
        gcc(List.of(cc, "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o", driver.resolve("libcuda.so.1")
                .toString(), drvC.toString()));
        return new StandIns(dir, driver, jni, cudart);
    }

    /** Copies the jar's CUDA-runtime and NCCL JNI libraries of {@code platform} into {@code dir}. */
    static void extractJni(Path jar, String platform, Path dir) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (String lib : List.of("libjnicudart.so", "libjninccl.so")) {
                try (InputStream in = z.getInputStream(z.getEntry("org/bytedeco/cuda/" + platform + "/" + lib))) {
                    Files.copy(in, dir.resolve(lib), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * What a process needs to load the stand-ins through the real bindings: the stub driver on LD_LIBRARY_PATH,
     * JavaCPP told to take the runtime from {@link #dir} first, {@code devices} stand-in GPUs, and extra settings.
     */
    Map<String, String> environment(int devices, Map<String, String> extra) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("LD_LIBRARY_PATH", driver.toString());
        env.put("JAVA_TOOL_OPTIONS", "-Dorg.bytedeco.javacpp.platform.linkpath=" + dir
                + " -Dorg.bytedeco.javacpp.pathsFirst=true");
        env.put("STANDIN_DEVICES", Integer.toString(devices));
        env.putAll(extra);
        return env;
    }

    /**
     * {@code sweep --nccl-lib DIR ARGS} on two processes under mpirun, four stand-in GPUs each (enough for
     * {@code -g 2} on each), with extra settings for the stand-ins.
     */
    Processes.Result sweep(Path tmp, Map<String, String> extra, List<String> args) throws Exception {
        Map<String, String> env = environment(4, extra);
        return Processes.runMpirun(sweepCommand(env, args), env, tmp, "sweep", Processes.HANG_S);
    }

    /** {@link #sweep}'s mpirun command line, for a test that starts it itself; {@code env} from {@link #environment}. */
    List<String> sweepCommand(Map<String, String> env, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("sweep", "--nccl-lib", dir.toString()));
        cmd.addAll(args);
        return Processes.mpirun(2, exports(env), Processes.harness(cmd.toArray(String[]::new)));
    }

    /** mpirun's {@code -x} for every variable of {@link #environment}. */
    static List<String> exports(Map<String, String> env) {
        List<String> out = new ArrayList<>();
        env.keySet().forEach(k -> out.addAll(List.of("-x", k)));
        return out;
    }

    private static Path source(Path out, String name) throws IOException {
        Path p = out.resolve(name);
        try (InputStream in = StandIns.class.getResourceAsStream("/standins/" + name)) {
            Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return p;
    }

    /** Every CUDA-runtime symbol (under its version node) and NCCL symbol the JNI libraries in {@code jni} need. */
    void assertExportEverythingNeededBy(Path jni) throws IOException, InterruptedException {
        List<String> exported = definedDynamic(dir.resolve(cudart));
        List<String> needed = undefined(jni.resolve("libjnicudart.so")).stream()
                .filter(s -> s.endsWith("@" + cudart)).toList();
        assertThat(needed).as("libjnicudart.so's %s symbols", cudart).hasSizeGreaterThan(100);
        needed.forEach(s -> assertThat(exported).as(s).contains(s.replace("@", "@@")));
        List<String> nccl = definedDynamic(dir.resolve("libnccl.so.2"));
        List<String> ncclNeeded = undefined(jni.resolve("libjninccl.so")).stream()
                .filter(s -> s.startsWith("nccl")).toList();
        assertThat(ncclNeeded).contains("ncclAllReduce", "ncclGetVersion");
        ncclNeeded.forEach(s -> assertThat(nccl).as(s).contains(s));
    }

    static List<String> undefined(Path lib) throws IOException, InterruptedException {
        return symbols(List.of("nm", "-D", "--undefined-only", lib.toString()));
    }

    static List<String> definedDynamic(Path lib) throws IOException, InterruptedException {
        return symbols(List.of("nm", "-D", "--defined-only", lib.toString()));
    }

    /** The functions a C file defines (compiled to an object, read with nm). */
    private static Set<String> defined(Path out, Path c) throws IOException, InterruptedException {
        Path o = out.resolve(c.getFileName() + ".o");
        gcc(List.of("gcc", "-O2", "-fPIC", "-c", "-o", o.toString(), c.toString()));
        Set<String> names = new TreeSet<>();
        for (String line : run(List.of("nm", "--defined-only", o.toString())).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[1].equals("T")) {
                names.add(f[2]);
            }
        }
        return names;
    }

    private static Path stubs(Path out, String name, List<String> wanted, Set<String> implemented, int error)
            throws IOException {
        StringBuilder sb = new StringBuilder("/* generated: every symbol the JNI library references that the stand-in"
                + " does not implement */\n");
        new TreeSet<>(wanted).stream().filter(s -> !implemented.contains(s))
                .forEach(s -> sb.append("int ").append(s).append("(void) { return ").append(error).append("; }\n"));
        Path p = out.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    private static List<String> symbols(List<String> cmd) throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        for (String line : run(cmd).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2) {
                out.add(f[f.length - 1]);
            }
        }
        return out;
    }

    private static void gcc(List<String> cmd) throws IOException, InterruptedException {
        run(cmd);
    }

    static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] all = p.getInputStream().readAllBytes();
        if (!p.waitFor(Processes.HANG_S, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " failed:\n" + new String(all, StandardCharsets.UTF_8));
        }
        return new String(all, StandardCharsets.UTF_8);
    }
}
