package org.ncclharness.calibration.resolve;

import java.util.List;
import org.ncclharness.calibration.advice.Setting;

/**
 * A fact a run's input does not state, with what is known around it, so that the advice can say exactly what to
 * state. Which of them a command can go without is the command's decision: {@code check} judges a run whose network
 * is unknown against what it can, {@code calibrate} fits none.
 */
public sealed interface Missing {

    /** The fact a user would state. */
    Setting fact();

    /** N: no device lines, no launch line, and busbw/algbw do not tell. */
    record GpuCount() implements Missing {
        public Setting fact() {
            return Setting.GPU_COUNT;
        }
    }

    /**
     * The hosts, where the input does not state them.
     *
     * @param why          what the input shows instead
     * @param listedRanks  the ranks its device list shows
     * @param ranks        N
     * @param listedHosts  the hosts its device list shows
     * @param network      the network a hint names between hosts ({@link Why#NETWORK_NAMED}), else null
     */
    record HostCount(Why why, int listedRanks, Integer ranks, int listedHosts, NamedInterconnect network) implements Missing {
        /** What the input shows of its hosts. */
        public enum Why {
            /** Nothing. */
            UNSTATED,
            /** A device list of some ranks, on several hosts: at least those. */
            PARTIAL_DEVICE_LIST,
            /** A device list of some ranks (one process's) and no launch line. */
            PARTIAL_LIST_NO_LAUNCH,
            /** Nothing, while a hint names a network between hosts: one host would leave it no tier to be. */
            NETWORK_NAMED
        }

        public Setting fact() {
            return Setting.HOST_COUNT;
        }
    }

    /**
     * No fabric is stated or named and the GPU name gives none.
     *
     * @param hosts   the hosts where known
     * @param perHost GPUs per host where known
     * @param gpu     the GPU name, null where not stated
     */
    record Interconnect(Integer hosts, Integer perHost, String gpu) implements Missing {
        public Setting fact() {
            return Setting.INTERCONNECT;
        }
    }

    /**
     * Across hosts, the network between them is neither stated nor named by the log.
     *
     * @param intra      the fabric inside a host, from the GPU name; null where unknown
     * @param nicDevices the NET/IB devices the log lists (their link layer, not their speed)
     */
    record Network(int hosts, Integer perHost, String intra, String gpu, List<String> nicDevices) implements Missing {
        public Network {
            nicDevices = List.copyOf(nicDevices);
        }

        public Setting fact() {
            return Setting.NETWORK_BETWEEN_HOSTS;
        }
    }

    /**
     * Across hosts with several GPUs each, the network is known but the fabric inside a host is not (the GPU name
     * gives none).
     */
    record FabricInsideHost(int hosts, NamedInterconnect network, String gpu) implements Missing {
        public Setting fact() {
            return Setting.FABRIC_INSIDE_HOST;
        }
    }
}
