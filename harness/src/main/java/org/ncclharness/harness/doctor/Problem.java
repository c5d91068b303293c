package org.ncclharness.harness.doctor;

/**
 * One thing that stands between the user and a GPU sweep, with its fix.
 *
 * @param exitCode the code it maps to (README, "Exit codes"); 0 for a warning that does not stop a sweep
 * @param what     what is wrong, without the rank (the summary groups ranks with the same problem)
 * @param fix      what to do about it
 */
public record Problem(int exitCode, String what, String fix) {

    public boolean warning() {
        return exitCode == 0;
    }

    public String line() {
        return (warning() ? "warning" : "problem [exit " + exitCode + "]") + ": " + what + "; fix: " + fix;
    }
}
