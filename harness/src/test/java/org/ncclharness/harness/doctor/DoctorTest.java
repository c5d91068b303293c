package org.ncclharness.harness.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.cli.Main;
import org.ncclharness.harness.launch.LocalRanks;
import org.ncclharness.harness.launch.Member;
import picocli.CommandLine;

class DoctorTest {

    private static final Problem NO_DRIVER = new Problem(ExitCode.ENVIRONMENT, "no NVIDIA driver", "install it");

    private static Member m(int rank, String hostId, int cpus, String... gpus) {
        return new Member(rank, "h" + hostId, hostId, 10 + rank, -1, -1, cpus, List.of(gpus));
    }

    private static GpuFacts facts(List<String> gpus, Problem... problems) {
        return new GpuFacts(gpus, "560.35.03", "13.3", "2.23.4", "test", "harness.jar (test)", List.of(problems));
    }

    @Test
    void summaryGroupsRanksPerProblemAndTakesTheWorst() {
        List<Member> ms = LocalRanks.recompute(List.of(m(0, "a", 8, "b0"), m(1, "a", 8, "b0"), m(2, "b", 8),
                m(3, "b", 8)));
        List<RankReport> reports = List.of(
                new RankReport(0, facts(List.of("b0")), List.of("use srun"), List.of()),
                new RankReport(1, facts(List.of("b0")), List.of(), List.of()),
                new RankReport(2, facts(List.of(), NO_DRIVER), List.of(), List.of(NO_DRIVER)),
                new RankReport(3, facts(List.of(), NO_DRIVER), List.of(), List.of(NO_DRIVER)));
        DoctorSummary s = DoctorSummary.of(ms, reports, "launcher test");
        assertThat(s.lines().get(0)).isEqualTo("# doctor: job summary");
        assertThat(s.lines()).contains("# job: 4 rank(s) on 2 host(s); launcher test",
                "# host ha (host id a): ranks 0-1", "# host hb (host id b): ranks 2-3",
                "# rank 1: host=ha pid=11 local=1/2 cpus=8 gpus=1 device=0 (b0)",
                "# problem [exit 3] on ranks 2-3: no NVIDIA driver; fix: install it", "# hint on ranks 0: use srun");
        assertThat(s.lines()).contains("# problem [exit 2] on ranks 0-3: two or more ranks would drive one GPU"
                + " (device = local rank % visible GPUs): ranks [0, 1] on host ha all map to GPU b0; fix: start at"
                + " most as many ranks per host as it has GPUs (mpirun -npernode N, srun --gpus-per-task=1)");
        assertThat(s.lines().get(s.lines().size() - 1)).isEqualTo("# verdict: no GPU sweep can run (exit 3): no"
                + " NVIDIA driver");
        assertThat(s.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
    }

    @Test
    void warningsAloneLetTheSweepRun() {
        List<Member> ms = LocalRanks.recompute(List.of(m(0, "a", 1, "b0", "b1"), m(1, "a", 1, "b0", "b1")));
        List<RankReport> reports = List.of(new RankReport(0, facts(List.of("b0", "b1")), List.of(), List.of()),
                new RankReport(1, facts(List.of("b0", "b1")), List.of(), List.of()));
        DoctorSummary s = DoctorSummary.of(ms, reports, "x");
        assertThat(s.lines()).contains("# warning on ranks 0-1: 1 available processor (the launcher bound the rank"
                + " to one core; Open MPI does when np <= 2); fix: mpirun --bind-to none, or"
                + " --map-by ppr:N:node:pe=CORES",
                "# verdict: a GPU sweep can run on all 2 rank(s) (exit 0)");
        assertThat(s.exitCode()).isZero();
        assertThat(DoctorSummary.ranges(List.of(5, 0, 1, 2, 7, 8))).isEqualTo("0-2,5,7-8");
    }

    private static int run(GpuInfoSource source, StringWriter out) {
        CommandLine cl = new CommandLine(new DoctorCommand(source));
        cl.setOut(new PrintWriter(out, true));
        return cl.execute();
    }

    @Test
    void singleProcessWithoutAGpuExits3AndSaysWhy() {
        StringWriter out = new StringWriter();
        int code = run(() -> facts(List.of(), NO_DRIVER), out);
        assertThat(code).isEqualTo(ExitCode.ENVIRONMENT);
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).filteredOn(l -> l.startsWith("rank 0/1 ")).extracting(l -> l.split(":")[0])
                .contains("rank 0/1 place", "rank 0/1 host", "rank 0/1 platform", "rank 0/1 build", "rank 0/1 gpus", "rank 0/1 versions",
                        "rank 0/1 rendezvous", "rank 0/1 problem [exit 3]", "rank 0/1 joined");
        assertThat(lines).contains("rank 0/1 platform: " + org.ncclharness.gpu.HostPlatform.current().describe());
        assertThat(lines).containsOnlyOnce("# doctor: job summary",
                "# verdict: no GPU sweep can run (exit 3): no NVIDIA driver");
    }

    @Test
    void singleProcessWithAGpuExits0() {
        StringWriter out = new StringWriter();
        assertThat(run(() -> facts(List.of("0000:19:00.0")), out)).isZero();
        assertThat(out.toString()).contains("rank 0/1 gpus: 1 visible [0000:19:00.0]",
                "# rank 0: host=", "device=0 (0000:19:00.0)", "# verdict: a GPU sweep can run on all 1 rank(s)");
    }

    @Test
    void doctorIsRegisteredAndBadFlagsAreUsageErrors() {
        assertThat(Main.execute("doctor", "--rank", "1")).isEqualTo(ExitCode.USAGE);
        assertThat(Main.execute("doctor", "--startup-timeout", "-1")).isEqualTo(ExitCode.USAGE);
    }
}
