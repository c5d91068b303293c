package org.ncclharness.calibration.calibrate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.EnumMap;
import java.util.Map;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.SeedUtilisation;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.format.JsonNames;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;

/**
 * Writes a {@link CalibrationReport} as the versioned JSON document of docs/calibration.md
 * ({@value CalibrationReport#SCHEMA}). Every model carries its form, configuration and parameters, which is all
 * {@link CalibrationFile} needs to rebuild it exactly; doubles are written in their shortest round-tripping form.
 * The document is built with the values' Java names and written with nccl-tests' field names ({@link JsonNames}).
 */
public final class CalibrationJson {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CalibrationJson() {
    }

    public static void write(CalibrationReport report, OutputStream out) throws IOException {
        MAPPER.writeValue(out, toJson(report));
    }

    /** The document as written: field names in nccl-tests' style ({@value CalibrationReport#SCHEMA}). */
    public static ObjectNode toJson(CalibrationReport report) {
        return (ObjectNode) JsonNames.toSnake(javaNamed(report));
    }

    private static ObjectNode javaNamed(CalibrationReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", CalibrationReport.SCHEMA);
        ArrayNode ds = root.putArray("datasets");
        for (CalibrationEntry e : report.entries()) {
            ds.add(entry(e));
        }
        return root;
    }

    private static ObjectNode entry(CalibrationEntry e) {
        ObjectNode n = header(e);
        // the summary row as numbers, for a script that wants what the text table shows
        CalibrationSummary.row(e).ifPresent(r -> {
            ObjectNode sum = n.putObject("summary");
            sum.put("model", r.model());
            sum.put("ranks", r.ranks());
            sum.put("scorePct", Double.isNaN(r.scorePct()) ? null : r.scorePct());
            sum.put("alphaUs", r.alphaUs());
            sum.put("busBwGBps", r.busBwGBps());
            sum.put("flags", r.flags());
        });
        if (e instanceof SingleTierCalibration s) {
            singleTier(n, s);
        } else if (e instanceof TwoTierCalibration t) {
            TwoTierJson.write(n, t);
        } else if (e instanceof DeferredCalibration d) {
            n.put("awaiting", d.awaiting());
            n.put("reason", d.reason());
        } else {
            throw new IllegalArgumentException("no JSON form for calibration entries of kind " + e.kind());
        }
        return n;
    }

    /** The fields every entry kind shares: identity, provenance, configuration. */
    public static ObjectNode header(CalibrationEntry e) {
        DatasetInfo d = e.dataset();
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", d.id());
        n.put("kind", e.kind());
        Provenance p = d.provenance();
        ObjectNode pn = n.putObject("provenance");
        pn.put("kind", p.kind().label());
        pn.put("source", p.source());
        pn.put("datasetId", p.datasetId());
        pn.put("label", p.label());
        n.put("collective", d.collective());
        Hardware h = d.hardware() == null ? Hardware.unknown() : d.hardware();
        ObjectNode hn = n.putObject("hardware");
        hn.put("gpuModel", h.gpuModel());
        hn.put("ranks", h.ranks());
        hn.put("hosts", h.hosts());
        hn.put("domainSize", h.domainSize());
        hn.put("domains", h.domains());
        hn.put("intra", h.intra());
        hn.put("inter", h.inter());
        n.put("ranks", h.ranks());
        n.put("nodes", h.hosts());
        n.put("domains", h.domains());
        n.put("forcedAlgo", d.forcedAlgo());
        ArrayNode flags = n.putArray("flags");
        d.flags().forEach(flags::add);
        return n;
    }

    private static void singleTier(ObjectNode n, SingleTierCalibration s) {
        ObjectNode ic = n.putObject("interconnect");
        ic.put("name", s.interconnect());
        ic.put("betaPhysGBps", s.seed().betaPhysGBps());
        ic.put("topology", s.topology());
        ic.put("hopsPerStep", s.hops());
        n.put("chipProfile", s.chipProfile());
        n.put("placement", s.placement().label());
        n.put("timeDerived", s.timeDerived());
        ObjectNode id = n.putObject("identifiability");
        id.put("label", s.identifiability().label());
        id.put("alpha", s.identifiability().alpha());
        id.put("beta", s.identifiability().beta());
        id.put("timeRatio", s.identifiability().timeRatio());
        id.put("busBwRatio", s.identifiability().busBwRatio());
        id.put("basis", s.identifiability().basis());
        SeedUtilisation seed = s.seed();
        ObjectNode sn = n.putObject("seed");
        sn.put("busBwPeakGBps", seed.busBwPeakGBps());
        sn.put("peakBytes", seed.peakBytes());
        sn.put("measuredUr", seed.measuredUr());
        sn.put("ur", seed.ur());
        sn.put("betaEffGBps", seed.betaEffGBps());
        sn.put("aboveLineRate", seed.aboveLineRate());
        n.put("inNetworkReduction", s.inNetworkFlag());
        ArrayNode models = n.putArray("models");
        for (Fit f : s.fits()) {
            ObjectNode m = fit(f);
            f.model().accept(new DerivedJson(m.putObject("derived"), f.theta(), seed));
            models.add(m);
        }
        ObjectNode un = n.putObject("unavailable");
        s.unavailable().forEach(un::put);
        n.put("best", s.best());
        n.put("bestBasis", s.bestBasis());
        ArrayNode notes = n.putArray("notes");
        s.notes().forEach(note -> notes.add(note.text()));
    }

    /** One fitted model: enough to rebuild it ({@code form}, {@code configuration}, {@code parameters}) and its scores. */
    public static ObjectNode fit(Fit f) {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("name", f.name());
        m.put("description", f.description());
        ModelJson.put(m, f.model());
        ObjectNode params = m.putObject("parameters");
        f.parameters().forEach(params::put);
        ArrayNode free = m.putArray("freeParameters");
        f.freeParameters().forEach(free::add);
        ObjectNode r = m.putObject("rmspe");
        r.set("inSample", rmspe(f.inSample(), f));
        r.set("leaveOneOut", f.leaveOneOut() == null ? null : rmspe(f.leaveOneOut(), f));
        r.put("leaveOneOutNote", f.leaveOneOutNote());
        ArrayNode marks = m.putArray("marks");
        f.marks().forEach(marks::add);
        ArrayNode res = m.putArray("residuals");
        for (Residual x : f.residuals()) {
            ObjectNode rn = res.addObject();
            rn.put("bytes", x.bytes());
            rn.put("measuredUs", x.measuredUs());
            rn.put("predictedUs", x.predictedUs());
            rn.put("relErrPct", x.relErrPct());
        }
        return m;
    }

    private static ObjectNode rmspe(Rmspe r, Fit f) {
        ObjectNode n = MAPPER.createObjectNode();
        if (r.overallPct().isPresent()) {
            n.put("overallPct", r.overallPct().getAsDouble());
        } else {
            n.putNull("overallPct");
        }
        n.put("points", r.points());
        Map<SizeBand, Integer> counts = new EnumMap<>(SizeBand.class);
        f.residuals().forEach(x -> counts.merge(SizeBand.of(x.bytes()), 1, Integer::sum));
        ObjectNode bands = n.putObject("bands");
        for (SizeBand b : SizeBand.values()) {
            ObjectNode bn = bands.putObject(b.label());
            if (r.band(b).isPresent()) {
                bn.put("pct", r.band(b).getAsDouble());
            } else {
                bn.putNull("pct");
            }
            bn.put("points", counts.getOrDefault(b, 0));
        }
        return n;
    }
}
