package org.ncclharness.calibration.fit;

import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Root-mean-square percentage error, overall and per size band:
 * {@code sqrt(mean(((T_pred − T_meas) / T_meas)²)) × 100}. A band with no points has no value (empty), never 0.
 *
 * @param overallPct RMSPE over all points, empty when there are none
 * @param bandPct    RMSPE per band; a band with no points is absent
 * @param points     number of points scored
 */
public record Rmspe(OptionalDouble overallPct, Map<SizeBand, Double> bandPct, int points) {

    /** Scores predictions against measurements at the given sizes. Arrays are read, never kept. */
    public static Rmspe of(double[] bytes, double[] measuredUs, double[] predictedUs) {
        double sum = 0;
        int n = 0;
        EnumMap<SizeBand, double[]> bands = new EnumMap<>(SizeBand.class);
        for (int i = 0; i < bytes.length; i++) {
            double rel = (predictedUs[i] - measuredUs[i]) / measuredUs[i];
            double sq = rel * rel;
            sum += sq;
            n++;
            double[] acc = bands.computeIfAbsent(SizeBand.of(bytes[i]), b -> new double[2]);
            acc[0] += sq;
            acc[1]++;
        }
        EnumMap<SizeBand, Double> out = new EnumMap<>(SizeBand.class);
        bands.forEach((band, acc) -> out.put(band, Math.sqrt(acc[0] / acc[1]) * 100));
        return new Rmspe(n == 0 ? OptionalDouble.empty() : OptionalDouble.of(Math.sqrt(sum / n) * 100),
                Map.copyOf(out), n);
    }

    /** The value for a band, empty when the band has no points. */
    public OptionalDouble band(SizeBand band) {
        Double v = bandPct.get(band);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
