package org.ncclharness.calibration.predict;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * A model fitted on two domains (an algorithm envelope, or the envelope of a 2-node run as an effective single tier),
 * moved to three or more. NCCL's tuner takes a channel's
 * bandwidth from the intra-node graph up to 2 nodes and from the network's beyond (src/graph/tuning.cc: "bw =
 * nNodes <= 2 ? bwIntra : bwInter"), and the bundled runs agree: 2-node H100/H200 runs reach 465-487 GB/s bus
 * bandwidth over 8 x 400 Gb/s NICs (400 GB/s), their 4- and 8-node runs 325-391; the GH200 Alps pair of nodes 158
 * GB/s over 100, every larger run at most 93. So the bandwidth such a fit learnt is not the larger run's: where the
 * network's line rate is known, β is held to it (a bound: a run reaches 0.8-0.98 of it), and said; where it is not,
 * said.
 */
final class NetworkCeiling {

    /** θ for the moved model and the note that says what was done, or empty where nothing applies. */
    record Moved(double[] theta, String note) {
    }

    private NetworkCeiling() {
    }

    /**
     * @param fitted        the configurations the model was fitted on (its own where empty)
     * @param lineRateGBps  the network's line rate per domain (NICs x rate), null where not known
     */
    static Optional<Moved> apply(AlgorithmEnvelopeModel from, List<TwoTierConfig> fitted, TwoTierConfig to,
                                 double[] theta, Double lineRateGBps) {
        List<TwoTierConfig> known = fitted.isEmpty() ? List.of(from.config()) : fitted;
        return apply(known.stream().mapToInt(TwoTierConfig::domains).max().orElse(1),
                known.stream().anyMatch(c -> c.domains() == 2), to.domains(),
                from.parameterNames().indexOf(ProtocolEnvelopeModel.BETA), theta, lineRateGBps);
    }

    /**
     * The single-tier envelope of a multi-node run, as an effective single tier (its β the same quantity): from the
     * nodes it was calibrated on to {@code toNodes}.
     */
    static Optional<Moved> apply(ProtocolEnvelopeModel from, Integer calibratedNodes, Integer toNodes, double[] theta,
                                 Double lineRateGBps) {
        if (calibratedNodes == null || toNodes == null) {
            return Optional.empty();
        }
        return apply(calibratedNodes, calibratedNodes == 2, toNodes, from.parameterNames().indexOf(
                ProtocolEnvelopeModel.BETA), theta, lineRateGBps);
    }

    private static Optional<Moved> apply(int mostFittedDomains, boolean twoFitted, int toDomains, int b,
                                         double[] theta, Double lineRateGBps) {
        if (mostFittedDomains > 2 && lineRateGBps != null && theta[b] > lineRateGBps) {
            // fitted where NCCL already takes the network's bandwidth, yet above it: the calibrated runs' traffic did
            // not cross the network as a ring across these domains would (a wider NVLink domain than stated, such
            // as a rack of multi-node NVLink, or an in-network reduction), so no tier of the model says how
            // another configuration moves
            return Optional.of(new Moved(theta, String.format(Locale.ROOT, "the calibrated %.1f GB/s is above the"
                    + " network's line rate, %.1f GB/s per domain, although fitted on %d domains: the calibrated runs"
                    + " did not cross the network as the model's domains say (NVLink spanning hosts, e.g. a GB200/GB300"
                    + " NVL72 rack: give calibrate its %s; or SHARP/NVLS reducing in the network), so this"
                    + " prediction may be too fast", theta[b], lineRateGBps, mostFittedDomains,
                    Advice.name(Setting.DOMAIN_SIZE))));
        }
        if (mostFittedDomains > 2 || !twoFitted || toDomains < 3) {
            return Optional.empty();
        }
        String why = "fitted on 2 domains, where NCCL takes a channel's bandwidth from inside a node; from 3 it takes"
                + " the network's (src/graph/tuning.cc)";
        if (lineRateGBps == null) {
            return Optional.of(new Moved(theta, String.format(Locale.ROOT, "%s: the calibrated %.1f GB/s may be above"
                    + " what %d domains reach, and the network's line rate is not known to hold it to (calibrate with"
                    + " %s)", why, theta[b], toDomains, Advice.usage(Setting.NICS_PER_HOST))));
        }
        if (theta[b] <= lineRateGBps) {
            // said, so the note asking for the line rate does not just vanish once it is given
            return Optional.of(new Moved(theta, String.format(Locale.ROOT, "%s: the calibrated %.1f GB/s is within the"
                    + " network's line rate, %.1f GB/s per domain, and kept", why, theta[b], lineRateGBps)));
        }
        double[] held = theta.clone();
        held[b] = lineRateGBps;
        return Optional.of(new Moved(held, String.format(Locale.ROOT, "%s: the calibrated %.1f GB/s is held to the"
                + " network's line rate, %.1f GB/s per domain, at %d domains (an upper bound; unless SHARP/CollNet"
                + " reduces in the network)", why, theta[b], lineRateGBps, toDomains)));
    }
}
