package org.ncclharness.gpu;

import java.util.Objects;

/**
 * One missing piece the probe found: its typed reason and what exactly was seen (the loader's or the
 * runtime's own words, shortened to one line).
 */
public record ProbeProblem(ProbeFailure reason, String detail) {

    public ProbeProblem {
        Objects.requireNonNull(reason, "reason");
        detail = detail == null ? "" : detail.replaceAll("\\s+", " ").trim();
    }

    public String fix() {
        return reason.fix();
    }

    /** {@code NO_DRIVER: libcuda.so.1 not found (...). Fix: install ...} */
    public String oneLine() {
        return reason + ": " + detail + ". Fix: " + fix();
    }
}
