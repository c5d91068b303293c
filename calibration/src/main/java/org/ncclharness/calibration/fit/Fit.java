package org.ncclharness.calibration.fit;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.model.CostModel;

/**
 * A fitted model: θ, per-point residuals, and the RMSPE overall and per size band in-sample and leave-one-out.
 *
 * @param name            the estimator's name ({@code B})
 * @param description     how α and β were chosen
 * @param model           the cost model θ belongs to
 * @param theta           the parameters, in {@link CostModel#parameterNames()} order
 * @param freeParameters  the quantities estimated from the data (k = their count)
 * @param residuals       one per point, ascending size
 * @param inSample        RMSPE of the model fitted on all points
 * @param leaveOneOut     RMSPE of each point predicted by the model fitted without it; null when not scored
 * @param leaveOneOutNote why leave-one-out was not scored (too few points for k), or how it was estimated (k-fold
 *                        above {@link Fitter#EXACT_LEAVE_ONE_OUT_MAX} points); null for an exact leave-one-out
 * @param marks           identifiability: what the data does and does not determine
 * @param runs            the runs a joint fit was fitted on, by id, smallest configuration first (what a reader of the
 *                        fit is told, never read back out of {@code description}); empty for a fit on one run's points
 */
public record Fit(String name, String description, CostModel model, double[] theta, List<String> freeParameters,
                  List<Residual> residuals, Rmspe inSample, Rmspe leaveOneOut, String leaveOneOutNote,
                  List<String> marks, List<String> runs) {

    public Fit {
        theta = theta.clone();
        freeParameters = List.copyOf(freeParameters);
        residuals = List.copyOf(residuals);
        marks = List.copyOf(marks);
        runs = List.copyOf(runs);
    }

    @Override
    public double[] theta() {
        return theta.clone();
    }

    /** This fit with its leave-one-out RMSPE and how it was had ({@link Fitter#scored}). */
    Fit withLeaveOneOut(Rmspe loo, String note) {
        return new Fit(name, description, model, theta, freeParameters, residuals, inSample, loo, note, marks, runs);
    }

    /** This fit, its leave-one-out left unscored for {@code why}, though it has the points for one. */
    public Fit leaveOneOutSkipped(String why) {
        return new Fit(name, description, model, theta, freeParameters, residuals, inSample, null, why, marks, runs);
    }

    /**
     * Whether leave-one-out was left unscored though the points allow it: a family that could not win the pick,
     * where only the pick was wanted ({@code Scoring.PICK_ONLY}). Such a fit has no out-of-sample score at all, not
     * even an estimate.
     */
    public boolean leaveOneOutSkipped() {
        return leaveOneOut == null && residuals.size() >= Fitter.leaveOneOutMinimum(freeParameters.size());
    }

    /** θ by name, in model order. */
    public Map<String, Double> parameters() {
        Map<String, Double> m = new LinkedHashMap<>();
        List<String> names = model.parameterNames();
        for (int i = 0; i < names.size(); i++) {
            m.put(names.get(i), theta[i]);
        }
        return m;
    }

    public double timeUs(double bytes) {
        return model.timeUs(bytes, theta);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fit f && name.equals(f.name) && model.equals(f.model) && Arrays.equals(theta, f.theta)
                && residuals.equals(f.residuals);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(theta);
    }
}
