package org.ncclharness.calibration.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.nccl.ChannelCounts;

/**
 * What every command that calibrates does to its inputs, in one place, so {@code calibrate}, {@code sweep} and the
 * benchmark cannot drift apart: the measurement glitches found and (unless kept) left out, every input fitted by
 * every family that applies to it (one tier; across NVLink domains the envelope, the algorithm envelope and both
 * two-tier forms, with the pick), and each entry annotated with its glitches.
 */
public final class CalibrationPipeline {

    private CalibrationPipeline() {
    }

    /** Each input's glitches; {@code keep} ({@code --keep-glitches}) lists them and leaves them in. */
    public static List<GlitchExclusion> glitches(List<CalibrationInput> inputs, boolean keep) {
        return inputs.stream().map(i -> GlitchExclusion.of(i, keep)).toList();
    }

    /** Fits the inputs as their glitch exclusions left them, and annotates each entry with its glitches. */
    public static CalibrationReport calibrate(HardwareFacts facts, List<GlitchExclusion> glitches, CalibrationOptions o,
                                              Optional<GridOptions> grid, FitProgress progress) {
        return calibrate(facts, glitches, o, grid, progress, Workers.fromSystem());
    }

    /** As above, on {@code workers} threads (the output is the same bytes whatever their count). */
    public static CalibrationReport calibrate(HardwareFacts facts, List<GlitchExclusion> glitches, CalibrationOptions o,
                                              Optional<GridOptions> grid, FitProgress progress, Workers workers) {
        List<CalibrationInput> fitted = glitches.stream().map(GlitchExclusion::fitted).toList();
        return annotate(workers.run(() -> fit(facts, fitted, o, grid, progress)), glitches);
    }

    /** What {@code calibrate} does with its default options: glitches left out, no grid, no progress shown. */
    public static CalibrationReport calibrate(HardwareFacts facts, List<CalibrationInput> inputs, CalibrationOptions o) {
        return calibrate(facts, glitches(inputs, false), o, Optional.empty(), FitProgress.NONE);
    }

    /** Every family fitted to each input as given (no glitch is looked for), the two-tier entries completed. */
    public static CalibrationReport fit(HardwareFacts facts, List<CalibrationInput> inputs, CalibrationOptions o,
                                        Optional<GridOptions> grid, FitProgress progress) {
        SingleTierCalibrator calibrator = new SingleTierCalibrator(facts, o, progress);
        // Datasets are calibrated independently: on the caller's workers (Workers#run), in input order (an ordered
        // stream keeps it).
        List<CalibrationEntry> entries = inputs.parallelStream().map(calibrator::calibrate).toList();
        return new CalibrationReport(new TwoTierCalibrator(facts, grid, o.scoring()).complete(inputs, entries));
    }

    /**
     * The entry with the channels NCCL printed for the input's communicator, where its log printed them (a joint
     * entry's note names the member).
     */
    private static CalibrationEntry withChannels(CalibrationEntry e, CalibrationInput in, boolean joint) {
        Optional<ChannelCounts> ch = in.channels();
        if (ch.isEmpty()) {
            return e;
        }
        Note note = Note.info((joint ? in.id() + ": " : "") + "channels from the log: " + ch.get().describe()
                + " (NCCL's INFO lines for the communicator of N=" + in.info().hardware().ranks() + ")");
        if (e instanceof SingleTierCalibration s) {
            return s.withNotes(append(s.notes(), note));
        }
        return e instanceof TwoTierCalibration t ? t.withNotes(append(t.notes(), note)) : e;
    }

    private static List<Note> append(List<Note> notes, Note note) {
        List<Note> out = new ArrayList<>(notes);
        out.add(note);
        return out;
    }

    /** Each entry with the glitches of the inputs it was fitted from (a joint entry: of every member). */
    public static CalibrationReport annotate(CalibrationReport r, List<GlitchExclusion> glitches) {
        List<CalibrationEntry> out = new ArrayList<>();
        for (CalibrationEntry e : r.entries()) {
            List<String> members = e instanceof TwoTierCalibration t ? t.members() : List.of(e.dataset().id());
            CalibrationEntry annotated = e;
            for (GlitchExclusion g : glitches) {
                if (members.contains(g.original().id())) {
                    annotated = g.annotate(annotated);
                    annotated = withChannels(annotated, g.original(), members.size() > 1);
                }
            }
            out.add(annotated);
        }
        return new CalibrationReport(out);
    }
}
