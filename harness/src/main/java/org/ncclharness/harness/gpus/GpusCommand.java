package org.ncclharness.harness.gpus;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.NcclLibOption;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.GpuSmoke;
import org.ncclharness.gpu.TimedLoop;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.gpu.HostPlatform;
import org.ncclharness.gpu.ProbeProblem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code harness.jar gpus}: what the JVM can see of the GPU stack — driver, CUDA runtime and NCCL versions
 * (NCCL's as {@code ncclGetVersion} reports it at run time) and every device — or each missing piece with
 * its fix, and exit code 3.
 */
@Command(name = "gpus", addMethodSubcommands = false,
        description = "Probe the NVIDIA driver, CUDA runtime, NCCL and the visible GPUs; exit 3 if a piece is missing.")
public final class GpusCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;
    @Mixin
    NcclLibOption ncclLib;

    @Option(names = "--smoke", description = "Also create a one-rank NCCL communicator on every GPU and run a "
            + "checked AllReduce sweep (8 B..1 MiB) plain and with CUDA-graph capture.")
    boolean smoke;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ncclLib.apply();
        GpuProbe p = Gpus.probe();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("host:    %s%n", HostPlatform.current().describe());
        out.printf("driver:  %s%n", version(p.driverVersion()));
        out.printf("runtime: %s%n", version(p.runtimeVersion()));
        out.printf("nccl:    %s%n", p.ncclVersion() == null ? "not loaded"
                : p.ncclVersion() + " (" + p.ncclVersion().code() + ")" + (p.ncclFile() == null ? "" : " " + p.ncclFile()));
        out.printf("devices: %d%n", p.devices().size());
        for (GpuDevice d : p.devices()) {
            out.printf(Locale.ROOT, "  %d  %s  %s  %.1f GiB  sm_%d%d  %d SMs%n", d.index(), d.name(), d.pciBusId(),
                    d.totalMemBytes() / (double) (1L << 30), d.ccMajor(), d.ccMinor(), d.multiProcessors());
        }
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        for (ProbeProblem problem : p.problems()) {
            err.println("error: " + problem.oneLine());
        }
        err.flush();
        if (!p.ok()) {
            return ExitCode.ENVIRONMENT;
        }
        return smoke ? smoke(p, out, err) : ExitCode.OK;
    }

    private static int smoke(GpuProbe p, PrintWriter out, PrintWriter err) {
        boolean ok = true;
        for (GpuSmoke.Result r : GpuSmoke.run(p)) {
            if (r.error() != null) {
                err.printf("error: smoke test on GPU %d: %s%n", r.device(), r.error());
            } else {
                // a time the loop took on a test clock is not measured, and says so
                out.printf(Locale.ROOT, "smoke:   GPU %d nranks=1 init ok; allreduce 8 B..1 MiB #wrong %d, with -G 1 #wrong %d; "
                        + "1 MiB out-of-place %.2f us%s%n", r.device(), r.wrongPlain(), r.wrongGraph(), r.largestTimeUs(),
                        TimedLoop.testClock().map(c -> " (NOT MEASURED, timed by a test clock: " + c + ")").orElse(""));
            }
            ok &= r.ok();
        }
        out.flush();
        err.flush();
        return ok ? ExitCode.OK : ExitCode.JOB;
    }

    private static String version(Integer code) {
        return code == null ? "not found" : "CUDA " + GpuProbe.cudaVersionText(code) + " (" + code + ")";
    }
}
