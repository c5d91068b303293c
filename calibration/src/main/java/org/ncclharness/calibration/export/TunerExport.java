package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleFunction;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.nccl.Algorithm;

/**
 * {@code calibrate --export nccl-tuner}: the rows of NCCL's example tuner plugin's configuration from a calibration.
 *
 * <ul>
 *   <li>An entry: at each scale it was calibrated at (each run of a joint fit), per size range the algorithm and
 *       protocol its model takes ({@link ExportFits}: the pick, or the best fit that names them).</li>
 *   <li>An algorithm/protocol matrix ({@code sweep --algo/--proto}: entries whose run forced one combination
 *       each, grouped by collective and scale): at a measured size the combination measured fastest; between two
 *       measured sizes with the same winner, that winner; between two with different winners, the one of the two each combination's own fit
 *       predicts faster (the models' crossover); below the smallest and above the largest measured size, the
 *       combination whose fit predicts the shortest time.</li>
 * </ul>
 * Each run of rows carries a comment saying which of those it came from. A scale written once is not written again
 * (the plugin takes the first match): the later entry is listed in {@link Result#skipped}.
 */
public final class TunerExport {

    /** What was written and what was not. */
    public record Result(String text, List<TunerRow> rows, List<String> skipped) {
        public Result {
            rows = List.copyOf(rows);
            skipped = List.copyOf(skipped);
        }

        /** Rows per origin kind: how many came from a measurement, how many from a model. */
        public long measuredRows() {
            return rows.stream().filter(r -> r.origin().startsWith(MEASURED)).count();
        }
    }

    static final String MEASURED = "measured";
    static final String MODEL = "model";

    private record Key(Collective collective, int nodes, int ranks) {
    }

    /** One combination's run in a matrix: the combination, its fit, the sizes it measured (bytes → µs). */
    private record Member(TunerPick combination, Fit fit, TreeMap<Long, Double> measuredUs) {
    }

    /** The choice at one size and whether a measurement made it. */
    private record Choice(TunerPick pick, boolean measured) {
    }

    private TunerExport() {
    }

    /**
     * @param report       the calibration
     * @param combinations the entries (by id) that ran one {@code --algo/--proto} combination each: the matrix
     * @param heading      the comment lines the file starts with
     */
    public static Result of(CalibrationReport report, Map<String, TunerPick> combinations, List<String> heading) {
        Map<Key, List<TunerRow>> byScale = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        Map<Key, List<Member>> matrices = new LinkedHashMap<>();
        Map<Key, List<String>> matrixIds = new LinkedHashMap<>();
        for (CalibrationEntry e : report.entries()) {
            Optional<Collective> c = Collective.byName(e.dataset().collective());
            if (c.isEmpty() || !Algorithm.tuned(c.get())) {
                c.ifPresent(x -> skipped.add(e.dataset().id() + ": NCCL does not ask a tuner about " + x.ncclName()));
                continue;
            }
            TunerPick combination = combinations.get(e.dataset().id());
            if (combination != null) {
                Optional<Fit> fit = ExportFits.pickedFit(e);
                if (fit.isEmpty() || !(e instanceof SingleTierCalibration || e instanceof TwoTierCalibration)) {
                    skipped.add(e.dataset().id() + ": not calibrated");
                    continue;
                }
                Key k = new Key(c.get(), nodes(e.dataset().hardware(), null), e.dataset().hardware().ranks());
                matrices.computeIfAbsent(k, x -> new ArrayList<>()).add(new Member(combination, fit.get(),
                        measured(fit.get())));
                matrixIds.computeIfAbsent(k, x -> new ArrayList<>()).add(e.dataset().id());
                continue;
            }
            Optional<ExportFits> f = ExportFits.of(e);
            if (f.isEmpty()) {
                if (e instanceof SingleTierCalibration || e instanceof TwoTierCalibration) {
                    skipped.add(e.dataset().id() + ": no fitted model chooses an algorithm or protocol");
                }
                continue;
            }
            for (ModelScale s : scales(e, f.get().fit())) {
                Key k = new Key(c.get(), s.nodes, s.ranks);
                String origin = MODEL + ": " + e.dataset().id() + ", " + f.get().describe() + ", at " + s.ranks
                        + " ranks on " + nodesText(s.nodes) + "; measured " + s.smallest + "-" + s.largest
                        + " B, outside that extrapolated";
                List<TunerRow> rows = rows(k, b -> s.picks.apply(b), origin);
                put(byScale, k, rows, e.dataset().id(), skipped);
            }
        }
        matrices.forEach((k, members) -> put(byScale, k, matrixRows(k, members, String.join(", ",
                matrixIds.get(k))), String.join(", ", matrixIds.get(k)), skipped));
        List<TunerRow> all = byScale.values().stream().flatMap(List::stream).toList();
        List<String> head = new ArrayList<>(heading);
        skipped.forEach(s -> head.add("not written: " + s));
        return new Result(TunerCsv.text(head, all), all, skipped);
    }

    private static void put(Map<Key, List<TunerRow>> byScale, Key k, List<TunerRow> rows, String id,
                            List<String> skipped) {
        if (byScale.containsKey(k)) {
            skipped.add(id + ": " + k.collective().cliName() + " at " + k.ranks() + " ranks on " + nodesText(k.nodes())
                    + " was written from an earlier input (the plugin takes the first row that matches)");
            return;
        }
        byScale.put(k, rows);
    }

    private static String nodesText(int nodes) {
        return nodes == TunerRow.ANY ? "any node count (not stated)" : nodes + (nodes == 1 ? " node" : " nodes");
    }

    private static List<TunerRow> rows(Key k, DoubleFunction<TunerPick> picks, String origin) {
        return SizeRanges.of(b -> picks.apply((double) b), 0, TunerRow.ANY_SIZE, List.of()).stream()
                .map(r -> new TunerRow(k.collective(), r.minBytes(), r.maxBytes(), r.choice(), TunerRow.ANY, k.nodes(),
                        k.ranks(), origin)).toList();
    }

    /** A model at one scale of an entry: its picks, the nodes and ranks to match, the sizes measured there. */
    private record ModelScale(int ranks, int nodes, DoubleFunction<TunerPick> picks, long smallest, long largest) {
    }

    private static List<ModelScale> scales(CalibrationEntry e, Fit fit) {
        List<ModelScale> out = new ArrayList<>();
        if (e instanceof TwoTierCalibration t) {
            Set<TwoTierConfig> seen = new LinkedHashSet<>();
            for (TwoTierRun r : t.runs()) {
                if (!seen.add(r.config())) {
                    continue;
                }
                CostModel m = fit.model().at(Scale.of(r.config()));
                double[] b = r.bytes();
                out.add(new ModelScale(r.config().ranks(), nodes(e.dataset().hardware(), r.config()),
                        ModelPicks.of(m, fit.theta()).orElseThrow(), (long) min(b), (long) max(b)));
            }
            return out;
        }
        double[] b = fit.residuals().stream().mapToDouble(Residual::bytes).toArray();
        out.add(new ModelScale(fit.model().ranks(), nodes(e.dataset().hardware(), null),
                ModelPicks.of(fit.model(), fit.theta()).orElseThrow(), (long) min(b), (long) max(b)));
        return out;
    }

    /**
     * NCCL's node count at a configuration: the hosts the metadata states (scaled by the domains where a joint fit
     * runs at another), -1 (any) where it states none.
     */
    private static int nodes(Hardware hw, TwoTierConfig at) {
        if (hw.hosts() == null) {
            return TunerRow.ANY;
        }
        if (at == null || hw.domains() == null || hw.domains() == 0 || hw.hosts() % hw.domains() != 0) {
            return hw.hosts();
        }
        return at.domains() * (hw.hosts() / hw.domains());
    }

    private static TreeMap<Long, Double> measured(Fit f) {
        TreeMap<Long, Double> out = new TreeMap<>();
        f.residuals().forEach(r -> out.put((long) r.bytes(), r.measuredUs()));
        return out;
    }

    private static List<TunerRow> matrixRows(Key k, List<Member> members, String ids) {
        TreeMap<Long, TunerPick> winners = new TreeMap<>();
        Set<Long> sizes = new java.util.TreeSet<>();
        members.forEach(m -> sizes.addAll(m.measuredUs().keySet()));
        for (long s : sizes) {
            Member best = null;
            for (Member m : members) {
                Double t = m.measuredUs().get(s);
                if (t != null && (best == null || t < best.measuredUs().get(s))) {
                    best = m;
                }
            }
            winners.put(s, best.combination());
        }
        List<Long> probes = new ArrayList<>();
        for (long s : sizes) {
            probes.addAll(List.of(s - 1, s, s + 1));
        }
        String labels = String.join(" ", members.stream().map(m -> m.combination().label()).toList());
        String measured = MEASURED + ": the fastest of the algorithm/protocol matrix " + labels + " (" + ids + ") at "
                + k.ranks() + " ranks on " + nodesText(k.nodes());
        String model = MODEL + ": between or beyond the matrix's measured sizes, the combination its own fit predicts"
                + " fastest (" + ids + ")";
        return SizeRanges.of(b -> choice(b, winners, members), 0, TunerRow.ANY_SIZE, probes).stream()
                .map(r -> new TunerRow(k.collective(), r.minBytes(), r.maxBytes(), r.choice().pick(), TunerRow.ANY,
                        k.nodes(), k.ranks(), r.choice().measured() ? measured : model)).toList();
    }

    private static Choice choice(long b, TreeMap<Long, TunerPick> winners, List<Member> members) {
        Map.Entry<Long, TunerPick> below = b < 0 ? winners.lastEntry() : winners.floorEntry(b);
        Map.Entry<Long, TunerPick> above = b < 0 ? null : winners.ceilingEntry(b);
        if (below != null && below.getKey() == b) {
            return new Choice(below.getValue(), true);
        }
        if (below != null && above != null) {
            if (below.getValue().equals(above.getValue())) {
                return new Choice(below.getValue(), true);
            }
            return new Choice(fastest(b, members.stream().filter(m -> m.combination().equals(below.getValue())
                    || m.combination().equals(above.getValue())).toList()), false);
        }
        return new Choice(fastest(b, members), false);
    }

    /** The combination whose own fit predicts the shortest time at this size. */
    private static TunerPick fastest(long b, List<Member> members) {
        double bytes = b < 0 ? Math.pow(2, 64) : b;
        Member best = members.get(0);
        for (Member m : members) {
            if (m.fit().timeUs(bytes) < best.fit().timeUs(bytes)) {
                best = m;
            }
        }
        return best.combination();
    }

    private static double min(double[] a) {
        return java.util.Arrays.stream(a).min().orElse(0);
    }

    private static double max(double[] a) {
        return java.util.Arrays.stream(a).max().orElse(0);
    }
}
