package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.SummaryBounds;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.fit.twotier.ConfigSummary;
import org.ncclharness.calibration.fit.twotier.Identifiability;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;

/**
 * A calibration entry as the tiers of a network that the simulators' inputs describe: per tier its ranks, its bus
 * bandwidth and its latency per ring step, each null where the fit does not determine it.
 *
 * <ul>
 *   <li>A single-tier entry: one tier of every rank, the busbw and α of its summary row (where the row shows
 *       {@code -}, null), α spread over the ring's steps (2(N−1) for AllReduce, N−1 for AllGather and
 *       ReduceScatter; another collective has no ring step, so no per-step latency).</li>
 *   <li>A multi-domain AllReduce entry: the hierarchical two-tier form, whose terms are the simulators' dimensions
 *       (a ring within each domain at u_NV·β_NV with 2(g−1) steps of hops·ℓ_nv, then one across domains at β_IB per
 *       domain with 2(d−1) steps of ℓ_ib), at the entry's largest configuration; a parameter whose profile says
 *       undetermined is null, and so is every latency where the sizes do not reach α and every bandwidth where
 *       they do not reach the busbw (the summary's rule, {@link SummaryBounds}). Its T_sw, a fixed time per
 *       operation, is no tier's and is listed in {@link #leftOut}. A multi-domain entry of another collective has
 *       no two-tier form (one bandwidth for both tiers): no tiers, and {@link #refused} says so.</li>
 * </ul>
 * The whole run's busbw (the summary row's, what nccl-tests would print for the largest size) comes with either.
 *
 * @param id           the entry
 * @param collective   its collective
 * @param source       which fit, in words (for the comment above the values)
 * @param tiers        within a domain first; empty where {@link #refused}
 * @param runBusBwGBps the summary row's busbw at {@link #runRanks}, null where it shows {@code -}
 * @param runSource    the summary row's model, score and flags, in words
 * @param runRanks     the ranks of the configuration the values hold at
 * @param hosts        the hosts of that configuration, null where the metadata states none
 * @param leftOut      terms of the fit that no tier carries, in words
 * @param refused      why there are no tiers, null where there are
 */
public record NetworkTiers(String id, Collective collective, String source, List<Tier> tiers, Double runBusBwGBps,
                           String runSource, int runRanks, Integer hosts, List<String> leftOut, String refused) {

    public NetworkTiers {
        tiers = List.copyOf(tiers);
        leftOut = List.copyOf(leftOut);
    }

    /**
     * One tier.
     *
     * @param name           in words (NVLink domain, network between domains, all ranks)
     * @param ranks          its ranks: GPUs of a domain, domains, or every rank of a single tier
     * @param busBwGBps      bus bandwidth, decimal GB/s; across domains: per domain (all its NICs); null: not
     *                       determined
     * @param stepLatencyUs  latency of one ring step, µs; null: not determined
     * @param withinHost     whether the tier stays inside one host
     * @param undetermined   what is null and why, in words; empty where nothing is
     */
    public record Tier(String name, int ranks, Double busBwGBps, Double stepLatencyUs, boolean withinHost,
                       List<String> undetermined) {
        public Tier {
            undetermined = List.copyOf(undetermined);
        }

        public boolean complete() {
            return busBwGBps != null && stepLatencyUs != null;
        }
    }

    /** The tiers of a calibrated entry; empty for one that was not calibrated. */
    public static Optional<NetworkTiers> of(CalibrationEntry e) {
        if (e instanceof SingleTierCalibration s) {
            return Optional.of(single(s));
        }
        if (e instanceof TwoTierCalibration t) {
            return Optional.of(twoTier(t));
        }
        return Optional.empty();
    }

    private static NetworkTiers single(SingleTierCalibration s) {
        CalibrationSummary.Row row = CalibrationSummary.row(s).orElseThrow();
        Collective c = Collective.byName(s.dataset().collective()).orElseThrow();
        int n = s.ranks();
        Integer hosts = s.dataset().hardware().hosts();
        List<String> why = new ArrayList<>();
        if (row.busBwGBps() == null) {
            why.add("busbw: the sizes do not reach it (the summary's -)");
        }
        int steps = ringSteps(c, n);
        Double step = null;
        if (row.alphaUs() == null) {
            why.add("latency: the sizes do not reach alpha (the summary's -)");
        } else if (steps == 0) {
            why.add("latency: " + c.ncclName() + " has no ring steps to spread alpha " + fmt(row.alphaUs())
                    + " us over");
        } else {
            step = row.alphaUs() / steps;
        }
        Tier tier = new Tier("all " + n + " ranks, one tier (" + s.interconnect() + ")", n, row.busBwGBps(), step,
                hosts == null || hosts <= 1, why);
        String source = "fit " + row.model() + " (the pick), RMSPE " + fmt(row.scorePct()) + " %"
                + (step == null ? "" : ", latency alpha " + fmt(row.alphaUs()) + " us over " + steps + " ring steps");
        return new NetworkTiers(s.dataset().id(), c, source, List.of(tier), row.busBwGBps(), rowSource(row), n, hosts,
                List.of(), null);
    }

    private static NetworkTiers twoTier(TwoTierCalibration t) {
        CalibrationSummary.Row row = CalibrationSummary.row(t).orElseThrow();
        Optional<TwoTierFit> h = t.fit(TwoTierForm.HIERARCHICAL);
        TwoTierConfig at = t.runs().stream().map(r -> r.config()).max(Comparator.comparingInt(TwoTierConfig::ranks))
                .orElseThrow();
        Integer hosts = hostsAt(t, at);
        if (h.isEmpty()) {
            return new NetworkTiers(t.dataset().id(), t.collective(), "fit " + row.model() + " (the pick)", List.of(),
                    row.busBwGBps(), rowSource(row), at.ranks(), hosts, List.of(), "the two-tier forms describe AllReduce only; the"
                    + " pick, " + row.model() + ", has one bandwidth for both tiers, so neither tier's is known");
        }
        TwoTierFit f = h.get();
        TwoTierParams p = f.params();
        ConfigSummary c = f.configurations().stream().filter(x -> x.config().equals(at)).findFirst().orElseThrow();
        List<String> intraWhy = new ArrayList<>();
        List<String> interWhy = new ArrayList<>();
        // a limit the sizes do not reach (the summary's -) leaves every tier's share of it unknown too
        SummaryBounds reached = SummaryBounds.of(t, f, c);
        Double intraBw = known(f, TwoTierParam.U_NV, p.uNv() * t.fabric().betaNvGBps(), reached.busBwReached(),
                intraWhy, "busbw");
        Double intraStep = known(f, TwoTierParam.ELL_NV, t.fabric().hops() * p.ellNvUs(), reached.alphaReached(),
                intraWhy, "latency");
        Double interBw = known(f, TwoTierParam.BETA_IB, p.betaIbGBps(), reached.busBwReached(), interWhy, "busbw");
        Double interStep = known(f, TwoTierParam.ELL_IB, p.ellIbUs(), reached.alphaReached(), interWhy, "latency");
        boolean domainInHost = t.dataset().hardware().domains() == null || hosts == null || hosts >= at.domains();
        List<Tier> tiers = List.of(
                new Tier("NVLink domain (" + t.fabric().name() + ")", at.gpusPerDomain(), intraBw, intraStep,
                        domainInHost, intraWhy),
                new Tier("network between domains" + (t.inter() == null ? "" : " (" + t.inter() + ")"), at.domains(),
                        interBw, interStep, false, interWhy));
        String pick = TwoTierForm.HIERARCHICAL.id().equals(row.model()) ? " (the pick)"
                : " (the pick, " + row.model() + ", is not tiered as the simulators' dimensions are)";
        String source = "fit " + TwoTierForm.HIERARCHICAL.id() + pick + ", RMSPE " + fmt(f.comparisonPct())
                + " %, at " + at.label();
        List<String> leftOut = List.of("T_sw " + (reached.alphaReached() ? fmt(c.tSwUs()) + " us" : "(not reached by"
                + " the sizes)") + ", a fixed time per operation that is no tier's");
        return new NetworkTiers(t.dataset().id(), t.collective(), source, tiers, row.busBwGBps(), rowSource(row),
                at.ranks(), hosts, leftOut, null);
    }

    /** The summary row in words: its model, score and flags (X: beyond every measured busbw, L: the line rate). */
    private static String rowSource(CalibrationSummary.Row row) {
        return "fit " + row.model() + " (the pick), RMSPE " + fmt(row.scorePct()) + " %"
                + (row.flags().isEmpty() ? "" : ", summary flags " + row.flags());
    }

    /** The value where the sizes reach its limit and its profile pins it, else null with the reason added. */
    private static Double known(TwoTierFit f, TwoTierParam p, double value, boolean reached, List<String> why,
                                String what) {
        if (!reached) {
            why.add(what + ": the sizes do not reach it (the summary's -)");
            return null;
        }
        if (f.profile(p).status() == Identifiability.UNDETERMINED) {
            why.add(what + ": " + p.id() + " is undetermined by these runs (its profile)");
            return null;
        }
        return value;
    }

    /** Hosts at the configuration: the metadata's, scaled by the domains where a joint fit's largest run differs. */
    private static Integer hostsAt(TwoTierCalibration t, TwoTierConfig at) {
        Integer hosts = t.dataset().hardware().hosts();
        Integer domains = t.dataset().hardware().domains();
        if (hosts == null || domains == null || domains == 0 || hosts % domains != 0) {
            return hosts;
        }
        return at.domains() * (hosts / domains);
    }

    /** A ring's steps for the collectives NCCL runs as one ring: 2(N−1) for AllReduce, N−1 for two; else 0. */
    static int ringSteps(Collective c, int ranks) {
        return switch (c) {
            case ALL_REDUCE -> 2 * (ranks - 1);
            case ALL_GATHER, REDUCE_SCATTER -> ranks - 1;
            default -> 0;
        };
    }

    /** The tiers a simulator can use: every tier complete, at least two ranks each; else why not. */
    public Optional<String> incomplete() {
        if (refused != null) {
            return Optional.of(refused);
        }
        List<String> why = tiers.stream().flatMap(x -> x.undetermined().stream().map(u -> x.name() + ": " + u))
                .toList();
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
