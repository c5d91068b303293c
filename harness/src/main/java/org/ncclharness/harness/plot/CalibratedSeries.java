package org.ncclharness.harness.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationEntry;
import org.ncclharness.calibration.report.SingleTierCalibration;

/**
 * A calibrated input as a figure series: its points on the half the fit used, each fit as a {@link ModelCurve},
 * β_phys as the dashed limit and the in-network-reduction flag in the legend. Entries that were not fitted (a
 * multi-domain run awaiting the two-tier fit, too few points) give the points alone.
 */
public final class CalibratedSeries {

    private CalibratedSeries() {
    }

    /**
     * @param models the fits to draw, by name, in this order; empty for all of them
     */
    public static FigureSeries of(Sweep sweep, CalibrationEntry entry, List<String> models) {
        if (!(entry instanceof SingleTierCalibration s)) {
            return FigureSeries.of(sweep);
        }
        List<ModelCurve> curves = new ArrayList<>();
        List<String> names = models.isEmpty() ? s.fits().stream().map(Fit::name).toList() : models;
        for (String name : names) {
            s.fit(name).ifPresent(f -> curves.add(new ModelCurve(name, f::timeUs)));
        }
        FigureSeries series = FigureSeries.of(sweep, s.placement()).withModels(curves);
        if (s.seed().betaPhysGBps() != null) {
            series = series.withLimit(new PhysicalLimit(s.interconnect(), s.seed().betaPhysGBps()));
        }
        return s.inNetworkFlag() == null ? series : series.withFlags(List.of(flagOf(s)));
    }

    /** The legend's mark for a run above line rate: which mechanism, and the numbers that show it. */
    public static String flagOf(SingleTierCalibration s) {
        return String.format(Locale.ROOT, "%s: busbw %.0f GB/s above β_phys %.0f GB/s", s.inNetworkFlag(),
                s.seed().busBwPeakGBps(), s.seed().betaPhysGBps());
    }
}
