package org.ncclharness.calibration.calibrate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.SingleTierModel;

/**
 * The text form of a {@link CalibrationReport}: one row per single-tier dataset (the README's `calibrate` list:
 * interconnect, β_phys, BusBW_peak, u_r, fitted β, ℓ_link, α by methods A and B, the NVLS flag, RMSPE per band per
 * model, the best model), then the deferred datasets with their reason, then per-dataset notes.
 */
public final class CalibrationTable {

    private static final String COLUMNS = " %-14s %4s %7s %8s %6s %7s %7s %8s %8s %-5s %-17s %-17s %-17s %-17s %-17s %s%n";
    private static final String NONE = "-";

    private CalibrationTable() {
    }

    public static void write(PrintWriter out, CalibrationReport report) {
        List<SingleTierCalibration> single = new ArrayList<>();
        List<DeferredCalibration> deferred = new ArrayList<>();
        for (CalibrationEntry e : report.entries()) {
            if (e instanceof SingleTierCalibration s) {
                single.add(s);
            } else if (e instanceof DeferredCalibration d) {
                deferred.add(d);
            }
        }
        if (!single.isEmpty()) {
            legend(out);
            String row = "%-" + idWidth(report) + "s" + COLUMNS;
            out.printf(Locale.ROOT, row, "# dataset", "interconnect", "N", "b_phys", "BusBWpk", "u_r", "b_fit",
                    "l_link", "alpha_A", "alpha_B", "NVLS", "RMSPE A", "RMSPE B", "RMSPE B+beta", "RMSPE naive", "RMSPE envelope",
                    "best (LOO RMSPE)");
            single.forEach(s -> row(out, row, s));
        }
        List<TwoTierCalibration> multi = report.entries().stream().filter(e -> e instanceof TwoTierCalibration)
                .map(e -> (TwoTierCalibration) e).toList();
        if (!multi.isEmpty()) {
            out.println("#");
            TwoTierTable.write(out, multi);
        }
        List<DeferredCalibration> twoTier = deferred.stream()
                .filter(d -> DeferredCalibration.TWO_TIER.equals(d.awaiting())).toList();
        if (!twoTier.isEmpty()) {
            out.println("#");
            out.println("# awaiting the fit across domains (multi-domain runs get no one-line fit):");
            twoTier.forEach(d -> out.printf(Locale.ROOT, "#   %-" + idWidth(report) + "s %s%n", d.dataset().id(),
                    d.reason()));
        }
        List<DeferredCalibration> other = deferred.stream().filter(d -> d.awaiting() == null).toList();
        if (!other.isEmpty()) {
            out.println("#");
            out.println("# not calibrated:");
            other.forEach(d -> out.printf(Locale.ROOT, "#   %-" + idWidth(report) + "s %s%n", d.dataset().id(),
                    d.reason()));
        }
        if (!single.isEmpty()) {
            out.println("#");
            out.println("# notes:");
            single.forEach(s -> notes(out, s));
        }
        out.flush();
    }

    private static int idWidth(CalibrationReport report) {
        // at least "# dataset", the header's first column
        return Math.max("# dataset".length(), report.entries().stream().mapToInt(e -> e.dataset().id().length()).max()
                .orElse(0));
    }

    private static void legend(PrintWriter out) {
        out.println("# single-tier alpha-beta calibration, T(M) = alpha + f*M/beta_eff (README, `calibrate`)");
        out.println("# b_phys, BusBWpk, b_fit in GB/s; l_link, alpha in us; u_r = BusBW_peak/b_phys (seed),"
                + " 0.92 where NVLS on NVSwitch");
        out.println("# models: A = chip-profile alpha + seed beta; B = fitted l_link + seed beta; B+beta = l_link and"
                + " beta fitted jointly; naive = u_r " + "0.95; envelope = min over LL/LL128/Simple (docs/model-accuracy.md)");
        out.println("# RMSPE % in-sample per band <1MiB/1-128MiB/>128MiB ('-': no points in the band; 'n/a':"
                + " model not applicable, see notes)");
    }

    private static void row(PrintWriter out, String format, SingleTierCalibration s) {
        Optional<Fit> a = s.fit(SingleTierCalibrator.METHOD_A);
        Optional<Fit> b = s.fit(SingleTierCalibrator.METHOD_B);
        Optional<Fit> bf = s.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA);
        Optional<Fit> naive = s.fit(SingleTierCalibrator.NAIVE);
        boolean beta = s.identifiability().beta();
        SeedHeadline headline = SeedHeadline.of(s);
        String ur = headline.ur() == null ? NONE : fmt("%.3f", headline.ur());
        String bFit = bf.map(f -> fmt("%.1f", f.theta()[1])).orElse(NONE);
        Optional<Fit> bAlpha = SeedHeadline.methodB(s);
        String ell = headline.linkLatencyUs() == null ? NONE : fmt("%.3f", headline.linkLatencyUs());
        String bestCell = s.best() + " " + fmt("%.1f%%", s.bestScorePct()) + switch (s.bestBasis()) {
            case SingleTierCalibration.BY_LEAVE_ONE_OUT -> "";
            case SingleTierCalibration.BY_GCV -> " GCV";
            default -> " in-sample";
        };
        out.printf(Locale.ROOT, format, s.dataset().id(), s.interconnect(), s.ranks(),
                s.seed().betaPhysGBps() == null ? NONE : fmt("%.1f", s.seed().betaPhysGBps()),
                beta ? fmt("%.2f", s.seed().busBwPeakGBps()) : NONE, ur, bFit, ell,
                a.map(f -> fmt("%.1f", alpha(f))).orElse(NONE),
                bAlpha.map(f -> fmt("%.1f", alpha(f))).orElse(NONE),
                s.inNetworkFlag() == null ? "" : s.inNetworkFlag(),
                bands(a), bands(b), bands(bf), bands(naive), bands(s.fit(SingleTierCalibrator.ENVELOPE)), bestCell);
    }

    /** α of method A's or B's fit: single-tier α-β models both. */
    private static double alpha(Fit f) {
        double[] theta = f.theta();
        return f.model().accept(new OtherwiseVisitor<Double>() {
            @Override
            public Double singleTier(SingleTierModel m) {
                return m.alphaUs(theta);
            }

            @Override
            protected Double otherwise(CostModel m) {
                throw new IllegalStateException("methods A and B fit the single-tier alpha-beta model, not "
                        + m.form());
            }
        });
    }

    private static String bands(Optional<Fit> f) {
        if (f.isEmpty()) {
            return "n/a";
        }
        Rmspe r = f.get().inSample();
        StringBuilder sb = new StringBuilder();
        for (SizeBand band : SizeBand.values()) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(r.band(band).isPresent() ? fmt("%.1f", r.band(band).getAsDouble()) : NONE);
        }
        return sb.toString();
    }

    private static void notes(PrintWriter out, SingleTierCalibration s) {
        List<String> lines = new ArrayList<>();
        lines.add("fit on " + s.placement().label() + (s.timeDerived() ? ", times derived from busbw" : "")
                + "; calibrates " + s.identifiability().label() + " (" + s.identifiability().basis() + ")");
        s.unavailable().forEach((k, v) -> lines.add(k + ": " + v));
        // the line above says which half was fitted
        s.notes().stream().filter(n -> n.kind() != Note.Kind.FITTED_HALF).map(Note::text).forEach(lines::add);
        s.fits().stream().findFirst().ifPresent(f -> lines.addAll(f.marks()));
        s.fit(s.best()).filter(f -> f.leaveOneOutNote() != null).ifPresent(f -> lines.add("leave-one-out "
                + f.leaveOneOutNote()));
        out.printf(Locale.ROOT, "#   %s:%n", s.dataset().id());
        lines.forEach(l -> out.printf(Locale.ROOT, "#     %s%n", l));
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
