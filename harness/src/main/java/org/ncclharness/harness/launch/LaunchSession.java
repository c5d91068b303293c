package org.ncclharness.harness.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Unix session a rank was started from (proc(5), {@code /proc/self/stat} field 6): the ranks of one job
 * started by hand from a terminal or a script share it, and a second job started from another terminal or with
 * {@code setsid} does not. It is what tells two hand-launched jobs on one MASTER_PORT apart on rank 0's host,
 * where they share the address, the arguments and the world size (issue 46: they swapped ranks).
 */
final class LaunchSession {

    private LaunchSession() {
    }

    /** {@code "session N"} of this process, or empty where /proc is not readable (then nothing is compared). */
    static String current() {
        try {
            return parseStat(Files.readString(Path.of("/proc/self/stat"))).map(sid -> "session " + sid).orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The session id in a {@code /proc/PID/stat} line: "pid (comm) state ppid pgrp session ...". The command
     * name may hold spaces and parentheses, so the fields are counted after its last ')'.
     */
    static Optional<Long> parseStat(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return Optional.empty();
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        if (f.length < 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(f[3]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
