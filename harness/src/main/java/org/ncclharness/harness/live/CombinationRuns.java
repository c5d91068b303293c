package org.ncclharness.harness.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.gpu.DataType;
import org.ncclharness.gpu.NcclEnvironment;
import org.ncclharness.gpu.SizeSetup;
import org.ncclharness.gpu.TuningChoice;
import org.ncclharness.gpu.TuningLog;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.Program;

/**
 * The {@code --algo/--proto} matrix: one child process per combination (NCCL reads NCCL_ALGO/NCCL_PROTO when a
 * communicator is created and NCCL_DEBUG once per process; see native's {@link NcclEnvironment}), each a plain
 * {@code sweep} that writes its JSON; then one short untimed child with NCCL_DEBUG TUNING into files, whose log
 * says what NCCL actually ran. The parent reads the JSON back and prints every table through the same writers.
 */
final class CombinationRuns {

    /** Our flags the children must not see: the matrix itself and the parent's outputs. */
    private static final Set<String> PARENT_ONLY = Set.of("--algo", "--proto", "--csv", "-J", "--json",
            "--output_file", "--min-busbw", "--report");
    private static final Set<String> PARENT_SWITCHES = Set.of("--force", "--no-calibrate");
    /** What the untimed TUNING pass overrides: one iteration, no warm-up, no check, one cycle. */
    private static final Set<String> TIMING = Set.of("-n", "--iters", "-w", "--warmup_iters", "-c", "--check",
            "-N", "--run_cycles", "-I", "--per_iter_timing", "-K", "--per_iter_skip");

    private final Path work;
    private final long timeoutSeconds;

    CombinationRuns(Path work, long timeoutSeconds) {
        this.work = work;
        this.timeoutSeconds = timeoutSeconds;
    }

    List<SweepResult> run(SweepPlan plan, int nranks) {
        List<String> base = childArgs(plan.args(), false);
        List<String> tuning = childArgs(plan.args(), true);
        tuning.addAll(List.of("-n", "1", "-w", "0", "-c", "0", "-N", "1"));
        List<SweepResult> out = new ArrayList<>();
        int i = 0;
        for (Combination c : plan.combinations()) {
            String tag = "c" + i++;
            Path json = work.resolve(tag + ".json");
            List<String> args = new ArrayList<>(base);
            args.addAll(List.of("--no-calibrate", "--no-diagnose", "-J", json.toString()));
            child(c, tag, args, NcclEnvironment.forCombination(c.algo(), c.proto()));
            SweepJson.Read read = Inputs.document(json.toString(), null).onlyJsonRun();
            Path prefix = work.resolve(tag + "-tuning");
            List<String> targs = new ArrayList<>(tuning);
            targs.add("--no-calibrate");
            child(c, tag + "-tuning", targs, NcclEnvironment.tuningPass(c.algo(), c.proto(), prefix));
            out.add(new SweepResult(c, ran(plan, read.sweep().rows(), tuningLines(prefix), nranks), read.sweep(),
                    read.perIteration(), read.rankTimes(), read.ncclEstimates()));
        }
        return out;
    }

    private void child(Combination c, String tag, List<String> args, Map<String, String> env) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Program.MAIN_CLASS, "sweep"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(work.resolve(tag + ".out").toFile())
                .redirectError(work.resolve(tag + ".err").toFile());
        pb.environment().putAll(env);
        // The parent judges NCCL_TESTS_MIN_BW over every table; a child must not exit 1 on it.
        pb.environment().remove("NCCL_TESTS_MIN_BW");
        try {
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new HarnessException(ExitCode.JOB, "combination " + c.label() + ": the child sweep did not"
                        + " finish within " + timeoutSeconds + " s (pass -T to bound each operation)");
            }
            if (p.exitValue() != 0) {
                List<String> err = Files.readAllLines(work.resolve(tag + ".err"), StandardCharsets.UTF_8);
                throw new HarnessException(p.exitValue() == ExitCode.USAGE ? ExitCode.USAGE : ExitCode.JOB,
                        "combination " + c.label() + ": " + (err.isEmpty() ? "the child sweep exited "
                                + p.exitValue() : err.get(err.size() - 1)));
            }
        } catch (IOException e) {
            throw new HarnessException(ExitCode.JOB, "combination " + c.label() + ": cannot start a child sweep: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException(ExitCode.JOB, "combination " + c.label() + ": interrupted");
        }
    }

    /** The sweep's arguments for a child: without the parent's own, and for the TUNING pass without timing. */
    static List<String> childArgs(List<String> all, boolean dropTiming) {
        List<String> out = new ArrayList<>();
        List<String> args = all.subList(Math.min(2, all.size()), all.size()); // "harness.jar sweep"
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.startsWith("--") && a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean attached = !a.startsWith("--") && a.length() > 2 && a.startsWith("-");
            String shortName = attached ? a.substring(0, 2) : name;
            if (PARENT_SWITCHES.contains(name)) {
                continue;
            }
            if (PARENT_ONLY.contains(shortName) || (dropTiming && TIMING.contains(shortName))) {
                if (!attached && !a.contains("=")) {
                    i++;
                }
                continue;
            }
            out.add(a);
        }
        return out;
    }

    private List<String> tuningLines(Path prefix) {
        List<String> lines = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(work, prefix.getFileName() + ".*")) {
            for (Path f : files) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new HarnessException(ExitCode.JOB, "cannot read the NCCL_DEBUG files " + prefix + ".*: "
                    + e.getMessage(), e);
        }
        return lines;
    }

    /** Per size of the first datatype: {@code 1048576: RING/LL}, or nothing where NCCL logged no choice. */
    static List<String> ran(SweepPlan plan, List<Measurement> rows, List<String> log, int nranks) {
        List<TuningChoice> choices = TuningLog.parse(log);
        Set<String> out = new LinkedHashSet<>();
        DataType type = plan.types().get(0);
        for (Measurement m : rows) {
            if (!m.type().equals(type.testName())) {
                continue;
            }
            long api = TuningLog.apiBytes(SizeSetup.of(plan.collective(), type, m.sizeBytes(), nranks));
            List<String> pairs = TuningLog.ran(choices, plan.collective(), api);
            if (!pairs.isEmpty()) {
                out.add(m.sizeBytes() + ": " + String.join("+", pairs));
            }
        }
        return List.copyOf(out);
    }
}
