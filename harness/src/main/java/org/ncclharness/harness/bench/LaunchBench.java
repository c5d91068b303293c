package org.ncclharness.harness.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.gpu.LaunchCost;
import org.ncclharness.gpu.ProbeFailure;
import org.ncclharness.gpu.ProbeProblem;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.NcclLibOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench launch}: the host's share of one launch that the harness adds to NCCL's own ({@link LaunchCost}):
 * cold, as the first sizes of a sweep meet it, and warm. Needs libnccl.so.2; without it, says why (exit 3).
 */
@Command(name = "launch", addMethodSubcommands = false,
        description = "Time the JNI crossing of one collective launch (ncclAllReduce with a null"
        + " communicator, which NCCL refuses at its first check): cold, then warm. Needs libnccl.so.2, no GPU.")
public final class LaunchBench implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    HelpOptions helpOptions;

    @Mixin
    NcclLibOption ncclLib;

    @Option(names = "--cold", paramLabel = "N", description = "calls timed first (default ${DEFAULT-VALUE})")
    int cold = 1_000;

    @Option(names = "--warm", paramLabel = "N", description = "calls timed after them (default ${DEFAULT-VALUE})")
    int warm = 1_000_000;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ncclLib.apply();
        GpuProbe p = Gpus.probe();
        if (p.ncclVersion() == null) {
            ProbeProblem why = p.problems().stream().filter(x -> x.reason() == ProbeFailure.NCCL_NOT_FOUND
                    || x.reason() == ProbeFailure.NCCL_LOAD_FAILED).findFirst().orElse(p.firstProblem().orElseThrow());
            out.println("bench launch: no NCCL to launch into, nothing measured: " + why.oneLine());
            out.flush();
            return ExitCode.ENVIRONMENT;
        }
        LaunchCost c = LaunchCost.measure(Math.max(1, cold), Math.max(1, warm));
        out.printf(Locale.ROOT, "bench launch: ncclAllReduce through the JavaCPP binding with a null communicator;"
                + " NCCL %s (%s) returned %d at its first check, so this is the harness's crossing, no GPU work%n",
                p.ncclVersion(), p.ncclFile() == null ? "file unknown" : p.ncclFile(), c.ncclResult());
        out.printf(Locale.ROOT, "  cold: first %d calls, %.1f ns per call%n", c.coldCalls(), c.coldNsPerCall());
        out.printf(Locale.ROOT, "  warm: next %d calls, %.1f ns per call%n", c.warmCalls(), c.warmNsPerCall());
        out.flush();
        return ExitCode.OK;
    }
}
