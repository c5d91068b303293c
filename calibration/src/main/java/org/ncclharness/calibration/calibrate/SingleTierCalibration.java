package org.ncclharness.calibration.calibrate;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.fit.SeedUtilisation;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Placement;

/**
 * The single-tier calibration of one dataset (docs/calibration.md): the hardware facts it was compared with, the seed's
 * utilisation, the in-network-reduction flag, and one {@link Fit} per model, with the best one named.
 *
 * @param interconnect    the interconnect calibrated (vocabulary name)
 * @param topology        the topology its ring steps cross
 * @param hops            hops per step
 * @param chipProfile     the chip profile method A used, null when there is none
 * @param seed            BusBW_peak, u_r, β_eff the seed's way, the above-line-rate test
 * @param inNetworkFlag   {@code NVLS}, {@code SHARP} (or {@code ABOVE-PEAK} on an interconnect with no known
 *                        in-network reduction) when BusBW_peak &gt; β_phys, else null
 * @param placement       the half the fits used
 * @param timeDerived     true when times were derived from busbw
 * @param identifiability what the data determines
 * @param fits            the fitted models, in report order
 * @param unavailable     models not fitted, with the reason ({@code A} → {@code no profile for ...})
 * @param best            the name of the best model
 * @param bestBasis       {@code leave-one-out} or, where no model could be scored so, {@code in-sample}
 * @param notes           what a user should know about this calibration
 */
public record SingleTierCalibration(DatasetInfo dataset, String interconnect, String topology, int hops,
                                    String chipProfile, SeedUtilisation seed, String inNetworkFlag,
                                    Placement placement, boolean timeDerived, Identifiability identifiability,
                                    List<Fit> fits, Map<String, String> unavailable, String best,
                                    String bestBasis, List<Note> notes) implements CalibrationEntry {

    public static final String KIND = "single-tier";
    /** {@code bestBasis}: the pick's score, by leave-one-out. */
    public static final String BY_LEAVE_ONE_OUT = "leave-one-out";
    /** {@code bestBasis}: by generalized cross-validation, in-sample / (1 − k/n): too few points for leave-one-out. */
    public static final String BY_GCV = "generalized cross-validation";
    /** {@code bestBasis}: in-sample, where no family had the points for an out-of-sample score. */
    public static final String BY_IN_SAMPLE = "in-sample";

    public SingleTierCalibration {
        fits = List.copyOf(fits);
        unavailable = Collections.unmodifiableMap(new LinkedHashMap<>(unavailable));
        notes = List.copyOf(notes);
    }

    @Override
    public String kind() {
        return KIND;
    }

    public SingleTierCalibration withNotes(List<Note> n) {
        return new SingleTierCalibration(dataset, interconnect, topology, hops, chipProfile, seed, inNetworkFlag,
                placement, timeDerived, identifiability, fits, unavailable, best, bestBasis, n);
    }

    /** The best model's score in %, as its {@code bestBasis} gives it (NaN where the fit has none). */
    public double bestScorePct() {
        Fit f = fit(best).orElseThrow();
        return switch (bestBasis) {
            case BY_LEAVE_ONE_OUT -> f.leaveOneOut().overallPct().orElse(Double.NaN);
            case BY_GCV -> ModelChoice.Family.of(f).scorePct().orElse(Double.NaN);
            default -> f.inSample().overallPct().orElse(Double.NaN);
        };
    }

    /**
     * The pick as {@link ModelChoice} makes it from these fits (the same rule calibrate used): the model, why, and
     * each family's score.
     */
    public ModelChoice choice() {
        return choose(fits);
    }

    /** The pick among single-tier fits: out-of-sample RMSPE, else the lowest in-sample where none could be scored. */
    static ModelChoice choose(List<Fit> fits) {
        Fit lowestInSample = fits.stream().min(java.util.Comparator.comparingDouble(f -> f.inSample().overallPct()
                .orElse(Double.POSITIVE_INFINITY))).orElseThrow();
        return ModelChoice.of(fits.stream().map(ModelChoice.Family::of).toList(), lowestInSample.name(),
                "the lowest in-sample RMSPE");
    }

    public Optional<Fit> fit(String name) {
        return fits.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    public int ranks() {
        return dataset.hardware().ranks();
    }
}
