package org.ncclharness.harness.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.Launch;
import org.ncclharness.harness.launch.LaunchOptions;
import org.ncclharness.harness.launch.Member;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench barrier}: the host barrier of the harness's control plane (TCP, a star around rank 0) under a
 * launcher, as the timed loop meets it between iterations (-z 1, -z 3) and before each size: how long one takes,
 * and how far apart it lets the ranks go, the last rank out minus the first. On one host every rank reads the
 * same monotonic clock, so the spread is measured; across hosts there is no common clock and it says so. An MPI
 * barrier on one host releases ranks within a few µs, which is what nccl-tests' loop pays.
 */
@Command(name = "barrier", addMethodSubcommands = false,
        description = "Time the control plane's barrier under a launcher (mpirun -np N java -jar"
        + " harness.jar bench barrier): its duration and, on one host, the spread of the ranks' release.")
public final class BarrierBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Mixin
    LaunchOptions launch;

    @Option(names = "--iters", paramLabel = "N", description = "timed barriers (default ${DEFAULT-VALUE})")
    int iters = 2000;

    @Option(names = "--warmup", paramLabel = "N", description = "untimed barriers first (default ${DEFAULT-VALUE})")
    int warmup = 200;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        int n = Math.max(1, iters);
        Launch l = Launch.resolve(launch);
        try (JobGroup g = l.join(List.of(), JobIdentity.hashArguments(List.of("bench", "barrier", "" + n, "" + warmup)),
                VersionInfo.projectVersion(), launch.jobOptions(), System.err)) {
            for (int i = 0; i < warmup; i++) {
                g.barrier();
            }
            double[] releaseUs = new double[n];
            double[] durationUs = new double[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                g.barrier();
                long t1 = System.nanoTime();
                releaseUs[i] = t1 / 1e3;
                durationUs[i] = (t1 - t0) / 1e3;
            }
            double[] first = g.allreduce(releaseUs.clone(), JobGroup.Op.MIN);
            double[] last = g.allreduce(releaseUs.clone(), JobGroup.Op.MAX);
            if (g.rank() == 0) {
                print(spec.commandLine().getOut(), g.members(), n, durationUs, first, last);
            }
        }
        return 0;
    }

    private void print(PrintWriter out, List<Member> members, int n, double[] durationUs, double[] first,
                       double[] last) {
        long hosts = members.stream().map(Member::hostId).distinct().count();
        out.printf(Locale.ROOT, "bench barrier: %d ranks on %d host%s, control plane TCP (a star around rank 0), %d"
                + " barriers after %d untimed, harness %s%n", members.size(), hosts, hosts == 1 ? "" : "s", n,
                warmup, VersionInfo.projectVersion());
        out.printf(Locale.ROOT, "  duration on rank 0 (call to return): median %.1f us, p99 %.1f us%n",
                percentile(durationUs, 50), percentile(durationUs, 99));
        if (hosts == 1) {
            double[] spread = new double[n];
            for (int i = 0; i < n; i++) {
                spread[i] = last[i] - first[i];
            }
            out.printf(Locale.ROOT, "  release spread (last rank out minus first, one clock): median %.1f us, p99 %.1f"
                    + " us, max %.1f us%n", percentile(spread, 50), percentile(spread, 99), percentile(spread, 100));
        } else {
            out.println("  release spread: n/a, ranks on " + hosts + " hosts share no clock (run it on one host)");
        }
        out.flush();
    }

    private static double percentile(double[] v, double p) {
        return new Percentile().withEstimationType(Percentile.EstimationType.R_7).evaluate(v, p);
    }
}
