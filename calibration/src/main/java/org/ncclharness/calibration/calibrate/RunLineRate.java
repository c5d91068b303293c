package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.LineRate;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Hardware;

/**
 * What a bundled run's network carries of its collective between domains ({@link LineRate#busBwCeilingGBps}),
 * from the NICs its metadata states, as {@code calibrate} takes them: NICs per host × hosts per domain × one NIC's
 * rate (stated, else the network's figure). The envelopes scored in docs/model-accuracy.md hold β under it as
 * {@code calibrate}'s do.
 */
public final class RunLineRate {

    private RunLineRate() {
    }

    /** The line rate, null on one domain or where the NICs, their rate or the hosts per domain are not known. */
    public static Double of(Dataset d, HardwareFacts facts) {
        Hardware h = d.sweep().hardware();
        if (h.domains() == null || h.domains() < 2 || h.domainSize() == null || h.hosts() == null
                || h.hosts() % h.domains() != 0) {
            return null;
        }
        Interconnect network = h.inter() == null ? null : facts.interconnect(h.inter()).orElse(null);
        Nics nics = d.metadata().nics();
        Integer perDomain = nics.perHost() == null ? null : nics.perHost() * (h.hosts() / h.domains());
        return LineRate.busBwCeilingGBps(d.collective(), h.ranks(), h.domainSize(),
                LineRate.networkGBps(perDomain, nics.rateGBps(network)));
    }
}
