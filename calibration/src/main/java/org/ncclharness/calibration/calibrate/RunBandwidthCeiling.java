package org.ncclharness.calibration.calibrate;

import java.util.Optional;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.fit.envelope.BandwidthCeiling;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.LineRate;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;

/**
 * The most busbw any algorithm moves between a bundled run's domains ({@link BandwidthCeiling}), from the NICs its
 * metadata states, as {@code calibrate} takes them: NICs per host × hosts per domain × one NIC's rate (stated, else
 * the network's figure). The envelopes scored in docs/model-accuracy.md hold β under it as {@code calibrate}'s do.
 */
public final class RunBandwidthCeiling {

    private RunBandwidthCeiling() {
    }

    /** The ceiling, null on one domain or where the NICs, their rate or the hosts per domain are not known. */
    public static Double ceilingGBps(Dataset d, HardwareFacts facts) {
        Hardware h = d.sweep().hardware();
        if (h.domains() == null || h.domains() < 2 || h.domainSize() == null || h.hosts() == null
                || h.hosts() % h.domains() != 0) {
            return null;
        }
        Optional<Interconnect> network = Optional.ofNullable(h.inter()).flatMap(facts::interconnect);
        Nics nics = d.metadata().nics();
        Integer perDomain = nics.perHost() == null ? null : nics.perHost() * (h.hosts() / h.domains());
        Double line = LineRate.busBwCeilingGBps(d.collective(), h.ranks(), h.domainSize(),
                LineRate.networkGBps(perDomain, nics.rateGBps(network.orElse(null))));
        return BandwidthCeiling.of(line, d.collective(), h.ranks(), h.domains(),
                AlgorithmEnvelopeModel.ringForced(d.metadata().algo()),
                network.map(i -> i.inNetworkReduction() != null).orElse(false));
    }
}
