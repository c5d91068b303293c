package org.ncclharness.gpu;

import java.util.List;

/** The job group of a single process, writing its calls into the shared log. */
final class RecordingGroup implements JobGroup {
    private final List<String> log;

    RecordingGroup(List<String> log) {
        this.log = log;
    }

    @Override public int processIndex() { return 0; }
    @Override public int processCount() { return 1; }

    @Override
    public void barrier() {
        log.add("barrier");
    }

    @Override
    public void allreduce(double[] values, Reduction op) {
        log.add("allreduce " + op + " " + values.length);
    }
}
