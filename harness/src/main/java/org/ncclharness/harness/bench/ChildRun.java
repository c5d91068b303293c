package org.ncclharness.harness.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * One whole command in a fresh JVM, as a user waits for it: its wall time; its CPU time, which the kernel adds to
 * this process's children's times ({@code cutime + cstime} of /proc/self/stat, proc(5)) once the child is reaped;
 * and its peak resident memory, the {@code VmHWM} high-water mark of /proc/PID/status sampled while it runs (growth
 * in its last {@value #SAMPLE_MS} ms can be missed). On a system without /proc both read as 0.
 *
 * @param wallMs    from start to exit
 * @param cpuMs     user + system CPU of the child and its threads
 * @param peakRssKb the child's peak resident set
 */
record ChildRun(double wallMs, double cpuMs, long peakRssKb) {

    static final long SAMPLE_MS = 20;
    /** USER_HZ: the unit of /proc's times, 100 on every Linux architecture the JVM runs on (proc(5)). */
    private static final double TICKS_PER_S = 100;

    /** The harness.jar the bench runs from, started again for every measurement. */
    record Jar(String java, Path path) {

        /**
         * @param bench what starts the jar again, for the message ({@code speed}, {@code calibrate --cold})
         * @param run   how to run it instead, after {@code java -jar harness.jar bench}
         */
        static Jar own(String bench, String run) {
            try {
                Path p = Path.of(ChildRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!p.toString().endsWith(".jar")) {
                    throw new HarnessException(ExitCode.USAGE, "bench " + bench + " starts harness.jar again, and this"
                            + " runs from " + p + ": run it as java -jar harness.jar bench " + run);
                }
                return new Jar(Path.of(System.getProperty("java.home"), "bin", "java").toString(), p);
            } catch (URISyntaxException e) {
                throw new HarnessException(ExitCode.ENVIRONMENT, "cannot locate harness.jar: " + e.getMessage(), e);
            }
        }

        /** {@code java -jar harness.jar ARGS} in {@code dir}, which must exit 0. */
        ChildRun run(Path dir, String... args) throws IOException {
            return run(dir, List.of(ExitCode.OK), args);
        }

        /** As above, with the exit codes that count as an answer. */
        ChildRun run(Path dir, List<Integer> accepted, String... args) throws IOException {
            List<String> command = new ArrayList<>(List.of(java, "-jar", path.toString()));
            command.addAll(List.of(args));
            double cpuBefore = childrenCpuMs();
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            Path status = Path.of("/proc", String.valueOf(p.pid()), "status");
            long peakKb = 0;
            try {
                while (!p.waitFor(SAMPLE_MS, TimeUnit.MILLISECONDS)) {
                    peakKb = Math.max(peakKb, highWaterKb(status));
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            double wallMs = (System.nanoTime() - start) / 1e6;
            if (!accepted.contains(p.exitValue())) {
                throw new IOException(String.join(" ", command) + " exited " + p.exitValue());
            }
            return new ChildRun(wallMs, childrenCpuMs() - cpuBefore, peakKb);
        }
    }

    /** VmHWM of a running process, 0 once it has gone or where there is no /proc. */
    static long highWaterKb(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the process ended between two samples: the last sample stands
        }
        return 0;
    }

    /** cutime + cstime of this process (fields 16 and 17 of /proc/self/stat) in ms; 0 without /proc. */
    static double childrenCpuMs() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // the command name (field 2) may hold spaces: count fields after its closing parenthesis, from field 3
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return (Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3])) * 1e3 / TICKS_PER_S;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
