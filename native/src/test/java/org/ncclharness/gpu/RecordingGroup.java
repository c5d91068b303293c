package org.ncclharness.gpu;

import java.util.List;

/** The job group as process 0 sees it (of one process unless told), writing its calls into the shared log. */
final class RecordingGroup implements JobGroup {
    private final List<String> log;
    private final int processes;

    RecordingGroup(List<String> log) {
        this(log, 1);
    }

    RecordingGroup(List<String> log, int processes) {
        this.log = log;
        this.processes = processes;
    }

    @Override public int processIndex() { return 0; }
    @Override public int processCount() { return processes; }

    @Override
    public void barrier() {
        log.add("barrier");
    }

    @Override
    public void allreduce(double[] values, Reduction op) {
        log.add("allreduce " + op + " " + values.length);
    }
}
