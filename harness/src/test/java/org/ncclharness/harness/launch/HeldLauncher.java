package org.ncclharness.harness.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * mpirun held still (SIGSTOP) while its ranks end, then let go. Open MPI's mpirun exits with the first non-zero
 * exit it reaps and, on it, kills the ranks still running: the first it notices, not the first to happen (it
 * reaps with {@code waitpid(-1)} once it runs again, and the kernel lists its children in the order they were
 * started). On a loaded machine mpirun may not run between one rank's death and a survivor's own exit, so which
 * exit it reports, and whether a survivor lives to print its line, is the scheduler's choice. Held, mpirun
 * reaps and kills nobody: each rank ends on its own, its exit status is read from the kernel while it waits
 * unreaped (a zombie), and its output waits in the pipe. This is that loaded-machine case, every time.
 */
final class HeldLauncher implements AutoCloseable {

    private final Process launcher;
    /** Each rank's process (mpirun's child), by OMPI_COMM_WORLD_RANK. */
    private final Map<Integer, Long> ranks;

    private HeldLauncher(Process launcher, Map<Integer, Long> ranks) {
        this.launcher = launcher;
        this.ranks = ranks;
    }

    /**
     * Stops {@code mpirun} once it has started {@code size} ranks (the ranks need nothing from it to run: they
     * meet through their own rendezvous, and their few lines of output fit the pipes).
     */
    static HeldLauncher hold(Process mpirun, int size) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
        Map<Integer, Long> ranks = new TreeMap<>();
        while (ranks.size() < size) {
            if (!mpirun.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("mpirun started " + ranks.size() + " of " + size + " ranks (exit "
                        + (mpirun.isAlive() ? "none yet" : mpirun.exitValue()) + ")");
            }
            ranks.clear();
            for (ProcessHandle child : mpirun.children().toList()) {
                rankOf(child.pid()).ifPresent(r -> ranks.put(r, child.pid()));
            }
            Thread.sleep(20);
        }
        signal("STOP", mpirun.pid());
        return new HeldLauncher(mpirun, Map.copyOf(ranks));
    }

    /** Waits until every rank has ended by itself; each rank's exit code (128 + N for a signal N). */
    Map<Integer, Integer> awaitExits() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Processes.HANG_S);
        Map<Integer, Integer> exits = new TreeMap<>();
        while (exits.size() < ranks.size()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("ranks still running after " + Processes.HANG_S + " s: only " + exits
                        + " ended");
            }
            ranks.forEach((rank, pid) -> exitCode(pid).ifPresent(c -> exits.put(rank, c)));
            Thread.sleep(20);
        }
        return exits;
    }

    /** Lets mpirun go on: it reaps the ranks, forwards their output and exits. */
    @Override
    public void close() throws Exception {
        signal("CONT", launcher.pid());
    }

    private static OptionalInt rankOf(long pid) {
        try {
            for (String v : new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")))
                    .split("\0")) {
                if (v.startsWith("OMPI_COMM_WORLD_RANK=")) {
                    return OptionalInt.of(Integer.parseInt(v.substring(v.indexOf('=') + 1)));
                }
            }
        } catch (IOException e) {
            // not started yet, or gone
        }
        return OptionalInt.empty();
    }

    /**
     * The exit code of a process that has ended and is not reaped yet: /proc/PID/stat's state Z and its field 52,
     * exit_code, in waitpid's encoding (Linux 3.5 on). Empty while it runs.
     */
    static OptionalInt exitCode(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            throw new AssertionError("process " + pid + " was reaped while mpirun was held", e);
        }
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        if (!fields[0].equals("Z")) {
            return OptionalInt.empty();
        }
        int status = Integer.parseInt(fields[52 - 3]);
        return OptionalInt.of((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f));
    }

    private static void signal(String sig, long pid) throws Exception {
        Process kill = new ProcessBuilder(List.of("kill", "-" + sig, Long.toString(pid))).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + sig + " " + pid + " failed");
        }
    }
}
