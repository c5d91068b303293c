package org.ncclharness.harness.bringup;

import java.util.List;
import java.util.Map;
import org.ncclharness.harness.launch.Member;

/**
 * The four steps of a bring-up, each a sweep on its own communicators, in the order that isolates one layer at a
 * time: the install on each GPU, NVLink/P2P inside each host, the network between the hosts, then the whole
 * system's curve, kept as the baseline. Each step runs {@code -N} times and keeps the median.
 *
 * <p>Step 1 runs every GPU on its own, all at once, rather than one GPU per host: it costs the same time and
 * finds the one bad GPU of a host that a single GPU per host would miss. A process that drives several GPUs
 * ({@code -g N}) runs the step N times, one of its GPUs in each pass.
 */
public enum BringupStep {

    GPU(1, "every GPU alone", "the install works on each GPU (CUDA, NCCL, the data check)"),
    HOST(2, "each host, all its GPUs", "NVLink/P2P inside each host"),
    NETWORK(3, "all hosts, largest sizes", "the network between the hosts"),
    BASELINE(4, "all hosts, every size", "the whole curve, kept as the baseline");

    private final int number;
    private final String what;
    private final String tests;

    BringupStep(int number, String what, String tests) {
        this.number = number;
        this.what = what;
        this.tests = tests;
    }

    public int number() {
        return number;
    }

    /** What runs, e.g. {@code each host, all its GPUs}. */
    public String what() {
        return what;
    }

    /** What passing it shows. */
    public String tests() {
        return tests;
    }

    /** {@code step 2 (each host, all its GPUs)}. */
    public String title() {
        return "step " + number + " (" + what + ")";
    }

    /** The GPUs each process drives in this step: one alone in step 1, all of its own otherwise. */
    public int gpusPerProcess(int jobGpusPerProcess) {
        return this == GPU ? 1 : jobGpusPerProcess;
    }

    /**
     * The communicator of each process: its own in step 1, its host's in step 2, the whole job's after.
     *
     * @param hostIndex host id → index, in the order hosts first appear among the ranks
     */
    public long colour(Member m, Map<String, Integer> hostIndex) {
        return switch (this) {
            case GPU -> m.rank();
            case HOST -> hostIndex.get(m.hostId());
            case NETWORK, BASELINE -> 0;
        };
    }

    /**
     * Why the step does not run on this job, or null when it does: one host has no network to test, hosts of one
     * GPU have no NVLink to test, and one GPU has nothing to send to.
     *
     * @param mostGpusPerHost the GPUs of the host with the most
     */
    public String skippedBecause(int hosts, int mostGpusPerHost) {
        return switch (this) {
            case GPU -> null;
            case HOST -> mostGpusPerHost < 2 ? "one GPU per host: nothing inside a host to test" : null;
            case NETWORK -> hosts < 2 ? "one host: no network between hosts to test (step 4 still runs the whole"
                    + " host)" : null;
            case BASELINE -> hosts < 2 && mostGpusPerHost < 2 ? "one GPU: no other GPU to exchange data with" : null;
        };
    }

    /** The sizes of the step: all of them, but step 3 only the largest (it asks whether the network reaches its rate). */
    public List<Long> sizes(List<Long> all) {
        return this == NETWORK ? all.subList(Math.max(0, all.size() - NETWORK_SIZES), all.size()) : all;
    }

    /** Sizes step 3 keeps from the top of the list. */
    static final int NETWORK_SIZES = 4;
}
