package org.ncclharness.calibration.check;

import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Comparability;

/**
 * The collective and hardware a run's healthy range is learned for and looked up by ({@link HealthyRanges}): the
 * collective, GPU family, the fabric inside a host, the network between hosts, NICs per host and a scale band. The
 * collective is part of the class because its busbw and small-size time mean different things per collective (an
 * AllToAll's busbw factor and its N-1 sends per rank are not an AllReduce's ring or tree), so one collective's runs
 * never set another's floor or ceiling. A fact not stated is {@value #UNKNOWN}: runs that do not state it share a
 * class only with each other.
 *
 * @param collective  NCCL's name of the collective (AllReduce, AllToAll, ...); {@value #UNKNOWN} where undecided
 * @param family      the chip family ({@link Comparability#gpuFamily}: H100, GH200, MI300X, ...)
 * @param intra       the fabric inside a host (NVLink4, PCIe4, ...)
 * @param network     the network between hosts; {@value #NONE} on one host
 * @param nicsPerHost the network's NICs per host; {@value #NONE} on one host
 * @param band        how many hosts
 */
public record HardwareClass(String collective, String family, String intra, String network, String nicsPerHost, Band band) {

    public static final String UNKNOWN = "?";
    public static final String NONE = "-";

    /**
     * Host-count bands. One host is bound by the fabric inside it, two hosts by one crossing of the network per
     * ring (the usual pair test). From three hosts on a ring crosses the network several times and NCCL's tuner
     * moves AllReduce to Tree/NVLS-Tree at small sizes, and above 16 hosts the latency at small sizes grows with
     * the ring's length and the tree's depth by a factor (the bundled Slingshot series: 16 µs at 2 hosts, 60 µs
     * at 512): the bands keep runs whose small-size times and busbw share a bound together.
     */
    public enum Band {
        ONE_HOST("1 host"), TWO_HOSTS("2 hosts"), UP_TO_16_HOSTS("3-16 hosts"), MORE_HOSTS("17+ hosts"),
        UNSTATED("hosts ?");

        private final String label;

        Band(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Band of(Integer hosts) {
            if (hosts == null || hosts < 1) {
                return UNSTATED;
            }
            return hosts == 1 ? ONE_HOST : hosts == 2 ? TWO_HOSTS : hosts <= 16 ? UP_TO_16_HOSTS : MORE_HOSTS;
        }
    }

    /** The class of a resolved run, with the NICs it states. */
    public static HardwareClass of(Sweep run, Nics nics) {
        Hardware hw = run.hardware() == null ? Hardware.unknown() : run.hardware();
        Band band = Band.of(hw.hosts());
        boolean oneHost = band == Band.ONE_HOST;
        Integer perHost = nics == null ? null : nics.perHost();
        String collective = run.collective() == null || !run.collective().known() ? UNKNOWN
                : run.collective().ncclName();
        return new HardwareClass(collective, Comparability.gpuFamily(hw.gpuModel()).orElse(UNKNOWN), or(hw.intra()),
                oneHost ? NONE : or(hw.inter()), oneHost ? NONE : perHost == null ? UNKNOWN : perHost.toString(),
                band);
    }

    /** {@code AllReduce / H100 / NVLink4 / IB-NDR x8 / 2 hosts}: the class as the data file and the reports name it. */
    public String key() {
        return collective + " / " + family + " / " + intra + " / " + (network.equals(NONE) ? "no network" : network + " x" + nicsPerHost)
                + " / " + band.label();
    }

    /**
     * {@code AllReduce / H100}: every class of this collective on this GPU family, the range a class of too few
     * runs gives way to; null where the collective or the family is not known (nothing to share a range with).
     */
    public String familyKey() {
        return collective.equals(UNKNOWN) || family.equals(UNKNOWN) ? null : collective + " / " + family;
    }

    private static String or(String s) {
        return s == null || s.isBlank() ? UNKNOWN : s;
    }
}
