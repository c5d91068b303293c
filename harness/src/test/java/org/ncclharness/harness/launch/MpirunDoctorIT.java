package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.VersionInfo;

/** {@code harness.jar doctor} under a real Open MPI mpirun: detection, rendezvous and control plane for real. */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class MpirunDoctorIT {

    @TempDir
    Path tmp;

    private static final boolean NO_DRIVER = !Files.exists(Path.of("/proc/driver/nvidia/version"));

    /** Lines of rank {@code r}'s stdout, tag removed. */
    private static List<String> stdoutOf(Processes.Result r, int rank) {
        String tag = "[1," + rank + "]<stdout>:";
        return r.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length())).toList();
    }

    private static List<String> allStdout(Processes.Result r, int np) {
        List<String> all = new ArrayList<>();
        for (int k = 0; k < np; k++) {
            all.addAll(stdoutOf(r, k));
        }
        return all;
    }

    private static void assertVerdictOnceByRankZero(Processes.Result r, int np) {
        assertThat(allStdout(r, np)).filteredOn(l -> l.equals("# doctor: job summary")).hasSize(1);
        assertThat(stdoutOf(r, 0)).contains("# doctor: job summary");
        assertThat(allStdout(r, np)).filteredOn(l -> l.startsWith("# verdict: ")).hasSize(1);
        List<String> verdict = stdoutOf(r, 0).stream().filter(l -> l.startsWith("# verdict: ")).toList();
        assertThat(verdict).hasSize(1);
        if (NO_DRIVER) {
            assertThat(verdict.get(0)).startsWith("# verdict: no GPU sweep can run (exit 3): NO_DRIVER: libcuda.so.1 not"
                    + " found");
            assertThat(r.rc()).isEqualTo(ExitCode.ENVIRONMENT);
        }
    }

    @Test
    void fourRanksJoinAndRankZeroAlonePrintsTheVerdict() throws Exception {
        Processes.Result r = Processes.runMpirun(Processes.mpirun(4, List.of(), Processes.harness("doctor",
                "--verbose")), Map.of(), tmp, "doctor", Processes.HANG_S);
        for (int k = 0; k < 4; k++) {
            String me = "rank " + k + "/4 ";
            assertThat(stdoutOf(r, k)).as("rank %d", k).anyMatch(l -> l.startsWith(me + "joined: 4 rank(s) in "))
                    .anyMatch(l -> l.startsWith(me + "place: launcher openmpi"))
                    .anyMatch(l -> l.startsWith(me + "rendezvous: file " + tmp + "/harness-rdzv-ompi-"));
        }
        assertVerdictOnceByRankZero(r, 4);
        assertThat(stdoutOf(r, 0)).contains("# job: 4 rank(s) on 1 host(s); launcher openmpi, job "
                + stdoutOf(r, 0).stream().filter(l -> l.startsWith("rank 0/4 place:")).findFirst().orElseThrow()
                        .replaceAll(".*, job ", "") + ", rendezvous " + stdoutOf(r, 0).stream()
                        .filter(l -> l.startsWith("rank 0/4 rendezvous: ")).findFirst().orElseThrow()
                        .substring("rank 0/4 rendezvous: ".length()) + ", harness " + VersionInfo.projectVersion());
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("rendezvous file deleted")
                    .noneMatch(n -> n.startsWith("harness-rdzv-"));
        }
    }

    @Test
    void withoutVerboseTheJobPrintsOnlyRankZerosSummary() throws Exception {
        Processes.Result r = Processes.runMpirun(Processes.mpirun(4, List.of(), Processes.harness("doctor")), Map.of(),
                tmp, "doctor-short", Processes.HANG_S);
        assertVerdictOnceByRankZero(r, 4);
        for (int k = 1; k < 4; k++) {
            assertThat(stdoutOf(r, k)).as("rank %d", k).isEmpty();
        }
        assertThat(stdoutOf(r, 0)).allMatch(l -> l.startsWith("# "))
                .anyMatch(l -> l.matches("# versions on ranks 0-3: driver .*, CUDA .*, NCCL .*"))
                .filteredOn(l -> l.startsWith("# rank ")).hasSize(4);
    }

    @Test
    void twoFakeHostsJoinWithLocalRanksZeroAndOneOnEach() throws Exception {
        Path ssh = Processes.fakeSsh(tmp);
        int port = Processes.freePort();
        // Open MPI's orted shares its hwloc topology through shared memory mapped at a probed address; with two
        // daemons started on one machine that probe sometimes collides and orted segfaults in
        // hwloc_shmem_topology_write (seen here about one run in four). The rtc/hwloc component only binds
        // processes, which these tests do not need.
        List<String> hosts = List.of("--mca", "rtc", "^hwloc", "--mca", "plm_rsh_agent", ssh.toString(),
                "--host", "127.0.0.2:2,127.0.0.3:2");
        List<String> withMaster = new ArrayList<>(hosts);
        withMaster.addAll(List.of("-x", "MASTER_ADDR=127.0.0.1", "-x", "MASTER_PORT=" + port));
        Processes.Result r = Processes.runMpirun(Processes.mpirun(4, withMaster, Processes.harness("doctor")), Map.of(),
                tmp, "two-hosts", Processes.HANG_S);
        assertVerdictOnceByRankZero(r, 4);
        assertThat(stdoutOf(r, 0)).anyMatch(l -> l.startsWith("# job: 4 rank(s) on 2 host(s)"))
                .anyMatch(l -> l.matches("# host .* \\(host id fake-127\\.0\\.0\\.2\\): ranks 0-1"))
                .anyMatch(l -> l.matches("# host .* \\(host id fake-127\\.0\\.0\\.3\\): ranks 2-3"));
        for (int k = 0; k < 4; k++) {
            String row = "# rank " + k + ": .* local=" + (k % 2) + "/2 .*";
            assertThat(stdoutOf(r, 0)).anyMatch(l -> l.matches(row));
        }
        for (int host = 2; host <= 3; host++) {
            assertThat(stdoutOf(r, 0)).contains("# hint on ranks " + (host == 2 ? "0-1" : "2-3")
                    + ": pass NCCL_HOSTID=fake-127.0.0." + host + " to NCCL so it groups hosts as the harness does");
        }

        // Without a rendezvous, ranks on several hosts stop at once with the fix, exit 2.
        Processes.Result auto = Processes.runMpirun(Processes.mpirun(4, hosts, Processes.harness("doctor")), Map.of(),
                tmp, "two-hosts-auto", Processes.HANG_S);
        assertThat(auto.rc()).isEqualTo(ExitCode.USAGE);
        assertThat(auto.err().lines()).anyMatch(l -> l.matches("\\[1,\\d]<stderr>:rank \\d/4: ranks span several"
                + " hosts \\(local size 2 < world size 4\\) and no rendezvous is set: pass -x MASTER_ADDR=.*"));
    }

    @Test
    void aConnectionWithAWrongTokenIsRefusedWhileTheJobCompletes() throws Exception {
        int port = Processes.freePort();
        // rank 3 waits for the test's word, given once the stranger was refused, so rank 0 is listening and
        // waiting while the stranger knocks, however slowly the machine starts the JVMs
        Path go = tmp.resolve("go");
        String doctor = String.join(" ", Processes.harness("doctor", "--verbose"));
        List<String> cmd = List.of("sh", "-c", "if [ \"$OMPI_COMM_WORLD_RANK\" = 3 ]; then while [ ! -f " + go
                + " ]; do sleep 0.1; done; fi; exec " + doctor);
        Process mpirun = Processes.start(Processes.mpirun(4, List.of("-x", "MASTER_ADDR=127.0.0.1", "-x",
                "MASTER_PORT=" + port), cmd), Map.of(), tmp, "stranger");
        List<String> refusals = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
        while (mpirun.isAlive() && System.nanoTime() < deadline) {
            try (RawPeer stranger = new RawPeer(port)) {
                refusals.add(stranger.rejection(stranger.hello(VersionInfo.projectVersion(), "not-this-job",
                        JobIdentity.hashArguments(List.of("doctor")), 4, RawPeer.member(3))));
                Files.writeString(go, "");
            } catch (ConnectException e) {
                // rank 0 not listening (yet, or any more)
            } catch (IOException e) {
                // rank 0 closed the listener while we knocked
            }
            Thread.sleep(100);
        }
        assertThat(mpirun.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
        Processes.Result r = Processes.result(mpirun, tmp, "stranger", 0);
        String why = "rank 3 (host=raw-host, pid=9003) of job not-this-job is not of this port's job ompi-";
        assertThat(refusals).isNotEmpty().allMatch(s -> s.startsWith(why));
        for (int k = 0; k < 4; k++) {
            String joined = "rank " + k + "/4 joined: 4";
            assertThat(stdoutOf(r, k)).as("rank %d", k).anyMatch(l -> l.startsWith(joined));
        }
        assertVerdictOnceByRankZero(r, 4);
        assertThat(r.err().lines()).filteredOn(l -> l.startsWith("[1,0]<stderr>:rank 0/4: refused a connection from"
                + " /127.0.0.1:")).hasSizeGreaterThanOrEqualTo(1)
                .allMatch(l -> l.contains(": " + why) && l.endsWith(": give each job its own MASTER_PORT or"
                        + " --rendezvous, and every rank of one job the same HARNESS_JOB_ID"));
    }
}
