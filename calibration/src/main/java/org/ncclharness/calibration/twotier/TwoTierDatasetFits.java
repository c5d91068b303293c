package org.ncclharness.calibration.twotier;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.measure.Placement;

/**
 * Two-tier fits of bundled datasets: each multi-domain AllReduce dataset alone (with a single-domain prior of the
 * same GPU class where one exists), and each bundled {@link JointGroups} group jointly. Both forms are fitted; the
 * better (leave-one-out where there are enough points) is named.
 */
public final class TwoTierDatasetFits {

    /**
     * One fitted dataset or group.
     *
     * @param label     dataset id, or the joint group's name
     * @param runs      the runs (one per dataset)
     * @param halves    which half each run's times come from
     * @param fabric    the intra-domain fabric used for β_NV and hops
     * @param fits      hierarchical, then flat ring
     * @param better    the form the data support better; empty when they are within 1 % (indistinguishable)
     * @param nicsPerDomain NICs per domain where the metadata gives NICs per host (of the first run)
     * @param nicGBps   one NIC's line rate in GB/s where the metadata gives it
     */
    public record Entry(String label, List<TwoTierRun> runs, List<Placement> halves, Fabric fabric,
                        List<TwoTierFit> fits, Optional<TwoTierForm> better, Integer nicsPerDomain, Double nicGBps) {

        public TwoTierFit fit(TwoTierForm form) {
            return fits.get(form.ordinal());
        }

        public InterDomainBandwidth interDomain(TwoTierForm form) {
            return InterDomainBandwidth.of(fit(form).params().betaIbGBps(), runs.get(0).config(), nicsPerDomain,
                    nicGBps);
        }
    }

    private TwoTierDatasetFits() {
    }

    /** Each multi-domain AllReduce dataset with times and a known fabric, alone. */
    public static List<Entry> single(List<Dataset> all, Function<String, Optional<Fabric>> fabrics) {
        List<Entry> out = new ArrayList<>();
        for (Dataset d : all) {
            DatasetMetadata m = d.metadata();
            if (!m.multiDomain() || !usable(d, fabrics)) {
                continue;
            }
            Fabric f = fabrics.apply(m.intra()).orElseThrow();
            List<Prior> priors = priorFor(m, all, fabrics);
            out.add(entry(m.id(), List.of(d), f, priors));
        }
        return out;
    }

    /** Each bundled joint group ({@link JointGroups#bundled()}) whose members are all present and usable. */
    public static List<Entry> joint(List<Dataset> all, Function<String, Optional<Fabric>> fabrics) {
        List<Entry> out = new ArrayList<>();
        for (JointGroups.Group g : JointGroups.bundled()) {
            List<Dataset> members = g.ids().stream()
                    .map(id -> all.stream().filter(d -> d.id().equals(id)).findFirst())
                    .flatMap(Optional::stream).filter(d -> usable(d, fabrics)).toList();
            if (members.size() == g.ids().size()) {
                Fabric f = fabrics.apply(members.get(0).metadata().intra()).orElseThrow();
                out.add(entry(g.name(), members, f, List.of()));
            }
        }
        return out;
    }

    private static boolean usable(Dataset d, Function<String, Optional<Fabric>> fabrics) {
        DatasetMetadata m = d.metadata();
        return "all_reduce".equals(m.collective()) && m.domains() != null && m.domainSize() != null
                && m.domains() * m.domainSize() >= 2 && m.intra() != null && fabrics.apply(m.intra()).isPresent()
                && d.sweep().rows().stream().anyMatch(r -> r.outOfPlace().hasTime() || r.inPlace().hasTime());
    }

    /** The single-domain dataset of the same GPU model and fabric with the most points, as a prior. */
    private static List<Prior> priorFor(DatasetMetadata m, List<Dataset> all, Function<String, Optional<Fabric>> fabrics) {
        Optional<Dataset> best = all.stream()
                .filter(d -> d.metadata().domains() != null && d.metadata().domains() == 1)
                .filter(d -> usable(d, fabrics) && d.metadata().gpuModel() != null && m.gpuModel() != null)
                .filter(d -> JointGroups.gpuClass(d.metadata().gpuModel()).equals(JointGroups.gpuClass(m.gpuModel()))
                        && d.metadata().intra().equals(m.intra()))
                .max(Comparator.comparingInt((Dataset d) -> d.rows().size())
                        .thenComparing(Dataset::id, Comparator.reverseOrder()));
        if (best.isEmpty()) {
            return List.of();
        }
        Fabric f = fabrics.apply(m.intra()).orElseThrow();
        TwoTierRun run = TwoTierRuns.of(best.get().sweep(), best.get().id()).run();
        return SingleDomainPrior.from(TwoTierProblem.of(run, f.betaNvGBps(), f.hops()), best.get().id());
    }

    private static Entry entry(String label, List<Dataset> members, Fabric f, List<Prior> priors) {
        List<TwoTierRun> runs = new ArrayList<>();
        List<Placement> halves = new ArrayList<>();
        for (Dataset d : members) {
            TwoTierRuns.Extracted x = TwoTierRuns.of(d.sweep(), d.id());
            runs.add(x.run());
            halves.add(x.half());
        }
        TwoTierProblem p = TwoTierProblem.of(runs, f.betaNvGBps(), f.hops());
        ParamRanges box = ParamRanges.defaultsFor(p, 2);
        List<TwoTierFit> fits = TwoTierFitter.fitBoth(p, box, priors);
        DatasetMetadata m0 = members.stream().map(Dataset::metadata).filter(DatasetMetadata::multiDomain)
                .findFirst().orElse(members.get(0).metadata());
        Integer nics = m0.nicsPerHost() == null || m0.hosts() == null || m0.domains() == null
                || m0.hosts() % m0.domains() != 0 ? null : m0.nicsPerHost() * (m0.hosts() / m0.domains());
        Double nicGBps = m0.nicGbps() == null ? null : m0.nicGbps() / 8;
        return new Entry(label, runs, halves, f, fits, TwoTierFitter.better(fits).map(TwoTierFit::form), nics, nicGBps);
    }

    /** A plain-text table: one block per entry, both forms, every parameter with its profile and status. */
    public static String format(List<Entry> entries) {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            sb.append(String.format(Locale.ROOT, "%s%n  configs %s, %d points (%s), %s: beta_NV %.0f GB/s, hops %d;"
                            + " better form: %s%n", e.label(),
                    String.join(",", e.runs().stream().map(r -> r.config().label()).toList()),
                    e.runs().stream().mapToInt(TwoTierRun::points).sum(),
                    String.join(",", e.halves().stream().map(Placement::label).distinct().toList()),
                    e.fabric().name(), e.fabric().betaNvGBps(), e.fabric().hops(),
                    e.better().map(TwoTierForm::id).orElse("indistinguishable (within 1 %)")));
            for (TwoTierFit f : e.fits()) {
                sb.append(String.format(Locale.ROOT, "  %-12s RMSPE %.2f%%%s%s%s%n", f.form().id(), f.rmspePct(),
                        f.looRmspePct().isPresent() ? String.format(Locale.ROOT, " (LOO %.2f%%)",
                                f.looRmspePct().getAsDouble()) : " (LOO: <18 points)",
                        f.bottleneck() == null ? "" : ", bottleneck " + f.bottleneck(),
                        f.priors().isEmpty() ? "" : ", priors from " + f.priors().get(0).source()));
                for (String n : f.notes()) {
                    sb.append("      note: ").append(n).append('\n');
                }
                for (ParamProfile p : f.profiles()) {
                    sb.append(String.format(Locale.ROOT, "      %-8s %10.4g %-5s [%.4g, %.4g] %s%s%n", p.param().id(),
                            p.value(), p.param().unit(), p.lowest(), p.highest(), p.status().id(),
                            p.needsPrior() ? " (by prior)" : ""));
                }
                for (ConfigSummary c : f.configurations()) {
                    sb.append(String.format(Locale.ROOT, "      at %-6s alpha_nv %.3g us, alpha_ib %.3g us, T_sw %.3g us,"
                                    + " latency sum %.4g us, busbw(M->inf) %.4g GB/s%n", c.config().label(), c.alphaNvUs(),
                            c.alphaIbUs(), c.tSwUs(), c.latencySumUs(), c.busBwAsymptoteGBps()));
                }
                InterDomainBandwidth ib = e.interDomain(f.form());
                sb.append(String.format(Locale.ROOT, "      beta_IB (%s) per domain %.4g GB/s, per GPU %.4g GB/s%s%n",
                        f.profile(TwoTierParam.BETA_IB).status().id(), ib.perDomainGBps(), ib.perGpuGBps(), ib.perNicGBps() == null ? ", per NIC: NICs not stated"
                                : String.format(Locale.ROOT, ", per NIC %.4g GB/s (%d NICs/domain)%s", ib.perNicGBps(),
                                ib.nicsPerDomain(), ib.uIb() == null ? "" : String.format(Locale.ROOT,
                                        ", u_IB %.3f of %.4g GB/s", ib.uIb(), ib.nicGBps()))));
            }
        }
        return sb.toString();
    }

    /**
     * One Markdown row per entry, read from the better form (the hierarchical one when the two are
     * indistinguishable); each parameter carries its status: D determined, B bounded, U undetermined, and * when
     * it rests on a prior. Latency sum and busbw are at the entry's first multi-domain configuration.
     */
    public static String markdown(List<Entry> entries) {
        StringBuilder sb = new StringBuilder();
        sb.append("| dataset(s) | d x g | pts | better form | RMSPE hier / flat (LOO) | latency sum us | busbw(inf) GB/s"
                + " | u_NV | beta_IB GB/s/domain | ell_nv us | ell_ib us | T_sw us |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Entry e : entries) {
            TwoTierFit f = e.fit(e.better().orElse(TwoTierForm.HIERARCHICAL));
            ConfigSummary c = f.configurations().stream().filter(x -> x.config().domains() > 1).findFirst()
                    .orElse(f.configurations().get(0));
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s / %s | %.4g | %.4g | %s | %s | %s | %s | %s |%n",
                    e.label(),
                    String.join(", ", e.runs().stream().map(r -> r.config().label()).distinct().toList()),
                    e.runs().stream().mapToInt(TwoTierRun::points).sum(),
                    e.better().map(TwoTierForm::id).orElse("tie"),
                    pct(e.fit(TwoTierForm.HIERARCHICAL)), pct(e.fit(TwoTierForm.FLAT_RING)),
                    c.latencySumUs(), c.busBwAsymptoteGBps(),
                    cell(f, TwoTierParam.U_NV), cell(f, TwoTierParam.BETA_IB), cell(f, TwoTierParam.ELL_NV),
                    cell(f, TwoTierParam.ELL_IB), cell(f, TwoTierParam.T_SW)));
        }
        return sb.toString();
    }

    private static String pct(TwoTierFit f) {
        return String.format(Locale.ROOT, "%.2f%%", f.rmspePct())
                + (f.looRmspePct().isPresent() ? String.format(Locale.ROOT, " (%.2f%%)", f.looRmspePct().getAsDouble())
                : "");
    }

    private static String cell(TwoTierFit f, TwoTierParam q) {
        ParamProfile p = f.profile(q);
        return String.format(Locale.ROOT, "%.3g %s%s", p.value(), p.status().id().substring(0, 1).toUpperCase(Locale.ROOT),
                p.needsPrior() ? "*" : "");
    }
}
