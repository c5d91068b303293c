package org.ncclharness.calibration.nccl;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's default tuner constants for one range of NCCL versions, loaded from {@code nccl/tuning-<v>.json} (NCCL
 * src/graph/tuning.cc of each release). Protocol arrays are [LL, LL128, Simple]; bandwidth-cap arrays are [1 node, 2
 * nodes, ≥ 3 nodes]. The constants only feed the estimate of what NCCL's tuner would predict; they are never fitted.
 */
public record NcclTuning(String version, List<String> appliesTo, String notes, String about, String source,
                         Map<String, double[]> baseLatUs, Map<String, Map<String, double[]>> hwLatUs,
                         LlMaxBw llMaxBwGBps, Map<String, double[]> perChMaxRingLL128BwGBps,
                         Map<String, double[]> perChMaxTreeLL128BwGBps, Map<String, double[]> perChMaxTreeBwGBps,
                         double ringLLBusBwFactor, double ringLL128BusBwFactor,
                         double ringLL128BusBwFactorOneRankPerNode, double treeBusBwFactor,
                         double treeLLBusBwDivisor, double treeLL128BusBwFactorOneNode,
                         double treeLL128BusBwFactorMultiNode, double treeAlgBwFactor,
                         Map<String, Double> ringSimpleMultiNodeLatencyFactor, Map<String, Double> netOverheadUs,
                         double netOverheadSimpleFactor, Map<String, double[]> treeCorrectionFactor) {

    /** The files shipped, by the newest minor version each covers, oldest first. */
    private static final List<String> FILES = List.of("2.18", "2.22", "2.27", "2.30");
    private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+)");

    /** llMaxBws (tuning.cc): one node by GPU class; several nodes by CPU vendor, [2 nodes, ≥ 3]. */
    public record LlMaxBw(Map<String, Double> singleNode, double[] multiNodeIntelOrOther,
                          double[] multiNodeAmdOrMixed) {
    }

    /**
     * The constants for an NCCL version string as datasets state it ({@code 2.26.2+cuda12.8}); a version before
     * the oldest file takes the oldest, after the newest the newest, an unstated one the newest.
     *
     * @return the constants and, when the version was not covered exactly, why these were taken
     */
    public static Selection forVersion(String stated) {
        Matcher m = stated == null ? null : MAJOR_MINOR.matcher(stated);
        if (m == null || !m.find()) {
            return new Selection(load(FILES.get(FILES.size() - 1)), "NCCL version not stated: constants of "
                    + FILES.get(FILES.size() - 1) + " assumed");
        }
        int minor = Integer.parseInt(m.group(2));
        int major = Integer.parseInt(m.group(1));
        for (String f : FILES) {
            int fileMinor = Integer.parseInt(f.substring(f.indexOf('.') + 1));
            if (major < 2 || major == 2 && minor <= fileMinor) {
                String note = major == 2 && minor < 18 ? "NCCL " + stated + " predates the oldest constants stated"
                        + " (2.18): those assumed" : null;
                return new Selection(load(f), note);
            }
        }
        String last = FILES.get(FILES.size() - 1);
        return new Selection(load(last), "NCCL " + stated + " is newer than the newest constants stated (" + last
                + "): those assumed");
    }

    /** Constants chosen for a version, with a note when the choice was not exact (null when it was). */
    public record Selection(NcclTuning tuning, String note) {
    }

    private static final Map<String, NcclTuning> LOADED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The constants of one file, read once. */
    static NcclTuning load(String file) {
        return LOADED.computeIfAbsent(file, NcclTuning::read);
    }

    private static NcclTuning read(String file) {
        return NcclResource.read("/nccl/tuning-" + file + ".json", NcclTuning.class, "NCCL constants");
    }

    /** The treeCorrectionFactor of a protocol at nBytes, 1 outside the table (tuning.cc). */
    public double treeCorrection(String protocol, double bytes) {
        double[] t = treeCorrectionFactor.get(protocol);
        double ratio = bytes / 64;
        if (ratio < 1) {
            return 1.0;
        }
        int idx = 63 - Long.numberOfLeadingZeros((long) ratio);
        return idx < t.length ? t[idx] : 1.0;
    }
}
