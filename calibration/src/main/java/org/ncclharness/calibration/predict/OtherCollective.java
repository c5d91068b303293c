package org.ncclharness.calibration.predict;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.AlgorithmEnvelopeConfiguration;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * A calibrated model's parameters applied to another collective on the same system ({@code predict --collective}):
 * the envelopes' parameters are per hop, per network step and per byte, and each collective's steps and bytes are
 * its {@link org.ncclharness.calibration.model.RingSteps} pattern, so they carry over, as they do to another scale.
 * Refused where the other collective needs a parameter the fit never saw (LL128's, from a point-to-point
 * collective; Tree's factor, from anything but an AllReduce across domains) or the model has no steps per
 * collective.
 */
public final class OtherCollective {

    private OtherCollective() {
    }

    /**
     * The model for {@code to}, θ unchanged, with a note that says where the parameters came from.
     *
     * @throws IllegalArgumentException with the reason, where the parameters do not carry over
     */
    public static PredictionModel of(PredictionModel pm, Collective to) {
        Collective from = pm.collective();
        if (from == to) {
            return pm;
        }
        if (!to.known()) {
            throw new IllegalArgumentException("no steps for an unknown collective");
        }
        if (Protocol.LL128.runs(to) && !Protocol.LL128.runs(from)) {
            throw new IllegalArgumentException(to.ncclName() + " runs on LL128, whose latency and efficiency a fit of "
                    + from.ncclName() + " (point to point, LL and Simple only) never saw; calibrate a run of a"
                    + " collective that uses LL128");
        }
        CostModel model = pm.model().accept(new OtherwiseVisitor<CostModel>() {
            @Override
            public CostModel protocolEnvelope(ProtocolEnvelopeModel m) {
                return new ProtocolEnvelopeModel(to, m.ranks(), m.hops());
            }

            @Override
            public CostModel algorithmEnvelope(AlgorithmEnvelopeModel m) {
                AlgorithmEnvelopeConfiguration c = m.configuration();
                AlgorithmEnvelopeModel moved = new AlgorithmEnvelopeConfiguration(to, c.domains(), c.gpusPerDomain(),
                        c.hops(), c.ringOnly()).model();
                if (moved.treeDetermined() && !m.treeDetermined()) {
                    throw new IllegalArgumentException(to.ncclName() + " across domains has NCCL's Tree beside Ring,"
                            + " whose bandwidth factor a fit of " + from.ncclName() + " never saw (it has no Tree);"
                            + " calibrate an AllReduce run across domains");
                }
                return moved;
            }

            @Override
            protected CostModel otherwise(CostModel m) {
                throw new IllegalArgumentException("model " + pm.name() + " has no steps per collective; the"
                        + " envelopes have (" + Advice.with(Setting.MODEL, "envelope") + ", or "
                        + Advice.with(Setting.MODEL, "algorithms") + " for a run across domains)");
            }
        });
        List<String> notes = new ArrayList<>(pm.notes());
        notes.add(0, to.ncclName() + " predicted with the parameters of a fit of " + from.ncclName() + ": per-hop,"
                + " per-step and per-byte parameters carried over to " + to.ncclName() + "'s own steps and bytes"
                + netLatencyCaveat(pm, to));
        return new PredictionModel(pm.name(), model, pm.theta(), pm.source(), pm.calibratedRanks(),
                pm.calibratedNodes(), pm.minBytes(), pm.maxBytes(), pm.calibratedDomains(), notes,
                pm.networkLineRateGBps());
    }

    /**
     * Where the calibrated runs did not tell ℓ_net from ℓ_p (Ring alone on one configuration), the network steps'
     * latency sits inside ℓ_p: a collective with another share of network steps gets it in the wrong proportion.
     */
    private static String netLatencyCaveat(PredictionModel pm, Collective to) {
        return pm.model().accept(new OtherwiseVisitor<String>() {
            @Override
            public String algorithmEnvelope(AlgorithmEnvelopeModel m) {
                List<AlgorithmEnvelopeModel> fitted = pm.calibratedDomains().isEmpty() ? List.of(m)
                        : pm.calibratedDomains().stream().map(c -> m.at(Scale.of(c))).toList();
                return !m.multiDomain() || AlgorithmEnvelopeModel.netLatencyDetermined(fitted) ? ""
                        : "; the calibrated run did not tell l_net from l_p (Ring alone on one configuration), so"
                        + " the network steps' latency is carried inside l_p: " + to.ncclName() + "'s latency is"
                        + " approximate";
            }

            @Override
            protected String otherwise(CostModel m) {
                return "";
            }
        });
    }
}
