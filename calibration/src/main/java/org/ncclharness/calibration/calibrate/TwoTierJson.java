package org.ncclharness.calibration.calibrate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.fit.twotier.ConfigSummary;
import org.ncclharness.calibration.fit.twotier.GridResult;
import org.ncclharness.calibration.fit.twotier.InterDomainBandwidth;
import org.ncclharness.calibration.fit.twotier.ParamProfile;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.fit.twotier.Prior;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;

/**
 * The JSON body of a {@link TwoTierCalibration} entry. Each form is a model like any other ({@code name},
 * {@code form} {@value TwoTierCostModel#FORM}, {@code configuration}, {@code parameters}, {@code rmspe}), so
 * {@link CalibrationFile} rebuilds it; beside that it carries the profiles, identifiability marks, the α terms
 * and busbw at every configuration, β_IB per domain/GPU/NIC, and the residuals. With {@code calibrate --grid} the
 * reference grid's best of each form follows as a model of its own ({@code grid-hierarchical},
 * {@code grid-flat-ring}), rebuilt the same way.
 */
final class TwoTierJson {

    private TwoTierJson() {
    }

    static void write(ObjectNode n, TwoTierCalibration t) {
        ArrayNode members = n.putArray("members");
        t.members().forEach(members::add);
        ObjectNode fabric = n.putObject("fabric");
        fabric.put("intra", t.fabric().name());
        fabric.put("betaNvGBps", t.fabric().betaNvGBps());
        fabric.put("hopsPerStep", t.fabric().hops());
        fabric.put("inter", t.inter());
        fabric.put("nicGBps", t.nicGBps());
        fabric.put("nicsPerDomain", t.nicsPerDomain());
        fabric.put("networkLineRateGBps", t.networkLineRateGBps());
        fabric.put("busBwCeilingGBps", t.busBwCeilingGBps());
        // the summary row's flag R: busbw the network between domains cannot carry (in-network reduction, SHARP)
        n.put("inNetworkReduction", t.busBwAboveNetworkLineRateGBps().isPresent() ? String.format(Locale.ROOT,
                "busbw %.1f GB/s above the %.1f GB/s the network carries for %s", t.busBwAboveNetworkLineRateGBps()
                        .getAsDouble(), t.busBwCeilingGBps(), t.collective().ncclName()) : null);
        ArrayNode configs = n.putArray("configurations");
        for (int i = 0; i < t.runs().size(); i++) {
            TwoTierRun r = t.runs().get(i);
            ObjectNode c = configs.addObject();
            c.put("member", t.members().get(i));
            c.put("domains", r.config().domains());
            c.put("gpusPerDomain", r.config().gpusPerDomain());
            c.put("ranks", r.config().ranks());
            c.put("placement", t.halves().get(i).label());
            c.put("points", r.points());
        }
        n.put("timeDerived", t.timeDerived());
        ArrayNode models = n.putArray("models");
        for (TwoTierFit f : t.fits()) {
            models.add(model(t, f));
        }
        for (GridFit g : t.grids()) {
            models.add(gridModel(t, g));
        }
        for (Fit f : t.protocolFits()) {
            models.add(CalibrationJson.fit(f));
        }
        n.put("best", t.choice().picked());
        n.put("bestBasis", t.choice().basis());
        ObjectNode choice = n.putObject("modelChoice");
        choice.put("picked", t.choice().picked());
        choice.put("basis", t.choice().basis());
        ObjectNode scores = choice.putObject("leaveOneOutPct");
        t.choice().scores().forEach((k, v) -> {
            if (v.isPresent()) {
                scores.put(k, v.getAsDouble());
            } else {
                scores.putNull(k);
            }
        });
        // the families too small for leave-one-out, as the pick compared them (generalized cross-validation)
        ObjectNode estimated = choice.putObject("generalizedCrossValidationPct");
        t.choice().estimates().forEach(estimated::put);
        Optional<TwoTierFit> best = t.best();
        choice.put("betterTwoTierForm", best.map(f -> f.form().id()).orElse(null));
        choice.put("betterTwoTierFormBasis", best.isEmpty() ? "no two-tier form fitted: "
                + TwoTierCalibrator.formsAbsent(t.collective()).orElse("")
                : t.better().isEmpty() ? "the forms are within 1 % of each other; the lower score"
                : best.get().looRmspePct().isPresent() ? "leave-one-out" : "in-sample");
        ArrayNode notes = n.putArray("notes");
        t.notes().forEach(note -> notes.add(note.text()));
    }

    /**
     * What {@link CalibrationFile} rebuilds a model from: name, form {@value TwoTierCostModel#FORM}, the
     * configuration (the entry's first multi-domain one) and the parameters.
     */
    private static ObjectNode rebuildable(TwoTierCalibration t, String name, String description, TwoTierForm form,
                                          TwoTierParams p) {
        ObjectNode m = CalibrationJson.MAPPER.createObjectNode();
        m.put("name", name);
        m.put("description", description);
        TwoTierCostModel cm = costModel(t, form);
        ModelJson.put(m, cm);
        m.set("parameters", parameters(cm, p));
        ArrayNode free = m.putArray("freeParameters");
        cm.parameterNames().forEach(free::add);
        return m;
    }

    /** The model at the entry's first multi-domain configuration (a joint entry's parameters hold at all of them). */
    private static TwoTierCostModel costModel(TwoTierCalibration t, TwoTierForm form) {
        TwoTierRun at = t.runs().stream().filter(r -> r.config().domains() > 1).findFirst().orElse(t.runs().get(0));
        return new TwoTierCostModel(form, at.config(), t.fabric().betaNvGBps(), t.fabric().hops());
    }

    private static ObjectNode parameters(TwoTierCostModel cm, TwoTierParams p) {
        ObjectNode params = CalibrationJson.MAPPER.createObjectNode();
        double[] theta = TwoTierCostModel.theta(p);
        for (int i = 0; i < theta.length; i++) {
            params.put(cm.parameterNames().get(i), theta[i]);
        }
        return params;
    }

    private static String formula(TwoTierForm form) {
        return form == TwoTierForm.HIERARCHICAL
                ? "T = T_sw + a_nv + a_ib + (2(g-1)/g) M/(u_NV b_NV) + (2(d-1)/d) M/b_IB"
                : "T = T_sw + a_nv + a_ib + (2(N-1)/N) M/min(u_NV b_NV, b_IB)";
    }

    /**
     * The reference grid's best of one form as a model ({@code grid-hierarchical}, {@code grid-flat-ring}), with the
     * box it enumerated, what it cost, and the exact optimum of the same box and objective beside it.
     */
    private static ObjectNode gridModel(TwoTierCalibration t, GridFit g) {
        GridResult r = g.grid();
        ObjectNode m = rebuildable(t, g.modelName(), formula(g.form()) + "; best point of the reference grid search"
                + " (every combination scored by overall RMSPE, no priors)", g.form(), r.best());
        ObjectNode rm = m.putObject("rmspe");
        rm.set("inSample", rmspe(r.rmspe()));
        rm.putNull("leaveOneOut");
        rm.put("leaveOneOutNote", "not scored: the grid search is run once, on all points");
        ObjectNode gn = m.putObject("grid");
        ObjectNode box = gn.putObject("box");
        for (TwoTierParam q : TwoTierParam.values()) {
            ParamRange pr = g.box().get(q);
            ObjectNode a = box.putObject(q.id());
            a.put("min", pr.min());
            a.put("max", pr.max());
            a.put("points", pr.points());
        }
        gn.put("combinations", r.combinations());
        gn.put("bestIndex", r.bestIndex());
        gn.put("pointEvaluations", r.pointEvaluations());
        gn.put("seconds", r.seconds());
        gn.put("evaluationsPerSecond", r.evaluationsPerSecond());
        gn.put("threads", r.threads());
        ObjectNode exact = gn.putObject("exactOnBox");
        exact.put("note", "TwoTierFitter on the same box and objective: never worse than the grid");
        exact.put("rmspePct", g.exactOnBox().rmspePct());
        exact.set("parameters", parameters(costModel(t, g.form()), g.exactOnBox().best()));
        m.set("residuals", residuals(t, g.form(), r.best()));
        return m;
    }

    private static ObjectNode model(TwoTierCalibration t, TwoTierFit f) {
        ObjectNode m = rebuildable(t, f.form().id(), formula(f.form()), f.form(), f.params());
        ObjectNode r = m.putObject("rmspe");
        r.set("inSample", rmspe(f.rmspe()));
        r.set("leaveOneOut", f.looRmspePct().isPresent() ? overall(f.looRmspePct(), f.rmspe().points()) : null);
        r.put("leaveOneOutNote", f.looRmspePct().isPresent() ? null
                : "not scored: fewer than 18 points (3k + 3 for k = 5 parameters)");
        ArrayNode profiles = m.putArray("profiles");
        for (ParamProfile p : f.profiles()) {
            ObjectNode pn = profiles.addObject();
            pn.put("parameter", p.param().id());
            pn.put("unit", p.param().unit());
            pn.put("value", p.value());
            pn.put("lowest", p.lowest());
            pn.put("highest", p.highest());
            pn.put("touchesMin", p.touchesMin());
            pn.put("touchesMax", p.touchesMax());
            pn.put("identifiability", p.status().id());
            pn.put("needsPrior", p.needsPrior());
        }
        ArrayNode atConfigs = m.putArray("atConfigurations");
        for (ConfigSummary c : f.configurations()) {
            ObjectNode cn = atConfigs.addObject();
            cn.put("configuration", c.config().label());
            cn.put("alphaNvUs", c.alphaNvUs());
            cn.put("alphaIbUs", c.alphaIbUs());
            cn.put("tSwUs", c.tSwUs());
            cn.put("latencySumUs", c.latencySumUs());
            cn.put("busBwAsymptoteGBps", c.busBwAsymptoteGBps());
        }
        InterDomainBandwidth ib = t.interDomain(f);
        ObjectNode in = m.putObject("interDomain");
        in.put("perDomainGBps", ib.perDomainGBps());
        in.put("perGpuGBps", ib.perGpuGBps());
        in.put("nicsPerDomain", ib.nicsPerDomain());
        in.put("perNicGBps", ib.perNicGBps());
        in.put("uIb", ib.uIb());
        m.put("bottleneck", f.bottleneck());
        ArrayNode priors = m.putArray("priors");
        for (Prior p : f.priors()) {
            ObjectNode pn = priors.addObject();
            pn.put("parameter", p.param().id());
            pn.put("value", p.value());
            pn.put("sigma", p.sigma());
            pn.put("source", p.source());
        }
        ArrayNode marks = m.putArray("marks");
        f.notes().forEach(marks::add);
        m.set("residuals", residuals(t, f.form(), f.params()));
        return m;
    }

    /** Each measured point of every member against the model at the member's own configuration. */
    private static ArrayNode residuals(TwoTierCalibration t, TwoTierForm form, TwoTierParams params) {
        ArrayNode res = CalibrationJson.MAPPER.createArrayNode();
        for (int i = 0; i < t.runs().size(); i++) {
            TwoTierRun run = t.runs().get(i);
            double[] b = run.bytes();
            double[] us = run.timeUs();
            for (int k = 0; k < b.length; k++) {
                double pred = TwoTierModel.timeUs(form, run.config(), t.fabric().betaNvGBps(), t.fabric().hops(),
                        params, b[k]);
                ObjectNode rn = res.addObject();
                rn.put("member", t.members().get(i));
                rn.put("bytes", b[k]);
                rn.put("measuredUs", us[k]);
                rn.put("predictedUs", pred);
                rn.put("relErrPct", (pred - us[k]) / us[k] * 100);
            }
        }
        return res;
    }

    private static ObjectNode rmspe(Rmspe r) {
        ObjectNode n = overall(r.overallPct(), r.points());
        ObjectNode bands = n.putObject("bands");
        for (SizeBand b : SizeBand.values()) {
            ObjectNode bn = bands.putObject(b.label());
            if (r.band(b).isPresent()) {
                bn.put("pct", r.band(b).getAsDouble());
            } else {
                bn.putNull("pct");
            }
        }
        return n;
    }

    private static ObjectNode overall(OptionalDouble pct, int points) {
        ObjectNode n = CalibrationJson.MAPPER.createObjectNode();
        if (pct.isPresent()) {
            n.put("overallPct", pct.getAsDouble());
        } else {
            n.putNull("overallPct");
        }
        n.put("points", points);
        return n;
    }
}
