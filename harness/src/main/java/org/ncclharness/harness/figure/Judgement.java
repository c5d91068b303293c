package org.ncclharness.harness.figure;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.measure.Severity;

/**
 * What a check judged a run against, for its figure: the reference curve (drawn dashed), the bandwidth levels the
 * verdict used (the line rate, the hardware class's healthy floor: horizontal lines), and the sizes its findings
 * name, each labelled with the rule. Built from the typed report ({@code CheckReport}), never from its prose.
 *
 * @param reference the curve the run was compared with, null without one
 * @param levels    horizontal busbw lines, in legend order
 * @param marks     the sizes findings name
 */
public record Judgement(FigureSeries reference, List<Level> levels, List<SizeMark> marks) {

    /** Nothing judged: a plain figure. */
    public static final Judgement NONE = new Judgement(null, List.of(), List.of());

    public Judgement {
        levels = List.copyOf(levels);
        marks = List.copyOf(marks);
    }

    /**
     * A busbw the verdict compared the run with.
     *
     * @param label     what the line is, with its value: {@code line rate 200 GB/s}
     * @param busBwGBps where it is drawn
     */
    public record Level(String label, double busBwGBps) {

        public Level {
            if (!(busBwGBps > 0) || Double.isInfinite(busBwGBps)) {
                throw new IllegalArgumentException(label + ": a level needs a positive busbw, got " + busBwGBps);
            }
        }
    }

    /**
     * A size a finding names.
     *
     * @param bytes the size
     * @param rule  the rule that named it ({@code dip}, {@code peak}, {@code class-floor})
     * @param fail  whether the finding FAILs the run (else it WARNs or informs)
     */
    public record SizeMark(long bytes, String rule, boolean fail) { }

    /**
     * What a check's report judged the run against: the reference, the line rate and class floor it compared the
     * largest size with, and the sizes its WARN and FAIL findings name.
     *
     * @param reference the reference's series, null without one
     */
    public static Judgement of(CheckReport report, FigureSeries reference) {
        return of(List.of(report), reference);
    }

    /**
     * What a bring-up step's subjects were judged against: one reference and the levels of their hardware (the
     * first subject's that has them; the subjects of a step share their hardware), the sizes any of their findings
     * name.
     */
    public static Judgement of(List<CheckReport> reports, FigureSeries reference) {
        List<Level> levels = new ArrayList<>();
        CheckReport.Levels l = reports.stream().map(CheckReport::levels).filter(x -> x.lineRateGBps() != null)
                .findFirst().orElse(CheckReport.Levels.NONE);
        if (l.lineRateGBps() != null) {
            levels.add(new Level("line rate " + digits(l.lineRateGBps()) + " GB/s", l.lineRateGBps()));
        }
        if (l.classFloorGBps() != null) {
            levels.add(new Level("class floor " + digits(l.classFloorGBps()) + " GB/s (" + l.classKey() + ")",
                    l.classFloorGBps()));
        }
        List<SizeMark> marks = reports.stream().flatMap(r -> r.reasons().stream()).filter(f -> f.sizeBytes() != null)
                .map(f -> new SizeMark(f.sizeBytes(), f.rule(), f.severity() == Severity.FAIL)).toList();
        return new Judgement(reference, levels, marks);
    }

    private static String digits(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    public boolean isEmpty() {
        return reference == null && levels.isEmpty() && marks.isEmpty();
    }
}
