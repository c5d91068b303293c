package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;

/**
 * The Grace (GB200, GH200) path without one: harness.jar run by an arm64 JVM under qemu-user, through the jar's
 * linux-arm64 JNI libraries, into the stand-ins cross-compiled for aarch64. Needs qemu-aarch64 and
 * aarch64-linux-gnu-gcc on the PATH and Debian's arm64 JRE unpacked under {@code ARM64_SYSROOT} (default
 * /opt/arm64-root), all of which .ci/run provides; elsewhere it is skipped, saying what is missing.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class Arm64QemuSweepIT {
    static final Path SYSROOT = Path.of(System.getenv().getOrDefault("ARM64_SYSROOT", "/opt/arm64-root"));

    @TempDir
    Path tmp;

    @Test
    void aSweepRunsThroughTheArm64JniLibrariesUnderQemu() throws Exception {
        Optional<Path> qemu = onPath("qemu-aarch64");
        assumeTrue(qemu.isPresent() && onPath("aarch64-linux-gnu-gcc").isPresent(),
                "qemu-aarch64 and aarch64-linux-gnu-gcc are needed (.ci/run installs them)");
        Optional<Path> java = arm64Java();
        assumeTrue(java.isPresent(), "an arm64 JRE under " + SYSROOT + "/usr/lib/jvm (.ci/run unpacks one)");

        StandIns arm64 = StandIns.build(Processes.JAR, tmp.resolve("arm64"), StandIns.CUDART_VERSION, 13000,
                "linux-arm64", "aarch64-linux-gnu-gcc");
        assertThat(StandIns.run(List.of("readelf", "-h", arm64.dir().resolve("libnccl.so.2").toString())))
                .containsPattern("Machine:\\s+AArch64");
        Map<String, String> env = arm64.environment(2, Map.of());
        // the sweep, then gpus, in one emulated JVM (CommandsMain): each start of one under qemu costs seconds
        List<String> cmd = new ArrayList<>(List.of(qemu.get().toString(), "-L", SYSROOT.toString(),
                java.get().toString()));
        cmd.addAll(Processes.JVM_FLAGS);
        cmd.addAll(List.of("-cp", Processes.JAR + File.pathSeparator + Path.of(CommandsMain.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI()), CommandsMain.class.getName(), "sweep", "--nccl-lib",
                arm64.dir().toString(), "-b", "8", "-e", "1K", "-g", "2", "--no-diagnose", CommandsMain.NEXT, "gpus"));
        Processes.Result both = Processes.run(cmd, env, tmp, "sweep", Processes.HANG_S);
        Processes.Result r = CommandsMain.part(both, 0);
        assertThat(r.rc()).as(both.out() + both.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("Stand-in GPU (host memory)", "# Out of bounds values : 0 OK");
        List<String[]> rows = r.outLines().stream().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+\\S+.*"))
                .map(l -> l.trim().split("\\s+")).toList();
        assertThat(rows).hasSize(8).allSatisfy(row -> {
            assertThat(row[8]).isEqualTo("0");
            assertThat(row[12]).isEqualTo("0");
        });
        // and it was the arm64 JVM: gpus says which JNI libraries it took
        Processes.Result g = CommandsMain.part(both, 1);
        assertThat(g.out()).as(both.out() + both.err())
                .startsWith("host:    linux-arm64 (os.arch aarch64), JNI libraries in this jar: yes");
    }

    private static Optional<Path> onPath(String name) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator))
                .map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    private static Optional<Path> arm64Java() throws IOException {
        Path jvms = SYSROOT.resolve("usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.map(d -> d.resolve("bin/java")).filter(Files::isExecutable).sorted().findFirst();
        }
    }
}
