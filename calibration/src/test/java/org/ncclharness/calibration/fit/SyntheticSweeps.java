package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/** Sweeps generated from a known T(M) = α + f·M/β, rounded the way nccl-tests prints them. */
public final class SyntheticSweeps {

    private SyntheticSweeps() {
    }

    /** nccl-tests' time column: %.2f below 100 µs, %.1f below 10 ms, %.0f above. */
    public static double printedTime(double us) {
        String s = us >= 10000 ? String.format(Locale.ROOT, "%.0f", us)
                : us >= 100 ? String.format(Locale.ROOT, "%.1f", us) : String.format(Locale.ROOT, "%.2f", us);
        return Double.parseDouble(s);
    }

    /** nccl-tests' bandwidth columns: %.2f. */
    public static double printedBw(double gbps) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.2f", gbps));
    }

    /**
     * An out-of-place sweep from {@code minBytes} to {@code maxBytes} by factor 2, times from α + f·M/β; busbw
     * computed from the unrounded time, as nccl-tests does.
     */
    public static Sweep ring(Collective c, Hardware hw, double alphaUs, double betaGBps, long minBytes,
                             long maxBytes) {
        List<Measurement> rows = new ArrayList<>();
        for (long m = minBytes; m <= maxBytes; m *= 2) {
            rows.add(row(c, hw.ranks(), alphaUs, betaGBps, m));
        }
        return new Sweep(Provenance.stored("synthetic"), c, RunInfo.unknown(), hw, List.of(), rows, List.of());
    }

    /** The same model on an additive grid ({@code -i stepBytes}), {@code count} sizes: a sweep of many rows. */
    public static Sweep ringAdditive(Collective c, Hardware hw, double alphaUs, double betaGBps, long stepBytes,
                                     int count) {
        List<Measurement> rows = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            rows.add(row(c, hw.ranks(), alphaUs, betaGBps, i * stepBytes));
        }
        return new Sweep(Provenance.stored("synthetic"), c, RunInfo.unknown(), hw, List.of(), rows, List.of());
    }

    private static Measurement row(Collective c, int n, double alphaUs, double betaGBps, long m) {
        double f = c.busFactor(n);
        double t = alphaUs + f * m / (betaGBps * 1e3);
        double alg = m / (t * 1e3);
        Half h = new Half(printedTime(t), printedBw(alg), printedBw(alg * f), 0.0);
        return new Measurement(m, m / 4, "float", c.reduces() ? "sum" : "none", -1, h, h);
    }

    /** The same sweep with only busbw printed (time and algbw dropped), as the Azure summary tables. */
    public static Sweep busBwOnly(Sweep s) {
        List<Measurement> rows = new ArrayList<>();
        for (Measurement m : s.rows()) {
            Half h = new Half(null, null, m.outOfPlace().busBwGBps(), null);
            rows.add(new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(), Half.empty(), h));
        }
        return s.withRows(rows);
    }

    public static Hardware singleNode(String gpu, int n, String intra) {
        return new Hardware(gpu, n, 1, n, 1, intra, null);
    }
}
