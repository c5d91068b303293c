package org.ncclharness.calibration.calibrate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Glitches;
import org.ncclharness.calibration.fit.Glitches.Glitch;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.TwoTierCostModel;

/**
 * Measurement glitches ({@link Glitches}) found in one input and, unless kept, left out of its fit: a size whose
 * two placements differ by more than {@value Glitches#PLACEMENT_FACTOR}×, or whose time stands above its
 * neighbours' line by more than {@value #NEIGHBOUR_FACTOR}× while they agree. A run where more than
 * {@value #MAX_SHARE_PCT} % of the sizes look so is noisy throughout, not glitched, and keeps them all. The
 * entry's notes list the glitches by size and give the picked model's RMSPE with and without them.
 *
 * @param fitted   the input the fit uses (the original without the glitches' rows when they are left out)
 * @param original the input as read
 * @param glitches one per size found, ascending
 * @param excluded whether the glitches' rows were left out
 * @param why      why they were kept, null when excluded or none
 */
public record GlitchExclusion(CalibrationInput fitted, CalibrationInput original, List<Glitch> glitches,
                              boolean excluded, String why) {

    /** A time above its neighbours' log-log line by more than this is a glitch. */
    public static final double NEIGHBOUR_FACTOR = 1.5;
    /** Above this share of the sizes, the glitches are the run's own noise and stay in. */
    public static final int MAX_SHARE_PCT = 25;

    public GlitchExclusion {
        glitches = List.copyOf(glitches);
    }

    /**
     * @param keep true for {@code --keep-glitches}: list them, leave them in
     */
    public static GlitchExclusion of(CalibrationInput in, boolean keep) {
        List<Glitch> found = find(in);
        if (found.isEmpty()) {
            return new GlitchExclusion(in, in, found, false, null);
        }
        int sizes = in.sweep().rows().size();
        if (keep) {
            return new GlitchExclusion(in, in, found, false, Advice.name(Setting.KEEP_GLITCHES));
        }
        if (100.0 * found.size() / sizes > MAX_SHARE_PCT) {
            return new GlitchExclusion(in, in, found, false, found.size() + " of " + sizes + " sizes look so, more"
                    + " than " + MAX_SHARE_PCT + " %: the run is noisy throughout, so none is left out");
        }
        List<Long> out = sizes(found);
        List<Measurement> rows = in.sweep().rows().stream().filter(r -> !out.contains(r.sizeBytes())).toList();
        return new GlitchExclusion(in.withSweep(in.sweep().withRows(rows)), in, found, true, null);
    }

    /** The sizes left out of the fit: the glitches' when excluded, else none. */
    public Set<Long> leftOut() {
        return excluded ? Set.copyOf(sizes(glitches)) : Set.of();
    }

    private static List<Long> sizes(List<Glitch> glitches) {
        return glitches.stream().map(g -> (long) g.bytes()).toList();
    }

    /** Both kinds, one per size (placements first), ascending size. */
    static List<Glitch> find(CalibrationInput in) {
        Map<Long, Glitch> bySize = new LinkedHashMap<>();
        Glitches.placementsDisagree(in.sweep().rows()).forEach(g -> bySize.putIfAbsent((long) g.bytes(), g));
        Integer n = in.info().hardware().ranks();
        // the neighbour rule compares times only: N scales every derived time alike
        FitPoints p = FitPoints.from(in.sweep(), n == null || n < 2 ? 2 : n);
        Glitches.aboveNeighbours(p.bytes(), p.timeUs(), NEIGHBOUR_FACTOR)
                .forEach(g -> bySize.putIfAbsent((long) g.bytes(), g));
        return bySize.values().stream().sorted(Comparator.comparingDouble(Glitch::bytes)).toList();
    }

    /** The entry with a note saying what was found and done, and the picked model's RMSPE with and without. */
    public CalibrationEntry annotate(CalibrationEntry e) {
        if (glitches.isEmpty()) {
            return e;
        }
        String list = glitches.stream().map(GlitchExclusion::describe).collect(Collectors.joining(", "));
        String note = e instanceof TwoTierCalibration t && t.members().size() > 1 ? original.id() + ": " : "";
        if (excluded) {
            note += "measurement glitches left out of the fit (" + Advice.name(Setting.KEEP_GLITCHES) + " keeps them): "
                    + list
                    + rmspeWithAndWithout(e).map(s -> "; " + s).orElse("");
        } else {
            note += "measurement glitches kept in the fit (" + why + "): " + list;
        }
        List<Note> notes = new ArrayList<>(notesOf(e));
        notes.add(Note.info(note));
        if (e instanceof SingleTierCalibration s) {
            return s.withNotes(notes);
        }
        if (e instanceof TwoTierCalibration t) {
            return t.withNotes(notes);
        }
        return e;
    }

    private static List<Note> notesOf(CalibrationEntry e) {
        return e instanceof SingleTierCalibration s ? s.notes() : e instanceof TwoTierCalibration t ? t.notes()
                : List.of();
    }

    private static String describe(Glitch g) {
        return SizeText.approx(g.bytes()) + (g.kind() == Glitches.Kind.PLACEMENTS_DISAGREE
                ? String.format(Locale.ROOT, " (out-of-place and in-place %.1fx apart)", g.factor())
                : String.format(Locale.ROOT, " (%.1fx its neighbours' line)", g.factor()));
    }

    /** The picked model on every point of the original (glitches in) and on those it was fitted to. */
    private Optional<String> rmspeWithAndWithout(CalibrationEntry e) {
        Optional<Picked> p = picked(e);
        if (p.isEmpty()) {
            return Optional.empty();
        }
        int n = p.get().ranks();
        String with = pct(p.get(), FitPoints.from(original.sweep(), n));
        String without = pct(p.get(), FitPoints.from(fitted.sweep(), n));
        return Optional.of("RMSPE of " + p.get().name() + " with them " + with + ", without " + without);
    }

    private record Picked(String name, CostModel model, double[] theta, int ranks) {
    }

    private static Optional<Picked> picked(CalibrationEntry e) {
        if (e instanceof SingleTierCalibration s) {
            return s.fit(s.best()).map(f -> new Picked(f.name(), f.model(), f.theta(), s.ranks()));
        }
        if (e instanceof TwoTierCalibration t && t.members().size() == 1) {
            int n = t.runs().get(0).config().ranks();
            Optional<Fit> f = t.protocolFit(t.choice().picked());
            if (f.isPresent()) {
                return Optional.of(new Picked(f.get().name(), f.get().model(), f.get().theta(), n));
            }
            return t.best().map(b -> new Picked(b.form().id(), new TwoTierCostModel(b.form(), t.runs().get(0).config(),
                    t.fabric().betaNvGBps(), t.fabric().hops()), TwoTierCostModel.theta(b.params()), n));
        }
        return Optional.empty();
    }

    private static String pct(Picked p, FitPoints points) {
        double[] predicted = new double[points.size()];
        for (int i = 0; i < predicted.length; i++) {
            predicted[i] = p.model().timeUs(points.bytes()[i], p.theta());
        }
        java.util.OptionalDouble v = Rmspe.of(points.bytes(), points.timeUs(), predicted).overallPct();
        return v.isPresent() ? String.format(Locale.ROOT, "%.1f %%", v.getAsDouble()) : "-";
    }
}
