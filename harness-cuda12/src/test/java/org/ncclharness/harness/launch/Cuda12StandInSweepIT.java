package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ncclharness.harness.exit.ExitCode;

/**
 * harness-cuda12.jar end to end: its CUDA 12 bindings (org.bytedeco:cuda 12.9-9.10-1.5.12) through a stand-in
 * {@code libcudart.so.12} and the stand-in NCCL, as {@code StandInSweepIT} runs harness.jar. The stand-in NCCL
 * reports 2.28.3, yet this binding has no ncclAlltoAll: alltoall must take grouped send/recv.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class Cuda12StandInSweepIT {
    static final Path JAR = Path.of("target", "harness-cuda12.jar").toAbsolutePath();

    static StandIns standIns;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build() throws Exception {
        standIns = StandIns.build(JAR, Files.createTempDirectory(Files.createDirectories(
                Path.of("target").toAbsolutePath()), "standins-"), StandIns.CUDART_12, StandIns.CUDA_12_VERSION);
    }

    @Test
    void theJarCarriesTheCuda12BindingsForX8664AndArm64AndStaysSlim() throws Exception {
        assertThat(Files.size(JAR)).isLessThan(20L << 20);
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> natives = jar.stream().map(e -> e.getName())
                    .filter(n -> n.startsWith("org/bytedeco/") && n.endsWith(".so")).sorted().toList();
            assertThat(natives).containsExactly("org/bytedeco/cuda/linux-arm64/libjnicudart.so",
                    "org/bytedeco/cuda/linux-arm64/libjninccl.so", "org/bytedeco/cuda/linux-x86_64/libjnicudart.so",
                    "org/bytedeco/cuda/linux-x86_64/libjninccl.so", "org/bytedeco/javacpp/linux-arm64/libjnijavacpp.so",
                    "org/bytedeco/javacpp/linux-x86_64/libjnijavacpp.so");
            Properties preset = new Properties();
            preset.load(jar.getInputStream(jar.getEntry("META-INF/maven/org.bytedeco/cuda/pom.properties")));
            assertThat(preset.getProperty("version")).isEqualTo("12.9-9.10-1.5.12");
            assertThat(jar.getEntry("org/ncclharness/harness/cli/Main.class")).isNotNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"linux-x86_64", "linux-arm64"})
    void theStandInsExportEverySymbolTheCuda12JniLibrariesReference(String platform) throws Exception {
        Path jni = Files.createDirectories(tmp.resolve("jni-" + platform));
        StandIns.extractJni(JAR, platform, jni);
        standIns.assertExportEverythingNeededBy(jni);
    }

    @Test
    void gpusLoadsTheCuda12RuntimeAndDoctorSaysThisBuildFitsACuda12Driver() throws Exception {
        Map<String, String> env = standIns.environment(2, Map.of("STANDIN_DRIVER_CUDA", "12040"));
        Processes.Result gpus = Processes.run(Processes.jar(JAR, "gpus", "--nccl-lib", standIns.dir().toString()),
                env, tmp, "gpus", Processes.HANG_S);
        assertThat(gpus.rc()).as(gpus.out() + gpus.err()).isEqualTo(ExitCode.OK);
        assertThat(gpus.out()).contains("driver:  CUDA 12.4 (12040)", "runtime: CUDA 12.9 (12090)", "devices: 2");
        Processes.Result doctor = Processes.run(Processes.jar(JAR, "doctor", "--nccl-lib",
                standIns.dir().toString()), env, tmp, "doctor", Processes.HANG_S);
        assertThat(doctor.rc()).as(doctor.out() + doctor.err()).isEqualTo(ExitCode.OK);
        assertThat(doctor.out()).contains("rank 0/1 build: harness-cuda12.jar (libcudart.so.12; drivers supporting"
                + " CUDA 12.0+, R525 on); for this driver (CUDA 12.4): harness-cuda12.jar");
    }

    /**
     * allreduce with the NCCL_DEBUG pass (a second JVM per rank), once through this jar; {@link
     * #eachCollectiveSweepsThroughTheCuda12BindingsWithNothingWrong} tests the collectives without it.
     */
    @Test
    void twoRanksSweepThroughTheCuda12BindingsWithNothingWrong() throws Exception {
        Map<String, String> env = standIns.environment(4, Map.of());
        Processes.Result r = Processes.runMpirun(Processes.mpirun(2, StandIns.exports(env),
                Processes.jar(JAR, sweep("allreduce", true).toArray(String[]::new))), env, tmp, "sweep",
                Processes.HANG_S);
        assertSweptWithNothingWrong("allreduce", r);
    }

    static List<String> collectives() {
        return List.of("allreduce -G 2", "alltoall", "alltoall -g 2", "gather", "scatter -g 2", "sendrecv");
    }

    @TempDir
    static Path collectivesDir;
    private static Processes.Result collectivesJob;

    /**
     * Every collective's sweep one after another in the same two rank JVMs ({@link CommandsMain}): the subject is the
     * collective through the CUDA 12 bindings, not the JVM's start, which the test above covers.
     */
    private static synchronized Processes.Result collectivesJob() throws Exception {
        if (collectivesJob == null) {
            List<List<String>> lines = new ArrayList<>();
            for (String what : collectives()) {
                lines.add(sweep(what, lines.isEmpty()));
            }
            collectivesJob = CommandsMain.twoRanks(JAR, standIns.environment(4, Map.of()), lines, collectivesDir);
        }
        return collectivesJob;
    }

    /** {@code sweep} of {@code what} from 8 B to 64 KiB, with --nccl-lib where it is {@code first} in its process. */
    private static List<String> sweep(String what, boolean first) {
        List<String> args = new ArrayList<>(List.of("sweep"));
        if (first) {
            args.addAll(List.of("--nccl-lib", standIns.dir().toString()));
        }
        args.addAll(List.of("-b", "8", "-e", "64K", "--collective"));
        args.addAll(List.of(what.split(" ")));
        if (!what.equals("allreduce")) {
            args.add("--no-diagnose");
        }
        return args;
    }

    @ParameterizedTest
    @MethodSource("collectives")
    void eachCollectiveSweepsThroughTheCuda12BindingsWithNothingWrong(String what) throws Exception {
        int k = collectives().indexOf(what);
        Processes.Result job = collectivesJob();
        Processes.Result one = CommandsMain.part(job, k, 1);
        assertThat(one.rc()).as("rank 1: %s%n%s%s", what, one.out(), one.err()).isEqualTo(ExitCode.OK);
        assertSweptWithNothingWrong(what, CommandsMain.part(job, k, 0));
    }

    private static void assertSweptWithNothingWrong(String what, Processes.Result r) {
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("nccl-library=22803");
        String tag = "[1,0]<stdout>:";
        List<String[]> rows = r.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length()))
                .filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+\\S+.*")).map(l -> l.trim().split("\\s+")).toList();
        assertThat(rows).hasSizeGreaterThan(5).allSatisfy(row -> {
            assertThat(row[8]).as("out-of-place #wrong at %s B", row[0]).isEqualTo("0");
            // in-place alltoall and sendrecv are not checked (nccl-tests prints N/A for them too)
            assertThat(row[12]).as("in-place #wrong at %s B", row[0])
                    .isEqualTo(what.startsWith("alltoall") || what.startsWith("sendrecv") ? "N/A" : "0");
        });
    }
}
