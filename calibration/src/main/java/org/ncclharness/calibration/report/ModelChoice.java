package org.ncclharness.calibration.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Which of the model families fitted to a multi-domain run a prediction should use: the lowest leave-one-out
 * RMSPE (points the fit did not see, so a family with more parameters gains nothing by them), or a family with
 * fewer parameters within {@value #MARGIN_POINTS} point of it. Where no family could be scored so, the
 * caller's {@code fallback}, with its reason.
 *
 * @param picked the family's model name
 * @param basis  one line: why this one
 * @param scores each family's leave-one-out RMSPE in %, absent where not scored; fitting order
 */
public record ModelChoice(String picked, String basis, Map<String, OptionalDouble> scores) {

    public ModelChoice {
        scores = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(scores));
    }

    /**
     * Leave-one-out differences below this many points are within the noise of a 30-size sweep: there the family
     * with fewer free parameters is picked (it has less to get wrong away from the points).
     */
    public static final double MARGIN_POINTS = 1.0;

    /**
     * @param leaveOneOut each family's leave-one-out RMSPE in %, empty where not scored
     * @param freeParameters each family's k
     * @param fallback the family to use where none is scored
     * @param fallbackWhy why that one, for the report line ({@code "the two-tier form with the lower in-sample
     *                    RMSPE"})
     */
    public static ModelChoice of(Map<String, OptionalDouble> leaveOneOut, Map<String, Integer> freeParameters,
                                 String fallback, String fallbackWhy) {
        String best = null;
        double low = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, OptionalDouble> e : leaveOneOut.entrySet()) {
            if (e.getValue().isPresent() && e.getValue().getAsDouble() < low) {
                low = e.getValue().getAsDouble();
                best = e.getKey();
            }
        }
        if (best == null) {
            return new ModelChoice(fallback, "no family has enough points for leave-one-out; " + fallback + ", "
                    + fallbackWhy, leaveOneOut);
        }
        String pick = best;
        for (Map.Entry<String, OptionalDouble> e : leaveOneOut.entrySet()) {
            if (e.getValue().isPresent() && e.getValue().getAsDouble() <= low + MARGIN_POINTS
                    && freeParameters.get(e.getKey()) < freeParameters.get(pick)) {
                pick = e.getKey();
            }
        }
        String basis = pick.equals(best)
                ? String.format(Locale.ROOT, "lowest leave-one-out RMSPE (%.1f %%)", low)
                : String.format(Locale.ROOT, "leave-one-out RMSPE %.1f %%, within %.0f point of the lowest (%s %.1f %%)"
                        + " with fewer parameters (k = %d against %d)", leaveOneOut.get(pick).getAsDouble(),
                        MARGIN_POINTS, best, low, freeParameters.get(pick), freeParameters.get(best));
        return new ModelChoice(pick, basis, leaveOneOut);
    }

    /** {@code algorithms 7.1 %, envelope 9.4 %, hierarchical not scored} for a report line. */
    public String summary() {
        return scores.entrySet().stream().map(e -> e.getKey() + " " + (e.getValue().isPresent()
                ? String.format(Locale.ROOT, "%.1f %%", e.getValue().getAsDouble()) : "not scored"))
                .collect(Collectors.joining(", "));
    }
}
