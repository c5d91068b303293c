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
        SingleTierHeadline h = SingleTierHeadline.of(s);
        String bestCell = s.best() + " " + fmt("%.1f%%", s.bestScorePct()) + switch (s.bestBasis()) {
            case SingleTierCalibration.BY_LEAVE_ONE_OUT -> "";
            case SingleTierCalibration.BY_GCV -> " GCV";
            default -> " in-sample";
        };
        out.printf(Locale.ROOT, format, s.dataset().id(), s.interconnect(), s.ranks(), cell("%.1f", h.betaPhysGBps()),
                cell("%.2f", h.busBwPeakGBps()), cell("%.3f", h.ur()), cell("%.1f", h.betaFitGBps()),
                cell("%.3f", h.ellLinkUs()), cell("%.1f", h.alphaAUs()), cell("%.1f", h.alphaBUs()),
                s.inNetworkFlag() == null ? "" : s.inNetworkFlag(),
                bands(s.fit(SingleTierCalibrator.METHOD_A)), bands(s.fit(SingleTierCalibrator.METHOD_B)),
                bands(s.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA)), bands(s.fit(SingleTierCalibrator.NAIVE)),
                bands(s.fit(SingleTierCalibrator.ENVELOPE)), bestCell);
    }

    private static String cell(String format, Double v) {
        return v == null ? NONE : fmt(format, v);
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
