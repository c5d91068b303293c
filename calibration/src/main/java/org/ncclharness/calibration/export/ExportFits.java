package org.ncclharness.calibration.export;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.ModelChoice;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.fit.Fit;

/**
 * Which fit of a calibration entry an export takes: the picked model where it chooses an algorithm and protocol
 * ({@link ModelPicks}), else the best-scored fit that does (a one-line pick such as method B names no protocol);
 * empty where no fit of the entry chooses one.
 *
 * @param fit    the fit
 * @param picked whether it is the entry's pick (else: the pick chose none, and this was the best that does)
 * @param pick   the name of the entry's pick
 */
record ExportFits(Fit fit, boolean picked, String pick) {

    static Optional<ExportFits> of(CalibrationEntry e) {
        List<Fit> fits;
        String pick;
        if (e instanceof SingleTierCalibration s) {
            fits = s.fits();
            pick = s.best();
        } else if (e instanceof TwoTierCalibration t) {
            fits = t.protocolFits();
            pick = t.choice().picked();
        } else {
            return Optional.empty();
        }
        Optional<Fit> picked = fits.stream().filter(f -> f.name().equals(pick) && choosing(f)).findFirst();
        if (picked.isPresent()) {
            return Optional.of(new ExportFits(picked.get(), true, pick));
        }
        // the rows are at the calibrated scales: not the nearest runs' fit, which predict uses above them
        return fits.stream().filter(f -> choosing(f) && !f.name().equals(NearestConfigurations.MODEL))
                .min(Comparator.comparingDouble(f -> ModelChoice.Family.of(f).scorePct().orElse(Double.MAX_VALUE)))
                .map(f -> new ExportFits(f, false, pick));
    }

    /** The fit the entry's own pick is, where it is a {@link Fit} (not a two-tier form): what predicts its time. */
    static Optional<Fit> pickedFit(CalibrationEntry e) {
        if (e instanceof SingleTierCalibration s) {
            return s.fit(s.best());
        }
        if (e instanceof TwoTierCalibration t) {
            return t.protocolFit(t.choice().picked()).or(() -> of(e).map(ExportFits::fit));
        }
        return Optional.empty();
    }

    private static boolean choosing(Fit f) {
        return ModelPicks.of(f.model(), f.theta()).isPresent();
    }

    /** For the comment above the rows: which fit, and why it and not the pick. */
    String describe() {
        String score = ModelChoice.Family.of(fit).scorePct().isPresent()
                ? String.format(java.util.Locale.ROOT, ", RMSPE %.1f %%", ModelChoice.Family.of(fit).scorePct()
                .getAsDouble()) : "";
        return "fit " + fit.name() + score + (picked ? " (the pick)" : " (the pick, " + pick
                + ", names no algorithm or protocol)");
    }
}
