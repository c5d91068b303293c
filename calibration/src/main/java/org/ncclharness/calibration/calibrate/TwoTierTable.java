package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.envelope.AlgorithmChoices;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.fit.twotier.ConfigSummary;
import org.ncclharness.calibration.fit.twotier.GridResult;
import org.ncclharness.calibration.fit.twotier.InterDomainBandwidth;
import org.ncclharness.calibration.fit.twotier.ParamProfile;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;

/**
 * The text form of two-tier calibrations: per dataset (or joint group) one block, both forms, each parameter with
 * its value, its 1 % profile and its identifiability mark, α_nv and α_ib at every configuration beside ℓ_nv and
 * ℓ_ib, and β_IB per domain, per GPU and per NIC. {@link #markdown} gives one row per entry for documents.
 */
public final class TwoTierTable {

    private TwoTierTable() {
    }

    public static void write(PrintWriter out, List<TwoTierCalibration> entries) {
        if (entries.stream().allMatch(e -> e.fits().isEmpty())) {
            // the forms are AllReduce's: their formulas would describe nothing below
            out.println("# multi-domain calibration (NVLink domain + inter-domain fabric): the protocol-aware families");
        } else {
            out.println("# two-tier calibration (NVLink domain + inter-domain fabric), both forms, exact least-squares"
                    + " fit");
            out.println("#   hierarchical: T = T_sw + a_nv + a_ib + (2(g-1)/g) M/(u_NV b_NV) + (2(d-1)/d) M/b_IB");
            out.println("#   flat-ring:    T = T_sw + a_nv + a_ib + (2(N-1)/N) M/min(u_NV b_NV, b_IB)");
            out.println("#   a_nv = 2(g-1) hops l_nv, a_ib = 2(d-1) l_ib; each parameter: value [range within 1% of the"
                    + " best RMSPE] mark");
        }
        for (TwoTierCalibration e : entries) {
            block(out, e);
        }
        out.flush();
    }

    private static void block(PrintWriter out, TwoTierCalibration e) {
        out.printf(Locale.ROOT, "# %s (%s): %s, %d points (%s); %s b_NV %.0f GB/s, hops %d; inter %s; better form: %s%n",
                e.dataset().id(), e.kind(), String.join(",", e.runs().stream().map(r -> r.config().label()).toList()),
                e.runs().stream().mapToInt(TwoTierRun::points).sum(),
                String.join(",", e.halves().stream().map(h -> h.label()).distinct().toList()),
                e.fabric().name(), e.fabric().betaNvGBps(), e.fabric().hops(), e.inter() == null ? "(not stated)" : e.inter(),
                e.fits().isEmpty() ? "none fitted (" + TwoTierCalibrator.formsAbsent(e.collective()).orElse("") + ")"
                        : e.better().map(TwoTierForm::id).orElse("indistinguishable (within 1%)"));
        for (TwoTierFit f : e.fits()) {
            out.printf(Locale.ROOT, "#   %-12s RMSPE %s in-sample per band <1MiB/1-128MiB/>128MiB %s%s%s%n", f.form().id(),
                    pct(f.rmspe().overallPct().orElse(Double.NaN)), bands(f.rmspe()),
                    f.looRmspePct().isPresent() ? ", leave-one-out " + pct(f.looRmspePct().getAsDouble())
                            : ", leave-one-out: fewer than 18 points",
                    f.bottleneck() == null ? "" : ", bottleneck " + f.bottleneck());
            for (ParamProfile p : f.profiles()) {
                out.printf(Locale.ROOT, "#     %-8s %10.4g %-5s [%.4g, %.4g] %s%s%n", p.param().id(), p.value(),
                        p.param().unit(), p.lowest(), p.highest(), p.status().id(), p.needsPrior() ? " (by prior)" : "");
            }
            for (ConfigSummary c : f.configurations()) {
                // the two limits as the summary shows them: a number only where the sizes reach it
                SummaryBounds reached = SummaryBounds.of(e, f, c);
                out.printf(Locale.ROOT, "#     at %-6s a_nv %.4g us, a_ib %.4g us, T_sw %.4g us: latency sum %s,"
                                + " busbw(M->inf) %s%n", c.config().label(), c.alphaNvUs(), c.alphaIbUs(),
                        c.tSwUs(), limit(reached.alphaReached(), c.latencySumUs(), "us"),
                        limit(reached.busBwReached(), c.busBwAsymptoteGBps(), "GB/s"));
            }
            InterDomainBandwidth ib = e.interDomain(f);
            out.printf(Locale.ROOT, "#     b_IB (%s): per domain %.4g GB/s, per GPU %.4g GB/s, %s%n",
                    f.profile(TwoTierParam.BETA_IB).status().id(), ib.perDomainGBps(), ib.perGpuGBps(),
                    ib.perNicGBps() == null ? "per NIC: NICs per host not stated (pass "
                            + Advice.usage(Setting.NICS_PER_HOST) + ")"
                            : String.format(Locale.ROOT, "per NIC %.4g GB/s (%d NICs per domain)%s", ib.perNicGBps(),
                            ib.nicsPerDomain(), ib.uIb() == null ? "" : String.format(Locale.ROOT,
                                    ", u_IB %.3f of %.4g GB/s", ib.uIb(), ib.nicGBps())));
            f.notes().forEach(n -> out.printf(Locale.ROOT, "#     note: %s%n", n));
        }
        for (Fit f : e.protocolFits()) {
            out.printf(Locale.ROOT, "#   %-12s RMSPE %s in-sample per band <1MiB/1-128MiB/>128MiB %s, leave-one-out %s%n",
                    f.name(), pct(f.inSample().overallPct().orElse(Double.NaN)), bands(f.inSample()),
                    f.leaveOneOut() == null ? "not scored" : pct(f.leaveOneOut().overallPct().orElse(Double.NaN)));
            // the parameters fitted; one that does not enter (LL128 of a point-to-point collective) is no estimate
            out.printf(Locale.ROOT, "#     %s%n", String.join(", ", f.parameters().entrySet().stream()
                    .filter(p -> f.freeParameters().contains(p.getKey()))
                    .map(p -> String.format(Locale.ROOT, "%s %.4g", p.getKey(), p.getValue())).toList()));
            AlgorithmChoices.of(f.model(), f.theta(), e.runs().get(0).bytes())
                    .ifPresent(picks -> out.printf(Locale.ROOT, "#     picks %s%n", picks));
        }
        out.printf(Locale.ROOT, "#   model choice: %s (%s); out-of-sample: %s%n", e.choice().picked(),
                e.choice().basis(), e.choice().summary());
        grids(out, e);
        e.notes().forEach(n -> out.printf(Locale.ROOT, "#   note: %s%n", n.text()));
    }

    /**
     * {@code calibrate --grid}: the box, then per form the grid's best combination and RMSPE beside the exact
     * optimum of the same box and objective, and what the search cost.
     */
    private static void grids(PrintWriter out, TwoTierCalibration e) {
        if (e.grids().isEmpty()) {
            return;
        }
        ParamRanges box = e.grids().get(0).box();
        StringBuilder axes = new StringBuilder();
        for (TwoTierParam q : TwoTierParam.values()) {
            ParamRange r = box.get(q);
            axes.append(axes.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s [%.4g, %.4g] x%d",
                    q.id(), r.min(), r.max(), r.points()));
        }
        out.printf(Locale.ROOT, "#   grid search (reference method: every combination scored by overall RMSPE, no priors):"
                + " %s = %d combinations%n", axes, box.combinations());
        for (GridFit g : e.grids()) {
            GridResult r = g.grid();
            TwoTierParams b = r.best();
            out.printf(Locale.ROOT, "#     %-17s RMSPE %s (exact fit on this box %s): u_NV %.4g, b_IB %.4g GB/s,"
                            + " l_nv %.4g us, l_ib %.4g us, T_sw %.4g us; %.3f s, %.3g evals/s on %d threads%n",
                    g.modelName(), pct(r.rmspePct()), pct(g.exactOnBox().rmspePct()), b.uNv(), b.betaIbGBps(),
                    b.ellNvUs(), b.ellIbUs(), b.tSwUs(), r.seconds(), r.evaluationsPerSecond(), r.threads());
        }
        if (e.fits().stream().anyMatch(f -> !f.priors().isEmpty())) {
            out.println("#     note: the fits above rest on priors; the grid and the exact optimum beside it score the data"
                    + " alone, so their RMSPE can be lower");
        }
    }

    /**
     * One Markdown row per entry with its two-tier forms (AllReduce), read from the better form (the lower score on
     * a tie); each parameter carries its mark: D determined, B bounded, U undetermined, F fixed, and * where it rests
     * on a prior. Latency sum and busbw are at the entry's first multi-domain configuration, {@code -} where the
     * sizes do not reach them (the summary's rule).
     */
    public static String markdown(List<TwoTierCalibration> entries) {
        StringBuilder sb = new StringBuilder();
        sb.append("| dataset | d x g | pts | better form | RMSPE hier / flat (LOO) | latency sum us | busbw(inf) GB/s"
                + " | u_NV | beta_IB GB/s/domain | ell_nv us | ell_ib us | T_sw us |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (TwoTierCalibration e : entries.stream().filter(x -> x.best().isPresent()).toList()) {
            TwoTierFit f = e.best().orElseThrow();
            ConfigSummary c = f.configurations().stream().filter(x -> x.config().domains() > 1).findFirst()
                    .orElse(f.configurations().get(0));
            SummaryBounds reached = SummaryBounds.of(e, f, c);
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    e.dataset().id(),
                    String.join(", ", e.runs().stream().map(r -> r.config().label()).distinct().toList()),
                    e.runs().stream().mapToInt(TwoTierRun::points).sum(),
                    e.better().map(TwoTierForm::id).orElse("tie"),
                    score(e.fit(TwoTierForm.HIERARCHICAL).orElseThrow()),
                    score(e.fit(TwoTierForm.FLAT_RING).orElseThrow()),
                    reached.alphaReached() ? String.format(Locale.ROOT, "%.4g", c.latencySumUs()) : "-",
                    reached.busBwReached() ? String.format(Locale.ROOT, "%.4g", c.busBwAsymptoteGBps()) : "-",
                    cell(f, TwoTierParam.U_NV), cell(f, TwoTierParam.BETA_IB), cell(f, TwoTierParam.ELL_NV),
                    cell(f, TwoTierParam.ELL_IB), cell(f, TwoTierParam.T_SW)));
        }
        return sb.toString();
    }

    /**
     * {@code java -cp harness.jar org.ncclharness.calibration.calibrate.TwoTierTable [--joint]}: the Markdown table of
     * every bundled multi-domain dataset fitted alone (the same fits {@code calibrate} prints), or of the bundled
     * joint groups, for the documentation.
     */
    public static void main(String[] args) {
        List<CalibrationInput> inputs = DatasetCatalog.bundled().all().stream()
                .map(d -> new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags())).toList();
        TwoTierCalibrator two = new TwoTierCalibrator(HardwareFacts.bundled());
        List<TwoTierCalibration> entries = args.length > 0 && args[0].equals("--joint") ? two.bundledJoint(inputs)
                : inputs.stream().filter(in -> SingleTierCalibrator.multiDomain(in.info().hardware())
                        && !in.flags().contains("mixed-configurations"))
                        .map(in -> two.calibrate(in, inputs)).filter(e -> e instanceof TwoTierCalibration)
                        .map(e -> (TwoTierCalibration) e).toList();
        System.out.print(markdown(entries));
    }

    private static String score(TwoTierFit f) {
        return pct(f.rmspePct()) + (f.looRmspePct().isPresent() ? " (" + pct(f.looRmspePct().getAsDouble()) + ")" : "");
    }

    private static String cell(TwoTierFit f, TwoTierParam q) {
        ParamProfile p = f.profile(q);
        return String.format(Locale.ROOT, "%.3g %s%s", p.value(), p.status().id().substring(0, 1).toUpperCase(Locale.ROOT),
                p.needsPrior() ? "*" : "");
    }

    /** A limit as the summary shows it: {@code -} where the sizes do not reach it. */
    private static String limit(boolean reached, double value, String unit) {
        return reached ? String.format(Locale.ROOT, "%.4g %s", value, unit) : "- (not reached by the sizes)";
    }

    private static String bands(Rmspe r) {
        StringBuilder sb = new StringBuilder();
        for (SizeBand b : SizeBand.values()) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(r.band(b).isPresent() ? String.format(Locale.ROOT, "%.1f", r.band(b).getAsDouble()) : "-");
        }
        return sb.toString();
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.2f%%", v);
    }
}
