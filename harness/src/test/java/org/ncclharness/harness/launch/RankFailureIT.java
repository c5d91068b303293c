package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;

/**
 * Real processes and real signals: ranks started torchrun-style (RANK, WORLD_SIZE, MASTER_ADDR on loopback), one
 * of them killed with SIGKILL after it joined while the others wait in a barrier, and the same under mpirun.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class RankFailureIT {

    @TempDir
    Path tmp;

    private List<Process> startRanks(int size, int port, List<Integer> hanging, List<Integer> ranks, String... flags)
            throws Exception {
        List<Process> ps = new ArrayList<>();
        for (int r : ranks) {
            Map<String, String> env = new HashMap<>(Map.of("RANK", "" + r, "WORLD_SIZE", "" + size, "LOCAL_RANK",
                    "" + r, "LOCAL_WORLD_SIZE", "" + size, "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "" + port));
            List<String> args = new ArrayList<>(List.of(flags));
            if (hanging.contains(r)) {
                args.add("--hang");
            }
            ps.add(Processes.start(Processes.member(args.toArray(String[]::new)), env, tmp, "r" + r));
        }
        return ps;
    }

    private void awaitJoined(int rank) throws Exception {
        awaitLine(rank, "joined rank " + rank + " pid ", "join");
    }

    /** Waits until rank {@code rank} waits in barrier #1 (JobMemberMain says so), so a kill now is "during" it. */
    private void awaitInBarrier(int rank) throws Exception {
        awaitLine(rank, "in barrier rank " + rank, "reach the barrier");
    }

    private void awaitLine(int rank, String prefix, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
        while (System.nanoTime() < deadline) {
            if (Files.exists(tmp.resolve("r" + rank + ".out"))
                    && Processes.read(tmp, "r" + rank + ".out").lines().anyMatch(l -> l.startsWith(prefix))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("rank " + rank + " did not " + what + ": " + Processes.read(tmp, "r" + rank
                + ".err"));
    }

    private void killAndExpectTheOthersToExit4(int size, int victim) throws Exception {
        int port = Processes.freePort();
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            all.add(r);
        }
        List<Process> ps = startRanks(size, port, List.of(victim), all);
        try {
            for (int r = 0; r < size; r++) {
                awaitJoined(r);
            }
            for (int r = 0; r < size; r++) {
                if (r != victim) {
                    awaitInBarrier(r); // the others are now in barrier #1, the victim is not
                }
            }
            Process v = ps.get(victim);
            long t0 = System.nanoTime();
            v.destroyForcibly(); // SIGKILL
            String named = "rank " + victim + " (host=" + Launch.hostName() + ", pid=" + v.pid() + ") was lost"
                    + " during barrier #1: connection closed (the process died or was killed)";
            for (int r = 0; r < size; r++) {
                if (r == victim) {
                    continue;
                }
                Process p = ps.get(r);
                assertThat(p.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).as("rank %d exits", r).isTrue();
                double s = (System.nanoTime() - t0) / 1e9;
                Processes.Result res = Processes.result(p, tmp, "r" + r, s);
                System.out.printf("rank %d exited %d, %.3f s after rank %d was killed%n", r, res.rc(), s, victim);
                assertThat(res.rc()).as("rank %d: %s", r, res.err()).isEqualTo(ExitCode.JOB);
                assertThat(res.err().strip()).isEqualTo("rank " + r + "/" + size + ": " + named
                        + (r == 0 || victim == 0 ? "" : " (reported by rank 0)"));
            }
        } finally {
            ps.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void killingARankThatJoinedMakesTheOthersExit4NamingIt() throws Exception {
        killAndExpectTheOthersToExit4(4, 2);
    }

    @Test
    void killingRankZeroMakesTheOthersExit4NamingIt() throws Exception {
        killAndExpectTheOthersToExit4(3, 0);
    }

    /** A rank busy outside the control plane (as in a native NCCL call) when the job fails is halted, exit 4. */
    @Test
    void aRankStuckOutsideTheControlPlaneIsHaltedWithExit4() throws Exception {
        int port = Processes.freePort();
        List<Process> ps = startRanks(3, port, List.of(0, 1), List.of(0, 1, 2));
        try {
            for (int r = 0; r < 3; r++) {
                awaitJoined(r);
            }
            awaitInBarrier(2);
            long t0 = System.nanoTime();
            ps.get(0).destroyForcibly();
            assertThat(ps.get(2).waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
            assertThat(ps.get(2).exitValue()).isEqualTo(ExitCode.JOB);
            assertThat(ps.get(1).waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("the stuck rank 1 was halted %.3f s after rank 0 was killed%n", s);
            assertThat(ps.get(1).exitValue()).isEqualTo(ExitCode.JOB);
            assertThat(Processes.read(tmp, "r1.err").strip()).isEqualTo("rank 1/3: rank 0 (host=" + Launch.hostName()
                    + ", pid=" + ps.get(0).pid() + ") was lost during idle after start-up: connection closed (the"
                    + " process died or was killed); still running 5 s after the failure, halting with exit code 4");
            // the halt comes 5 s after the failure, never sooner; how much later is the machine's load
            assertThat(s).isGreaterThanOrEqualTo(5.0);
        } finally {
            ps.forEach(Process::destroyForcibly);
        }
    }

    /**
     * Waits until each of {@code ranks} has knocked on {@code port} with its handshake, turning each knock away
     * (closed unanswered: the rank tries again 50 ms later, as it does while rank 0 is not there yet). A rank that
     * knocked has started its JVM and is in its join loop, whatever the machine's load.
     */
    private static void awaitKnocking(int port, Set<Integer> ranks) throws Exception {
        Set<Integer> knocked = new TreeSet<>();
        try (ServerSocket door = new ServerSocket()) {
            door.setReuseAddress(true);
            door.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            door.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Processes.HANG_S));
            while (!knocked.containsAll(ranks)) {
                try (Socket knock = door.accept()) {
                    knock.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Processes.HANG_S));
                    Wire.Frame hello = Wire.read(new DataInputStream(knock.getInputStream()), Wire.HANDSHAKE_LIMIT);
                    assertThat(hello.type()).isEqualTo(Wire.HELLO);
                    knocked.add(Wire.Hello.decode(hello.body()).member().rank());
                }
            }
        }
    }

    @Test
    void aRankThatNeverArrivesEndsTheJobAtTheStartupTimeout() throws Exception {
        int port = Processes.freePort();
        // rank 3 never starts, so rank 0's timeout is certain to fire. Ranks 1 and 2 must join inside it, and do
        // however slow the machine: they start first and rank 0 only once both knock on its port (the test's until
        // then), so its 15 s wait holds no JVM start, only their next knock and handshake
        List<Process> others = startRanks(4, port, List.of(), List.of(1, 2), "--startup-timeout", "600");
        List<Process> ps = new ArrayList<>();
        try {
            awaitKnocking(port, Set.of(1, 2));
            long t0 = System.nanoTime();
            ps.addAll(startRanks(4, port, List.of(), List.of(0), "--startup-timeout", "15"));
            ps.addAll(others);
            for (int r = 0; r < 3; r++) {
                assertThat(ps.get(r).waitFor(Processes.HANG_S, TimeUnit.SECONDS)).as("rank %d exits", r).isTrue();
                Processes.Result res = Processes.result(ps.get(r), tmp, "r" + r, (System.nanoTime() - t0) / 1e9);
                assertThat(res.rc()).as(res.err()).isEqualTo(ExitCode.JOB);
                assertThat(res.err()).contains("timeout after 15 s waiting for ranks [3] to join via tcp://127.0.0.1:"
                        + port + " (MASTER_ADDR/MASTER_PORT)");
                // rank 0's 15 s start after t0, and the others end on its word: none sooner, however quiet the machine
                assertThat(res.seconds()).isGreaterThanOrEqualTo(15.0);
            }
        } finally {
            others.forEach(Process::destroyForcibly);
            ps.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void underMpirunAKilledRankEndsTheJobAndIsNamed() throws Exception {
        String member = String.join(" ", Processes.member());
        List<String> cmd = List.of("sh", "-c", "if [ \"$OMPI_COMM_WORLD_RANK\" = 2 ]; then exec " + member
                + " --hang; else exec " + member + "; fi");
        Process mpirun = Processes.start(Processes.mpirun(4, List.of(), cmd), Map.of(), tmp, "mpirun-kill");
        try {
            long pid = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
            while (pid < 0 && System.nanoTime() < deadline) {
                String out = Processes.read(tmp, "mpirun-kill.out");
                long joined = out.lines().filter(l -> l.contains("<stdout>:joined rank ")).count();
                // the three others wait in barrier #1 (each says so), so the kill comes "during" it
                long inBarrier = out.lines().filter(l -> l.contains("<stdout>:in barrier rank ")).count();
                if (joined == 4 && inBarrier == 3) {
                    pid = Long.parseLong(out.lines().filter(l -> l.startsWith("[1,2]<stdout>:joined rank 2 pid "))
                            .findFirst().orElseThrow().replaceAll(".* pid ", ""));
                }
                Thread.sleep(20);
            }
            assertThat(pid).as("all 4 ranks joined, 3 wait in the barrier").isPositive();
            // held, mpirun cannot kill the others before they end by themselves (HeldLauncher): each one's own
            // exit is read, and mpirun reports whichever exit it reaps first
            Map<Integer, Integer> exits;
            try (HeldLauncher held = HeldLauncher.hold(mpirun, 4)) {
                ProcessHandle.of(pid).orElseThrow().destroyForcibly();
                exits = held.awaitExits();
            }
            assertThat(mpirun.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
            String err = Processes.read(tmp, "mpirun-kill.err");
            assertThat(exits).as(err).isEqualTo(Map.of(0, ExitCode.JOB, 1, ExitCode.JOB, 2, 128 + 9, 3, ExitCode.JOB));
            assertThat(mpirun.exitValue()).isNotZero();
            for (int r : List.of(0, 1, 3)) {
                assertThat(err).contains("[1," + r + "]<stderr>:rank " + r + "/4: rank 2 (host=" + Launch.hostName()
                        + ", pid=" + pid + ") was lost during barrier #1");
            }
        } finally {
            mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
        }
    }
}
