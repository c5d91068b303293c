package org.ncclharness.calibration.check;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolveException;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;

/**
 * Learns {@link HealthyRanges} from bundled real runs: each run resolved as {@code check} resolves it
 * ({@link RunResolver}), its busbw at the bandwidth-bound end as a share of its line rate and its shortest time
 * at the small sizes ({@link HealthCheck#bandwidthBoundShare}, {@link HealthCheck#smallSizeTimeUs}), grouped by
 * {@link HardwareClass} and by collective and GPU family ({@link HardwareClass#familyKey()}). A run below
 * {@value HealthCheck#BROKEN_SHARE_OF_LINE_RATE_PCT} % of its
 * line rate is a fault (its source reports it so, docs/sweep-and-check.md), not a healthy run: it is left out.
 */
public final class HealthyRangesLearner {

    /** Margins are rounded up to this step, so that one more bundled run rarely moves them. */
    private static final double MARGIN_STEP = 0.05;

    /**
     * One bundled run's figures, as learned.
     *
     * @param share     busbw at the bandwidth-bound end over the line rate, null where not known
     * @param latencyUs shortest time below 64 KiB, null where the run has no such size
     */
    public record RunFigures(String id, HardwareClass hardwareClass, Double share, Double latencyUs) { }

    private final HardwareFacts facts;

    public HealthyRangesLearner(HardwareFacts facts) {
        this.facts = facts;
    }

    /** The figures of every bundled run that can be resolved and judged, faults left out. */
    public List<RunFigures> figures(List<Dataset> bundled) {
        HealthCheck check = new HealthCheck(facts, CheckRules.defaults(), HealthCheck.checkReferences(),
                HealthyRanges.NONE);
        RunResolver resolver = RunResolver.bundled();
        List<RunFigures> out = new ArrayList<>();
        for (Dataset d : bundled.stream().sorted(Comparator.comparing(Dataset::id)).toList()) {
            if (!d.collective().known()) {
                continue;
            }
            RunDocument doc = d.document();
            ResolvedRun run;
            try {
                run = resolver.resolve(doc, doc.sweeps().get(0), Hints.NONE, RunResolver.UnstatedHosts.LEAVE_UNKNOWN);
            } catch (ResolveException e) {
                continue;
            }
            Double share = check.bandwidthBoundShare(run.sweep(), run.nics()).orElse(null);
            if (share != null && share < HealthCheck.BROKEN_SHARE_OF_LINE_RATE_PCT / 100) {
                continue;
            }
            // the catalogue's sweep: its times, where the source gives busbw only, derived at the run's N as
            // check derives them for a bundled run, so that run's ceiling counts it
            Double latency = HealthCheck.smallSizeTimeUs(run.sweep()).or(() -> HealthCheck.smallSizeTimeUs(
                    d.sweep())).orElse(null);
            if (share != null || latency != null) {
                out.add(new RunFigures(d.id(), HardwareClass.of(run.sweep(), run.nics()), share, latency));
            }
        }
        return out;
    }

    public HealthyRanges learn(List<Dataset> bundled) {
        List<RunFigures> runs = figures(bundled);
        HealthyRanges.Margin bwFamily = margin(runs, RunFigures::share, true, HealthyRanges.Level.FAMILY);
        HealthyRanges.Margin bwClass = orFamily(margin(runs, RunFigures::share, true, HealthyRanges.Level.CLASS),
                bwFamily);
        HealthyRanges.Margin latFamily = margin(runs, RunFigures::latencyUs, false, HealthyRanges.Level.FAMILY);
        HealthyRanges.Margin latClass = orFamily(margin(runs, RunFigures::latencyUs, false,
                HealthyRanges.Level.CLASS), latFamily);
        List<HealthyRanges.Range> ranges = new ArrayList<>();
        for (HealthyRanges.Level level : HealthyRanges.Level.values()) {
            Map<String, List<RunFigures>> groups = new TreeMap<>();
            for (RunFigures r : runs) {
                String key = key(level, r.hardwareClass());
                if (key != null) {
                    groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
                }
            }
            boolean cls = level == HealthyRanges.Level.CLASS;
            groups.forEach((key, members) -> ranges.add(range(level, key, members,
                    (cls ? bwClass : bwFamily).share(), (cls ? latClass : latFamily).share())));
        }
        return new HealthyRanges(HealthyRanges.SCHEMA, bwClass, bwFamily, latClass, latFamily, ranges);
    }

    /**
     * A class margin no run was judged by (no class has more than {@value HealthyRanges#MIN_RUNS} runs, so each
     * run's class without it is too small) was never learned: 0 would put a class's floor at its lowest run and
     * FAIL a healthy run just below it. The family's margin, learned from the same kind of spread, stands in.
     */
    private static HealthyRanges.Margin orFamily(HealthyRanges.Margin cls, HealthyRanges.Margin family) {
        return cls.closest() != null ? cls : new HealthyRanges.Margin(family.share(), null);
    }

    private static String key(HealthyRanges.Level level, HardwareClass c) {
        if (level == HealthyRanges.Level.CLASS) {
            return c.key();
        }
        return c.familyKey();
    }

    private static HealthyRanges.Range range(HealthyRanges.Level level, String key, List<RunFigures> members,
                                             double bwMargin, double latMargin) {
        List<Double> shares = members.stream().map(RunFigures::share).filter(x -> x != null).sorted().toList();
        List<Double> times = members.stream().map(RunFigures::latencyUs).filter(x -> x != null).sorted().toList();
        Double minShare = shares.isEmpty() ? null : round(shares.get(0), RoundingMode.FLOOR);
        Double maxShare = shares.isEmpty() ? null : round(shares.get(shares.size() - 1), RoundingMode.CEILING);
        Double minUs = times.isEmpty() ? null : round(times.get(0), RoundingMode.FLOOR);
        Double maxUs = times.isEmpty() ? null : round(times.get(times.size() - 1), RoundingMode.CEILING);
        Boolean half = shares.size() < HealthyRanges.MIN_RUNS ? null : maxShare / 2 < minShare * (1 - bwMargin);
        Boolean triple = times.size() < HealthyRanges.MIN_RUNS ? null : 3 * minUs > maxUs * (1 + latMargin);
        return new HealthyRanges.Range(level, key, shares.size(), minShare, maxShare, times.size(), minUs, maxUs,
                half, triple);
    }

    /**
     * Four significant digits, rounded outwards (a floor down, a ceiling up): the file's figures, which the rule
     * reads back, never put a bundled run outside its own range.
     */
    private static double round(double x, RoundingMode mode) {
        return new BigDecimal(x).round(new MathContext(4, mode)).doubleValue();
    }

    /**
     * The least margin (a multiple of {@value #MARGIN_STEP}) that keeps every run judged at this level on the
     * healthy side of the floor (busbw) or ceiling (latency) learned from the other runs of its class, else of its
     * family: each run is judged as a new run of its hardware would be, by the spread of the others.
     */
    private static HealthyRanges.Margin margin(List<RunFigures> runs, Function<RunFigures, Double> figure,
                                               boolean floor, HealthyRanges.Level level) {
        double worst = 0;
        String closest = null;
        double closestNeed = Double.NEGATIVE_INFINITY;
        for (RunFigures r : runs) {
            Double x = figure.apply(r);
            if (x == null) {
                continue;
            }
            Optional<Bound> b = bound(r, runs, figure, floor);
            if (b.isEmpty() || b.get().level() != level) {
                continue;
            }
            double need = floor ? 1 - x / b.get().value() : x / b.get().value() - 1;
            if (need > closestNeed) {
                closestNeed = need;
                closest = String.format(Locale.ROOT, "%s: %s against the %s %s of %s %s without it", r.id(),
                        floor ? String.format(Locale.ROOT, "%.1f %% of its line rate", 100 * x)
                                : String.format(Locale.ROOT, "%s us", HealthCheck.significant(x, 4)),
                        floor ? "floor" : "ceiling", floor ? String.format(Locale.ROOT, "%.1f %%", 100 * b.get()
                                .value()) : HealthCheck.significant(b.get().value(), 4) + " us",
                        level == HealthyRanges.Level.CLASS ? "class" : "family", b.get().key());
            }
            worst = Math.max(worst, need);
        }
        double m = Math.ceil(worst / MARGIN_STEP - 1e-9) * MARGIN_STEP;
        return new HealthyRanges.Margin(Double.parseDouble(HealthCheck.significant(m, 3)), closest);
    }

    private record Bound(double value, HealthyRanges.Level level, String key) { }

    /** The floor or ceiling of the other runs of r's class, else of its family, where they are enough. */
    private static Optional<Bound> bound(RunFigures r, List<RunFigures> runs, Function<RunFigures, Double> figure,
                                         boolean floor) {
        for (HealthyRanges.Level level : HealthyRanges.Level.values()) {
            String key = key(level, r.hardwareClass());
            if (key == null) {
                continue;
            }
            List<Double> others = runs.stream().filter(o -> o != r && key.equals(key(level, o.hardwareClass())))
                    .map(figure).filter(x -> x != null).toList();
            if (others.size() >= HealthyRanges.MIN_RUNS) {
                double v = floor ? others.stream().min(Double::compare).orElseThrow()
                        : others.stream().max(Double::compare).orElseThrow();
                return Optional.of(new Bound(v, level, key));
            }
        }
        return Optional.empty();
    }
}
