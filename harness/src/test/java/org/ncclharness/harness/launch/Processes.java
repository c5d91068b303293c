package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starting the shaded jar and mpirun from integration tests: every process bounded, output in files. */
final class Processes {

    static final Path JAR = Path.of("target", "harness.jar").toAbsolutePath();
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /**
     * The limit on one process or mpirun job of an integration test: only a hang takes this long, however loaded
     * the machine, so no verdict depends on its speed (issue 43).
     */
    static final int HANG_S = 600;
    /** A test method's limit ({@code @Timeout}): a few processes, each bounded by {@link #HANG_S}. */
    static final int TEST_HANG_S = 1800;
    /** Small, fast-starting JVMs: up to 4 of them share 2 cores in CI. */
    static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m");

    record Result(int rc, String out, String err, double seconds) {
        List<String> outLines() {
            return out.lines().toList();
        }
    }

    private Processes() {
    }

    static List<String> harness(String... args) {
        return jar(JAR, args);
    }

    /**
     * {@code java -jar JAR ARGS} with the small-JVM flags, for this module's jar (mapping {@link ClassArchive}'s
     * archive of its classes) or another build of it.
     */
    static List<String> jar(Path jar, String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA));
        cmd.addAll(JVM_FLAGS);
        if (jar.equals(JAR)) {
            cmd.addAll(ClassArchive.flags());
        }
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static List<String> member(String... args) {
        return testMain(JAR, JobMemberMain.class, args);
    }

    /**
     * {@code java MAIN ARGS} for a test program, on {@code jar} (this module's, mapping {@link ClassArchive}'s
     * archive, or another build of it) and the test classes {@code main} was loaded from.
     */
    static List<String> testMain(Path jar, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA));
        cmd.addAll(JVM_FLAGS);
        if (jar.equals(JAR)) {
            cmd.addAll(ClassArchive.flags()); // the jar first on the class path, as when the archive was dumped
        }
        Path classes;
        try {
            classes = Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new AssertionError("where " + main + " was loaded from", e);
        }
        cmd.addAll(List.of("-cp", jar + File.pathSeparator + classes, main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** mpirun as root on an oversubscribed 2-core machine, each line tagged {@code [1,K]<stdout>:}. */
    static List<String> mpirun(int np, List<String> extra, List<String> command) {
        String mpirun = findMpirun();
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--allow-run-as-root", "--oversubscribe",
                "--tag-output", "-np", Integer.toString(np)));
        cmd.addAll(extra);
        cmd.addAll(command);
        return cmd;
    }

    static String findMpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, "mpirun");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new AssertionError("mpirun not found: these tests need Open MPI (apt-get install -y openmpi-bin,"
                + " as .ci/run does)");
    }

    static ProcessBuilder builder(List<String> cmd, Map<String, String> env, Path dir) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // a clean launcher environment: the build itself may run under one
        pb.environment().keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMIX_")
                || k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("HARNESS_")
                || List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
                        .contains(k));
        pb.environment().putAll(env);
        pb.environment().put("TMPDIR", dir.toString());
        return pb;
    }

    static Process start(List<String> cmd, Map<String, String> env, Path dir, String name) throws IOException {
        ProcessBuilder pb = builder(cmd, env, dir);
        pb.redirectOutput(dir.resolve(name + ".out").toFile());
        pb.redirectError(dir.resolve(name + ".err").toFile());
        return pb.start();
    }

    static Result run(List<String> cmd, Map<String, String> env, Path dir, String name, int timeoutS)
            throws Exception {
        long t0 = System.nanoTime();
        Process p = start(cmd, env, dir, name);
        boolean done = p.waitFor(timeoutS, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        Result r = result(p, dir, name, (System.nanoTime() - t0) / 1e9);
        assertThat(done).as("%s finished within %d s; stdout:%n%s%nstderr:%n%s", name, timeoutS, r.out(), r.err())
                .isTrue();
        return r;
    }

    /**
     * Runs an mpirun command line, starting it again (at most twice more) when Open MPI itself failed before any
     * rank printed a line: its daemons sometimes fail to start with several on one loaded machine (a segfault in
     * hwloc, a TCP connect between daemons). A run in which any rank printed is returned as it is, so whatever
     * the harness did is never retried away.
     */
    static Result runMpirun(List<String> cmd, Map<String, String> env, Path dir, String name, int timeoutS)
            throws Exception {
        Result r = run(cmd, env, dir, name, timeoutS);
        for (int attempt = 1; attempt <= 2 && r.rc() != 0 && !anyRankPrinted(r); attempt++) {
            r = run(cmd, env, dir, name, timeoutS);
        }
        return r;
    }

    private static boolean anyRankPrinted(Result r) {
        return r.out().contains("[1,") || r.err().contains("[1,");
    }

    static Result result(Process p, Path dir, String name, double seconds) throws IOException {
        return new Result(p.isAlive() ? -1 : p.exitValue(), lenient(dir.resolve(name + ".out")),
                lenient(dir.resolve(name + ".err")), seconds);
    }

    /**
     * A launcher's output decoded without refusing it: mpirun --tag-output tags each chunk it reads from a rank's
     * pipe, and a chunk can end inside a line, even inside a multi-byte character, which then reads as U+FFFD.
     */
    private static String lenient(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    static String read(Path dir, String file) throws IOException {
        return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The reference's ssh stand-in: drops ssh options and the host, runs the command here as that "host". */
    static Path fakeSsh(Path dir) throws IOException {
        Path p = dir.resolve("fake-ssh");
        Files.writeString(p, """
                #!/bin/sh
                while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
                host="$1"; shift
                HARNESS_HOST_ID="fake-$host"; export HARNESS_HOST_ID
                exec sh -c "$*"
                """);
        p.toFile().setExecutable(true);
        return p;
    }
}
