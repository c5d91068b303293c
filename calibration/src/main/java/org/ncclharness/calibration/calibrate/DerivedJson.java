package org.ncclharness.calibration.calibrate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ncclharness.calibration.fit.SeedUtilisation;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * The {@code derived} quantities a single-tier entry writes beside each fit's parameters: α and the utilisation
 * u_r of the α-β models, each protocol's α and the switch points of the envelope. A single-tier entry fits no
 * other kind of model.
 */
final class DerivedJson extends OtherwiseVisitor<Void> {

    private final ObjectNode derived;
    private final double[] theta;
    private final SeedUtilisation seed;

    /** @param derived the node to fill, {@code theta} the fit's parameters, {@code seed} the entry's seed */
    DerivedJson(ObjectNode derived, double[] theta, SeedUtilisation seed) {
        this.derived = derived;
        this.theta = theta.clone();
        this.seed = seed;
    }

    @Override
    public Void singleTier(SingleTierModel m) {
        derived.put("alphaUs", m.alphaUs(theta));
        if (seed.betaPhysGBps() != null) {
            derived.put("uR", theta[1] / seed.betaPhysGBps());
        }
        return null;
    }

    /** The envelope's α per protocol and its switch points (sizes where the chosen protocol changes). */
    @Override
    public Void protocolEnvelope(ProtocolEnvelopeModel m) {
        for (Protocol p : Protocol.values()) {
            derived.put("alpha" + p.label() + "Us", m.alphaUs(p, theta));
        }
        ArrayNode sw = derived.putArray("switchPoints");
        for (ProtocolEnvelopeModel.SwitchPoint x : m.switchPoints(theta)) {
            ObjectNode o = sw.addObject();
            o.put("from", x.from().label());
            o.put("to", x.to().label());
            o.put("bytes", x.bytes());
        }
        return null;
    }

    @Override
    protected Void otherwise(CostModel m) {
        throw new IllegalStateException("a single-tier entry holds no " + m.form() + " fit");
    }
}
