package org.ncclharness.calibration.calibrate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.WrongRows;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.fit.twotier.ConfigSummary;
import org.ncclharness.calibration.fit.twotier.Identifiability;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;

/**
 * The short text form of a {@link CalibrationReport}: one row per dataset with the model picked, its score and the
 * two numbers every model has (time as M → 0 and bus bandwidth as M → ∞), under a legend, then for the single-tier
 * runs what the calibration method is about ({@link SingleTierHeadline}: interconnect, u_r, ℓ_link) beside the model picked;
 * at most {@value #WIDTH} columns. {@link CalibrationTable} is the whole detail ({@code calibrate --verbose}).
 */
public final class CalibrationSummary {

    /** The widest line the summary prints (a terminal of 120 columns). */
    public static final int WIDTH = 120;
    /** Ids longer than this go on a line of their own, so the columns stay within {@link #WIDTH}. */
    static final int ID_CHARS = 68;
    private static final String[] HEADER = {"# dataset", "N", "model", "RMSPE%", "alpha_us", "busbw_GBps", "flags"};
    private static final String ROW = " %5s %-12s %6s %8s %10s %s";
    private static final String[] SEED_HEADER = {"# dataset", "interconnect", "u_r", "l_link_us", "model"};
    private static final String SEED_ROW = " %-14s %5s %9s %s";
    private static final String NONE = "-";

    private CalibrationSummary() {
    }

    /**
     * One entry as the summary shows it: the model picked, its score, its time as M -> 0 and its bus bandwidth as
     * M -> inf (null where the data do not determine it), and the flags. The text table and the JSON's
     * {@code summary} are both this.
     *
     * @param ranks N as shown ({@code 32+} for a joint fit's largest run)
     */
    public record Row(String id, String ranks, String model, double scorePct, Double alphaUs, Double busBwGBps,
                      String flags) {
        String[] cells() {
            return new String[] {id, ranks, model, fmt("%.1f", scorePct), alphaUs == null ? NONE : fmt("%.1f", alphaUs),
                busBwGBps == null ? NONE : fmt("%.1f", busBwGBps), flags};
        }
    }

    /** The summary row of an entry that was calibrated; empty for one that was not. */
    public static java.util.Optional<Row> row(CalibrationEntry e) {
        return e instanceof SingleTierCalibration s ? java.util.Optional.of(row(s))
                : e instanceof TwoTierCalibration t ? java.util.Optional.of(row(t)) : java.util.Optional.empty();
    }

    public static void write(PrintWriter out, CalibrationReport report) {
        write(out, report, false);
    }

    /** @param afterDetail the detail was printed above: no line pointing to it */
    public static void write(PrintWriter out, CalibrationReport report, boolean afterDetail) {
        List<String[]> rows = new ArrayList<>();
        List<String[]> seeds = new ArrayList<>();
        List<DeferredCalibration> skipped = new ArrayList<>();
        for (CalibrationEntry e : report.entries()) {
            row(e).ifPresent(r -> rows.add(r.cells()));
            if (e instanceof SingleTierCalibration s) {
                seeds.add(seedCells(s));
            }
            if (e instanceof DeferredCalibration d) {
                skipped.add(d);
            }
        }
        // at least the header's width: a short file name must not split the header line (parsers drop '#' lines)
        int idWidth = Math.min(ID_CHARS, Math.max(HEADER[0].length(), rows.stream().mapToInt(r -> r[0].length()).max()
                .orElse(0)));
        if (!rows.isEmpty()) {
            legend(out);
            line(out, idWidth, HEADER);
            rows.forEach(r -> line(out, idWidth, r));
        }
        report.entries().forEach(e -> nearestLines(e).forEach(out::println));
        if (!seeds.isEmpty()) {
            out.println("# single-tier runs, the seed method (docs/calibration.md): u_r = BusBW_peak / beta_phys of the"
                    + " interconnect");
            out.println("#   (0.92 where busbw passes it on NVSwitch, flag R); l_link_us: method B's latency per hop;"
                    + " model: the pick above");
            seedLine(out, idWidth, SEED_HEADER);
            seeds.forEach(r -> seedLine(out, idWidth, r));
        }
        if (afterDetail) {
            // the detail above listed these under its own "not calibrated"
            skipped.removeIf(d -> d.awaiting() == null);
        }
        if (!skipped.isEmpty()) {
            out.println("# not calibrated:");
            for (DeferredCalibration d : skipped) {
                String one = "#   " + d.dataset().id() + ": " + d.reason();
                out.println(one.length() <= WIDTH ? one : "#   " + d.dataset().id() + ":\n#     " + d.reason());
            }
        }
        if (!afterDetail) {
            out.println("# every model's score per size band, its parameters and the notes: calibrate "
                    + Advice.name(Setting.VERBOSE) + " (or its " + Advice.name(Setting.REPORT_JSON) + ", "
                    + Advice.name(Setting.REPORT_FOLDER) + ")");
        }
        out.flush();
    }

    /**
     * A joint entry's model for predictions above its largest run, where it is not the pick's fit on every run: which
     * runs it was fitted on, and why ({@code TwoTierCalibrator}, the nearest runs).
     */
    static List<String> nearestLines(CalibrationEntry e) {
        if (!(e instanceof TwoTierCalibration t)) {
            return List.of();
        }
        return t.protocolFit(NearestConfigurations.MODEL).map(f -> {
            List<String> lines = new ArrayList<>();
            // scored as the row's pick is, by leave-one-out where it has it
            boolean loo = f.leaveOneOut() != null && f.leaveOneOut().overallPct().isPresent();
            double pct = (loo ? f.leaveOneOut() : f.inSample()).overallPct().orElse(Double.NaN);
            lines.add("# " + t.dataset().id() + " above its largest run: predict uses " + f.name() + " ("
                    + (loo ? "leave-one-out" : "in-sample") + fmt(" RMSPE %.1f %% on its runs), fitted on", pct));
            f.runs().forEach(id -> lines.add("#   " + id));
            lines.add("#   the fewest runs nearest the largest with 2k points: first in docs/model-accuracy.md's"
                    + " cross-scale ranking;");
            lines.add("#   the pick (" + t.choice().picked() + ", on every run): predict " + Advice.name(Setting.ALL_RUNS)
                    + " or " + Advice.with(Setting.MODEL, t.choice().picked()));
            return lines;
        }).orElse(List.of());
    }

    private static void legend(PrintWriter out) {
        out.println("# model picked by leave-one-out RMSPE (each size predicted by a fit without it): RMSPE%, or as"
                + " flags G, I say");
        out.println("# alpha_us: the model's time as M -> 0; busbw_GBps: its bus bandwidth as M -> inf; -: the data"
                + " do not determine it");
        out.println("# models: envelope = min over NCCL's protocols LL/LL128/Simple; A, B, B+beta, naive = one line"
                + " (README, `calibrate`)");
        out.println("#   hierarchical, flat-ring = two tiers (NVLink domain + network); algorithms = Ring/Tree x protocols"
                + " across domains;");
        out.println("#   N: GPUs (joint fit: its largest run, N+)");
        out.println("# flags: G generalized cross-validation, in-sample / (1 - k/n) (too few points for LOO; the pick"
                + " used it),");
        out.println("#   I in-sample score (too few points for LOO: a floor),");
        out.println("#   K LOO by 10-fold cross-validation (>" + Fitter.EXACT_LEAVE_ONE_OUT_MAX + " sizes; every joint"
                + " algorithm fit),");
        out.println("#   R busbw above the line rate (a tree or an in-network reduction: NVLS/SHARP), D times from busbw,");
        out.println("#   U a parameter the data do not determine or the sizes do not reach (not clear of 0 at 95 %, the fit's"
                + " error: -),");
        out.println("#   X busbw above the largest measured by more than the fit's error (extrapolated beyond the sizes),");
        out.println("#   L busbw above the line rate (hardware facts) where no measured size passed it,");
        out.println("#   W rows with #wrong > 0 (the data check failed)");
    }

    private static void line(PrintWriter out, int idWidth, String[] r) {
        print(out, idWidth, r[0], String.format(Locale.ROOT, ROW, r[1], r[2], r[3], r[4], r[5], r[6]));
    }

    private static void seedLine(PrintWriter out, int idWidth, String[] r) {
        print(out, idWidth, r[0], String.format(Locale.ROOT, SEED_ROW, r[1], r[2], r[3], r[4]));
    }

    /** An id longer than the column goes on a line of its own, the cells under it, so no line passes WIDTH. */
    private static void print(PrintWriter out, int idWidth, String id, String cells) {
        String rest = cells.stripTrailing();
        if (id.length() > idWidth) {
            out.println(id);
            out.println(" ".repeat(idWidth) + rest);
        } else {
            out.println(String.format(Locale.ROOT, "%-" + idWidth + "s", id) + rest);
        }
    }

    private static String[] seedCells(SingleTierCalibration s) {
        SingleTierHeadline h = SingleTierHeadline.of(s);
        return new String[] {s.dataset().id(), s.interconnect(), h.ur() == null ? NONE : fmt("%.3f", h.ur()),
            h.ellLinkUs() == null ? NONE : fmt("%.3f", h.ellLinkUs()), s.best()};
    }

    private static Row row(SingleTierCalibration s) {
        Fit best = s.fit(s.best()).orElseThrow();
        boolean loo = SingleTierCalibration.BY_LEAVE_ONE_OUT.equals(s.bestBasis());
        boolean gcv = SingleTierCalibration.BY_GCV.equals(s.bestBasis());
        double pct = s.bestScorePct();
        StringBuilder flags = new StringBuilder();
        flag(flags, gcv, 'G');
        flag(flags, !loo && !gcv, 'I');
        flag(flags, loo && best.leaveOneOutNote() != null, 'K');
        flag(flags, s.inNetworkFlag() != null, 'R');
        flag(flags, s.timeDerived(), 'D');
        // Both single-tier families name the bandwidth term β_eff; the time at 0 bytes is α (the envelope: min α_p).
        Double beta = best.parameters().get(SingleTierModel.BETA);
        double[] sizes = best.residuals().stream().mapToDouble(Residual::bytes).toArray();
        SummaryBounds bounds = SummaryBounds.of(s.identifiability(), best::timeUs, sizes, pct, beta,
                largestMeasuredBusBw(s, best), s.inNetworkFlag() == null ? s.seed().betaPhysGBps() : null);
        boolean alpha = bounds.alphaReached();
        boolean busBw = beta != null && bounds.busBwReached();
        flag(flags, !alpha || !bounds.busBwReached(), 'U');
        flag(flags, busBw && bounds.aboveMeasured(), 'X');
        flag(flags, busBw && bounds.aboveLineRate(), 'L');
        flag(flags, WrongRows.noted(s.notes()), 'W');
        return new Row(s.dataset().id(), String.valueOf(s.ranks()), s.best(), pct, alpha ? best.timeUs(0) : null,
                busBw ? beta : null, flags.toString());
    }

    private static Row row(TwoTierCalibration t) {
        Optional<Fit> picked = t.protocolFit(t.choice().picked());
        if (picked.isPresent()) {
            return row(t, picked.get());
        }
        // the pick names the form when it is one (the JSON's best and predict use it); best() where it names none;
        // an entry without forms (not AllReduce) always picks a protocol-aware family, above
        TwoTierFit best = TwoTierForm.byId(t.choice().picked()).flatMap(t::fit).or(t::best).orElseThrow();
        // The largest scale is what the model is used for; a joint entry spans several, the row shows the largest.
        ConfigSummary at = best.configurations().stream()
                .max((a, b) -> Integer.compare(a.config().ranks(), b.config().ranks())).orElseThrow();
        StringBuilder flags = new StringBuilder();
        flag(flags, best.looRmspePct().isEmpty(), 'I');
        flag(flags, best.looRmspePct().isPresent() && t.runs().stream().mapToInt(TwoTierRun::points).sum()
                > Fitter.EXACT_LEAVE_ONE_OUT_MAX, 'K');
        flag(flags, t.busBwAboveNetworkLineRateGBps().isPresent(), 'R');
        flag(flags, t.timeDerived(), 'D');
        SummaryBounds bounds = SummaryBounds.of(t, best, at);
        flag(flags, best.profiles().stream().anyMatch(p -> p.status() == Identifiability.UNDETERMINED)
                || !bounds.alphaReached() || !bounds.busBwReached(), 'U');
        flag(flags, bounds.aboveMeasured(), 'X');
        flag(flags, bounds.aboveLineRate(), 'L');
        flag(flags, WrongRows.noted(t.notes()), 'W');
        String n = String.valueOf(at.config().ranks()) + (TwoTierCalibration.JOINT.equals(t.kind()) ? "+" : "");
        return new Row(t.dataset().id(), n, best.form().id(), best.comparisonPct(),
                bounds.alphaReached() ? at.latencySumUs() : null,
                bounds.busBwReached() ? at.busBwAsymptoteGBps() : null, flags.toString());
    }

    /** A protocol-aware family picked for a multi-domain entry: its score, time at 0 bytes, busbw at 1 PB. */
    private static Row row(TwoTierCalibration t, Fit f) {
        boolean loo = f.leaveOneOut() != null;
        // where the pick compared this family by its GCV estimate, the row shows that score, not the in-sample floor
        Double gcv = loo ? null : t.choice().estimates().get(f.name());
        StringBuilder flags = new StringBuilder();
        flag(flags, gcv != null, 'G');
        flag(flags, !loo && gcv == null, 'I');
        flag(flags, loo && f.leaveOneOutNote() != null, 'K');
        flag(flags, t.busBwAboveNetworkLineRateGBps().isPresent(), 'R');
        flag(flags, t.timeDerived(), 'D');
        // as for the two-tier forms, the row shows the largest configuration (a joint θ holds at every one)
        TwoTierRun run = t.runs().stream().max(Comparator.comparingInt(r -> r.config().ranks())).orElseThrow();
        CostModel m = f.model().at(Scale.of(run.config()));
        int ranks = m.ranks();
        double far = 1e15;
        double busBw = t.collective().busBwGBps(far, m.timeUs(far, f.theta()), ranks);
        double largest = f.residuals().stream().mapToDouble(Residual::bytes).max().orElse(0);
        // a bandwidth beyond the network's line rate that no measured size reached is the fit's, not the run's
        Double line = t.busBwCeilingGBps();
        double pct = gcv != null ? gcv : (loo ? f.leaveOneOut() : f.inSample()).overallPct().orElse(Double.NaN);
        double[] sizes = f.residuals().stream().mapToDouble(Residual::bytes).toArray();
        SummaryBounds bounds = SummaryBounds.of(SummaryBounds.reach(t, run), b -> m.timeUs(b, f.theta()), sizes, pct,
                busBw,
                SummaryBounds.largestMeasuredBusBw(t), null);
        boolean seen = sameSlope(m, f.theta(), largest, far) && (line == null || busBw <= line
                || t.busBwAboveNetworkLineRateGBps().isPresent()) && bounds.busBwReached();
        flag(flags, !seen || !bounds.alphaReached(), 'U');
        flag(flags, seen && bounds.aboveMeasured(), 'X');
        flag(flags, WrongRows.noted(t.notes()), 'W');
        String n = ranks + (TwoTierCalibration.JOINT.equals(t.kind()) ? "+" : "");
        return new Row(t.dataset().id(), n, f.name(), pct, bounds.alphaReached() ? m.timeUs(0, f.theta()) : null,
                seen ? busBw : null, flags.toString());
    }

    /**
     * Whether the piece of a min-over-pieces model (protocols, algorithms) that gives its bandwidth far out is the
     * piece it takes at the largest measured size: if another piece takes over beyond the data, its bandwidth
     * was never measured (a fit on 8 MiB-8 GiB gave 60,000 GB/s at 1 PB so) and the row says "-" instead.
     */
    private static boolean sameSlope(CostModel m, double[] theta, double largestBytes, double farBytes) {
        if (largestBytes <= 0) {
            return false;
        }
        double atData = (m.timeUs(largestBytes * 1.001, theta) - m.timeUs(largestBytes, theta)) / (largestBytes * 1e-3);
        double atFar = (m.timeUs(farBytes * 2, theta) - m.timeUs(farBytes, theta)) / farBytes;
        return Math.abs(atFar - atData) <= 1e-6 * Math.abs(atData);
    }

    /** The highest busbw among the sizes fitted (the measured times). */
    private static double largestMeasuredBusBw(SingleTierCalibration s, Fit best) {
        Collective c = Collective.byName(s.dataset().collective()).orElseThrow();
        return best.residuals().stream().mapToDouble(r -> c.busBwGBps(r.bytes(), r.measuredUs(), s.ranks())).max()
                .orElse(0);
    }

    private static void flag(StringBuilder flags, boolean on, char c) {
        if (on) {
            flags.append(c);
        }
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
