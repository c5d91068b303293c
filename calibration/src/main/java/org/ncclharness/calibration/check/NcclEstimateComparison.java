package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Severity;

/**
 * A sweep's measured times beside NCCL's own estimate of them (ncclGroupSimulateEnd), as a reference curve: per
 * size band (powers of 16 bytes: 64 KiB–1 MiB, 1–16 MiB, ...), the geometric mean of measured out-of-place time over
 * NCCL's estimate. It answers "is NCCL slower here than its own model says" with no model of ours. NCCL's model is
 * coarse (it exists to rank algorithms, not to predict), so the comparison informs, and at most warns: a band from
 * {@link #WARN_FROM_BYTES} up measured more than {@link #WARN_RATIO} times NCCL's estimate is a WARN, never a FAIL.
 * Below that size the time is launch latency, where host-side costs NCCL's model leaves out dominate: INFO only.
 */
public final class NcclEstimateComparison {

    /** Above this measured/estimate ratio a band is worth a look (a WARN). */
    public static final double WARN_RATIO = 3.0;
    /** Where bandwidth, which NCCL's model does know, decides the time. */
    public static final long WARN_FROM_BYTES = 1L << 20;
    public static final String RULE = "nccl-estimate";

    private NcclEstimateComparison() {
    }

    /** One row's measured out-of-place time over NCCL's estimate; NaN where either is missing or zero. */
    public static double ratio(Measurement m, double estimateUs) {
        Double t = m.outOfPlace().timeUs();
        return t == null || t <= 0 || estimateUs <= 0 ? Double.NaN : t / estimateUs;
    }

    /** One finding per size band holding estimated rows, smallest band first; empty without estimates. */
    public static List<Finding> findings(List<Measurement> rows, List<NcclEstimate> estimates) {
        Map<Integer, double[]> bands = new TreeMap<>(); // band → {sum of log ratios, count}
        for (NcclEstimate e : estimates) {
            if (e.row() < 0 || e.row() >= rows.size()) {
                continue;
            }
            Measurement m = rows.get(e.row());
            double r = ratio(m, e.timeUs());
            if (Double.isFinite(r)) {
                double[] acc = bands.computeIfAbsent(band(m.sizeBytes()), k -> new double[2]);
                acc[0] += Math.log(r);
                acc[1]++;
            }
        }
        List<Finding> out = new ArrayList<>();
        bands.forEach((band, acc) -> {
            double ratio = Math.exp(acc[0] / acc[1]);
            long lo = 1L << (4 * band);
            String where = SizeText.exact(lo) + "–" + SizeText.exact(lo << 4);
            Severity s = ratio > WARN_RATIO && lo >= WARN_FROM_BYTES ? Severity.WARN : Severity.INFO;
            out.add(new Finding(s, RULE, lo, String.format(Locale.ROOT, "measured %.2f× NCCL's own estimate at %s"
                    + " (%d size(s), out-of-place; NCCL's estimate is its tuning model's, coarse%s)", ratio, where,
                    (int) acc[1], s == Severity.WARN ? String.format(Locale.ROOT, ": above %.0f× is worth a look",
                            WARN_RATIO) : "")));
        });
        return out;
    }

    /** The band of a size: k where 16^k <= bytes < 16^(k+1). */
    static int band(long bytes) {
        return bytes < 1 ? 0 : (63 - Long.numberOfLeadingZeros(bytes)) / 4;
    }
}
