package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
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

/**
 * Issue 46's fault test: while a {@code bench barrier} job of 3 ranks waits for its last rank, a silent stranger
 * (connects, says nothing), a garbage stranger (an HTTP request) and the ranks of a second job on the same port
 * knock at rank 0. Each is refused and logged once by rank 0, and the job runs to completion, exit 0; under a
 * real mpirun and started by hand (RANK/WORLD_SIZE/MASTER_PORT, no HARNESS_JOB_ID, the second job from other
 * sessions as another terminal would start it).
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class StrangersIT {

    private static final String[] BENCH = {"bench", "barrier", "--iters", "50", "--warmup", "5"};

    @TempDir
    Path tmp;

    private static Map<String, String> handEnv(int rank, int port) {
        return Map.of("RANK", "" + rank, "WORLD_SIZE", "3", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "" + port);
    }

    /** Connects once rank 0 listens; a refused connect never reaches rank 0, so it is not a stranger. */
    private static RawPeer connectWhenListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
        while (true) {
            try {
                return new RawPeer(port);
            } catch (ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    /** Knocks with the two strangers and starts the second job; returns its rank processes (ranks 1 and 2). */
    private List<Process> knock(int port, boolean ownSessions) throws Exception {
        try (RawPeer silent = connectWhenListening(port); RawPeer garbage = new RawPeer(port)) {
            garbage.out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            garbage.out.flush();
            assertThat(garbage.rejection(garbage.next())).isEqualTo("a handshake of 1195725856 bytes, over the"
                    + " 4096-byte limit");
            List<Process> second = new ArrayList<>();
            for (int r = 1; r <= 2; r++) {
                List<String> cmd = new ArrayList<>(ownSessions ? List.of("setsid") : List.of());
                cmd.addAll(Processes.harness(BENCH));
                second.add(Processes.start(cmd, handEnv(r, port), tmp, "second" + r));
            }
            for (int r = 1; r <= 2; r++) {
                Process p = second.get(r - 1);
                assertThat(p.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).as("the second job's rank %d exits", r)
                        .isTrue();
                assertThat(p.exitValue()).as(Processes.read(tmp, "second" + r + ".err")).isEqualTo(ExitCode.JOB);
            }
            assertThat(silent.rejection(silent.next())).isEqualTo("no handshake within 5 s");
            return second;
        }
    }

    /** Rank 0's refusals: one per stranger and one per rank of the second job, each naming both jobs. */
    private static void assertEachLoggedOnce(List<String> refused, List<Process> second, String theirJob,
            String ourJob) {
        assertThat(refused).hasSize(4);
        assertThat(refused).filteredOn(l -> l.endsWith(": no handshake within 5 s")).hasSize(1);
        assertThat(refused).filteredOn(l -> l.endsWith(": a handshake of 1195725856 bytes, over the 4096-byte"
                + " limit")).hasSize(1);
        for (int r = 1; r <= 2; r++) {
            String who = ": rank " + r + " (host=" + Launch.hostName() + ", pid=" + second.get(r - 1).pid() + ") of "
                    + theirJob;
            assertThat(refused).filteredOn(l -> l.contains(who) && l.contains(" is not of this port's " + ourJob)
                    && l.endsWith(": give each job its own MASTER_PORT or --rendezvous, and every rank of one job"
                            + " the same HARNESS_JOB_ID")).as("rank %d of the second job", r).hasSize(1);
        }
    }

    @Test
    void byHandTheStrangersAndASecondJobOnThePortAreEachLoggedOnceAndTheJobCompletes() throws Exception {
        int port = Processes.freePort();
        List<Process> job = new ArrayList<>();
        try {
            for (int r = 0; r < 2; r++) {
                job.add(Processes.start(Processes.harness(BENCH), handEnv(r, port), tmp, "r" + r));
            }
            List<Process> second = knock(port, true);
            job.add(Processes.start(Processes.harness(BENCH), handEnv(2, port), tmp, "r2")); // the late rank
            for (int r = 0; r < 3; r++) {
                assertThat(job.get(r).waitFor(Processes.HANG_S, TimeUnit.SECONDS)).as("rank %d exits", r).isTrue();
                assertThat(job.get(r).exitValue()).as("rank %d: %s", r, Processes.read(tmp, "r" + r + ".err"))
                        .isZero();
            }
            assertThat(Processes.read(tmp, "r0.out")).contains("bench barrier: 3 ranks on 1 host");
            List<String> refused = Processes.read(tmp, "r0.err").lines()
                    .filter(l -> l.startsWith("rank 0/3: refused a connection from /127.0.0.1:")).toList();
            String session = "started from session \\d+";
            String ours = "job env-127.0.0.1:" + port + " started from session ";
            assertEachLoggedOnce(refused, second, ours.replace(" started from session ", ""), ours);
            assertThat(refused).filteredOn(l -> l.matches(".* of job env-127\\.0\\.0\\.1:" + port + " " + session
                    + " is not of this port's job env-127\\.0\\.0\\.1:" + port + " " + session + " .*")).hasSize(2);
            assertThat(Processes.read(tmp, "second1.err")).startsWith("rank 1/3: rank 0 at ")
                    .contains(" refused this rank: rank 1 (host=");
        } finally {
            job.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void underMpirunTheStrangersAndASecondJobOnThePortAreEachLoggedOnceAndTheJobCompletes() throws Exception {
        int port = Processes.freePort();
        Path go = tmp.resolve("go");
        // rank 2 waits for the test's word, so rank 0 is listening and waiting while the strangers knock
        String bench = String.join(" ", Processes.harness(BENCH));
        List<String> cmd = List.of("sh", "-c", "if [ \"$OMPI_COMM_WORLD_RANK\" = 2 ]; then while [ ! -f " + go
                + " ]; do sleep 0.1; done; fi; exec " + bench);
        Process mpirun = Processes.start(Processes.mpirun(3, List.of("-x", "MASTER_ADDR=127.0.0.1", "-x",
                "MASTER_PORT=" + port), cmd), Map.of(), tmp, "mpirun");
        try {
            List<Process> second = knock(port, false);
            Files.writeString(go, "");
            assertThat(mpirun.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
            Processes.Result r = Processes.result(mpirun, tmp, "mpirun", 0);
            assertThat(r.rc()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("[1,0]<stdout>:bench barrier: 3 ranks on 1 host");
            String tag = "[1,0]<stderr>:";
            List<String> refused = r.err().lines().filter(l -> l.startsWith(tag + "rank 0/3: refused a connection"
                    + " from /127.0.0.1:")).map(l -> l.substring(tag.length())).toList();
            assertEachLoggedOnce(refused, second, "job env-127.0.0.1:" + port, "job ompi-");
        } finally {
            mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
        }
    }
}
