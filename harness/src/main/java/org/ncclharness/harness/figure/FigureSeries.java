package org.ncclharness.harness.figure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One input of a figure: its measured points (markers), the model curves drawn over them, the β_phys line and
 * the flags the calibration raised (NVLS/SHARP). Built from a {@link Sweep} by {@link #of}; the callers that
 * fit models add them with {@link #withModels}, {@link #withLimit} and {@link #withFlags}.
 *
 * @param label       legend text; always starts with the provenance kind, so a replay or a prediction can never
 *                    pass for a measurement
 * @param kind        where the numbers came from
 * @param source      the provenance's one-line description (the figure's subtitle when it is alone)
 * @param hardware    one line about the configuration, empty when nothing is known
 * @param collective  the collective, which with N turns model times into bus bandwidth
 * @param ranks       N, null when the source does not say (then models cannot be drawn)
 * @param placement   the half the points come from (out-of-place unless the source has only in-place)
 * @param points      measured points, ascending size
 * @param models      curves to draw over the points, in legend order
 * @param limit       β_phys, null when unknown
 * @param flags       short marks for the legend, e.g. {@code NVLS/SHARP: busbw above β_phys}
 */
public record FigureSeries(String label, SourceKind kind, String source, String hardware, Collective collective,
                           Integer ranks, Placement placement, List<SizePoint> points, List<ModelCurve> models,
                           PhysicalLimit limit, List<String> flags) {

    public FigureSeries {
        points = List.copyOf(points);
        models = List.copyOf(models);
        flags = List.copyOf(flags);
        if (!models.isEmpty() && ranks == null) {
            throw new IllegalArgumentException(label + ": N is unknown, so model times cannot become bus bandwidth");
        }
    }

    /** The measured points of a sweep, labelled with its provenance; no models yet. */
    public static FigureSeries of(Sweep sweep) {
        return of(sweep, preferredHalf(sweep.rows()));
    }

    /** The points of one half: the one a fit used, so residuals compare the model with what it was fitted to. */
    public static FigureSeries of(Sweep sweep, Placement half) {
        Integer n = sweep.ranks();
        List<SizePoint> points = new ArrayList<>();
        for (Measurement m : sweep.rows()) {
            Half h = m.preferred(half);
            Double busBw = h.busBwGBps();
            if (busBw == null && h.timeUs() != null && n != null) {
                busBw = sweep.collective().busBwGBps(m.sizeBytes(), h.timeUs(), n);
            }
            if (busBw != null) {
                points.add(new SizePoint(m.sizeBytes(), busBw, h.timeUs()));
            }
        }
        points.sort(java.util.Comparator.comparingLong(SizePoint::bytes));
        Provenance p = sweep.provenance();
        String label = shortLabel(p) + (n == null ? "" : " · N=" + n)
                + (half == Placement.IN_PLACE ? " (in-place)" : "");
        return new FigureSeries(label, p.kind(), p.label(), describe(sweep.hardware(), n), sweep.collective(), n,
                half, points, List.of(), null, List.of());
    }

    /**
     * A series with no measurements: curves a model predicts for a configuration ({@code plot --predict}).
     * The label says "predicted", as every prediction's must.
     */
    public static FigureSeries predicted(String what, Collective collective, int ranks, List<ModelCurve> models) {
        String label = SourceKind.PREDICTED.label() + ": " + what + " · N=" + ranks;
        return new FigureSeries(label, SourceKind.PREDICTED, label, "", collective, ranks, Placement.OUT_OF_PLACE,
                List.of(), models, null, List.of());
    }

    public FigureSeries withLabel(String l) {
        return new FigureSeries(l, kind, source, hardware, collective, ranks, placement, points, models, limit, flags);
    }

    public FigureSeries withModels(List<ModelCurve> m) {
        return new FigureSeries(label, kind, source, hardware, collective, ranks, placement, points, m, limit, flags);
    }

    public FigureSeries withLimit(PhysicalLimit l) {
        return new FigureSeries(label, kind, source, hardware, collective, ranks, placement, points, models, l, flags);
    }

    public FigureSeries withFlags(List<String> f) {
        return new FigureSeries(label, kind, source, hardware, collective, ranks, placement, points, models, limit, f);
    }

    /** The points at these sizes marked as left out of the fit (the glitches calibrate leaves out). */
    public FigureSeries withLeftOut(java.util.Set<Long> sizes) {
        List<SizePoint> marked = points.stream().map(p -> new SizePoint(p.bytes(), p.busBwGBps(), p.timeUs(),
                sizes.contains(p.bytes()))).toList();
        return new FigureSeries(label, kind, source, hardware, collective, ranks, placement, marked, models, limit,
                flags);
    }

    /** Legend text: the label followed by the flags in brackets. */
    public String legendLabel() {
        return flags.isEmpty() ? label : label + " [" + String.join("; ", flags) + "]";
    }

    /** Model time converted to bus bandwidth for this series' collective and N. */
    double modelBusBwGBps(ModelCurve model, long bytes) {
        return collective.busBwGBps(bytes, model.timeUs().applyAsDouble(bytes), ranks);
    }

    /** Out-of-place, the half fits use, unless the source has no out-of-place numbers at all (docs/calibration.md). */
    private static Placement preferredHalf(List<Measurement> rows) {
        boolean anyOut = rows.stream().map(Measurement::outOfPlace)
                .anyMatch(h -> h.busBwGBps() != null || h.timeUs() != null);
        return anyOut ? Placement.OUT_OF_PLACE : Placement.IN_PLACE;
    }

    private static String shortLabel(Provenance p) {
        String what = p.datasetId() != null ? p.datasetId() : fileNameOf(p.source());
        return p.kind().label() + ": " + what;
    }

    private static String fileNameOf(String source) {
        if (source == null || source.isBlank()) {
            return "(unnamed)";
        }
        try {
            Path name = Path.of(source).getFileName();
            return name == null ? source : name.toString();
        } catch (java.nio.file.InvalidPathException e) {
            return source;
        }
    }

    private static String describe(Hardware hw, Integer n) {
        StringJoiner line = new StringJoiner(" · ");
        if (hw != null && hw.gpuModel() != null) {
            line.add(hw.gpuModel());
        }
        if (n != null) {
            line.add("N=" + n);
        }
        if (hw != null && hw.hosts() != null) {
            line.add(hw.hosts() + (hw.hosts() == 1 ? " host" : " hosts"));
        }
        if (hw != null && hw.intra() != null) {
            line.add(hw.inter() == null ? hw.intra() : hw.intra() + " + " + hw.inter());
        }
        return line.toString();
    }
}
