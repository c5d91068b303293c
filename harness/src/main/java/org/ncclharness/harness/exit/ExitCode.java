package org.ncclharness.harness.exit;

/** The exit codes every command shares (README, "Exit codes"). */
public final class ExitCode {
    /** Success, or a {@code check} verdict of PASS or WARN. */
    public static final int OK = 0;
    /** A {@code check} verdict of FAIL, or a sweep below --min-busbw / NCCL_TESTS_MIN_BW. */
    public static final int FAIL = 1;
    /** Bad usage or bad input; the message names file:line. */
    public static final int USAGE = 2;
    /** Environment: no driver, no GPU, no NCCL library, a version too old; an output that cannot be written. */
    public static final int ENVIRONMENT = 3;
    /** Job failure: a rank lost, a rendezvous or init timeout, an NCCL error. */
    public static final int JOB = 4;
    /** Internal error: a defect of the harness (one line; the stack trace with --debug). */
    public static final int INTERNAL = 5;

    /** The table printed by {@code --help} and copied into the README. */
    public static final String TABLE = """
            Exit codes:
              0  success; check verdict PASS, or WARN (the warning is printed)
              1  check verdict FAIL (or WARN with --strict), a bringup step FAILs, a host
                 bringup --pairs names, a diagnose FAIL finding, or a sweep below
                 --min-busbw / NCCL_TESTS_MIN_BW
              2  bad usage or bad input (the message names file:line)
              3  environment: no NVIDIA driver, no GPU, no NCCL library, version too old;
                 an output that cannot be written (full disk, permission, closed stdout)
              4  job failure: a rank lost, a rendezvous or init timeout, an NCCL error
              5  internal error: a defect of nccl-harness (--debug prints the trace)""";

    private ExitCode() {
    }

    /** A verdict's exit code: FAIL exits 1, and with {@code --strict} a WARN too. */
    public static int of(org.ncclharness.calibration.check.Verdict v, boolean strict) {
        return v == org.ncclharness.calibration.check.Verdict.FAIL
                || strict && v == org.ncclharness.calibration.check.Verdict.WARN ? FAIL : OK;
    }
}
