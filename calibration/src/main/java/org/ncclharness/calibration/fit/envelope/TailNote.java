package org.ncclharness.calibration.fit.envelope;

import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.TailBandwidth;

/**
 * The reader's line for an envelope fit whose bandwidth is the sweep's end ({@link TailBandwidth}): where it came
 * from and what it means beyond the sweep. Said only where the fit took it (the algorithm that carries the largest
 * size moves data at that rate); a fit that fell back to fitting β with the rest gets no line.
 */
public final class TailNote {

    private TailNote() {
    }

    public static Optional<String> of(Fit fit, FitPoints points) {
        double top = points.bytes()[points.largest()];
        double[] theta = fit.theta();
        Optional<Carrier> carrier = Carrier.of(fit.model(), top, theta);
        if (carrier.isEmpty()) {
            return Optional.empty();
        }
        double f = fit.model().collective().busFactor(fit.model().ranks());
        return TailBandwidth.of(points, f).filter(t -> t.heldAt(carrier.get().busBwGBps()))
                .map(t -> String.format(Locale.ROOT, "%s: bandwidth from the sweep's end, the alpha-beta line through"
                        + " %s: %.4g GB/s bus on %s, so sizes beyond the sweep grow at the rate its end reached",
                        fit.name(), t.range(), t.busBwGBps(), carrier.get().label()));
    }
}
