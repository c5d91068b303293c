package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel.SwitchPoint;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.nccl.Protocol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;


class ProtocolEnvelopeTest {

    private static final ProtocolEnvelopeModel M = new ProtocolEnvelopeModel(Collective.ALL_REDUCE, 8, 2);
    /** ℓ_LL, ℓ_LL128, ℓ_Simple (us per hop-step), β_eff (GB/s), η_LL, η_LL128: NCCL-like shape, α 15/40/56 us. */
    private static final double[] THETA = {15.0 / 28, 40.6 / 28, 56.0 / 28, 320 * 8 / 14.0, 0.44, 0.92};

    private static FitPoints synthetic(double[] theta) {
        List<double[]> pts = new ArrayList<>();
        for (double m = 8; m <= 8L << 30; m *= 2) {
            double t = M.timeUs(m, theta);
            pts.add(new double[] {m, t, Collective.ALL_REDUCE.busFactor(8) * m / (t * 1e3)});
        }
        double[][] cols = new double[3][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            for (int j = 0; j < 3; j++) {
                cols[j][i] = pts.get(i)[j];
            }
        }
        return new FitPoints(cols[0], cols[1], cols[2], Placement.OUT_OF_PLACE, false, List.of());
    }

    @Test
    void theEnvelopeIsTheFastestProtocol() {
        for (double m = 1; m < 1e11; m *= 3) {
            double t = M.timeUs(m, THETA);
            for (Protocol p : Protocol.values()) {
                assertThat(t).isLessThanOrEqualTo(M.protocolTimeUs(p, m, THETA));
            }
        }
        assertThat(M.chosen(1024, THETA)).isEqualTo(Protocol.LL);
        assertThat(M.chosen(8e6, THETA)).isEqualTo(Protocol.LL128);
        assertThat(M.chosen(1e9, THETA)).isEqualTo(Protocol.SIMPLE);
    }

    @Test
    void switchPointsAreWhereTheChosenProtocolChanges() {
        List<SwitchPoint> sw = M.switchPoints(THETA);
        assertThat(sw).extracting(SwitchPoint::from).containsExactly(Protocol.LL, Protocol.LL128);
        assertThat(sw).extracting(SwitchPoint::to).containsExactly(Protocol.LL128, Protocol.SIMPLE);
        for (SwitchPoint s : sw) {
            assertThat(M.protocolTimeUs(s.from(), s.bytes(), THETA))
                    .isCloseTo(M.protocolTimeUs(s.to(), s.bytes(), THETA), within(1e-6));
            assertThat(M.chosen(s.bytes() * 0.99, THETA)).isEqualTo(s.from());
            assertThat(M.chosen(s.bytes() * 1.01, THETA)).isEqualTo(s.to());
        }
    }

    /**
     * NCCL runs point-to-point collectives on LL and Simple only (src/enqueue.cc addP2pToPlan): with θ under which
     * LL128 would carry the middle sizes of an AllReduce, an AllToAll's envelope goes from LL straight to Simple,
     * and its fit has no LL128 latency or efficiency among its free parameters (k = 4).
     */
    @Test
    void aPointToPointCollectiveNeverRunsOnLl128() {
        ProtocolEnvelopeModel a2a = new ProtocolEnvelopeModel(Collective.ALL_TO_ALL, 8, 2);
        for (double m = 1; m < 1e11; m *= 3) {
            assertThat(a2a.chosen(m, THETA)).isNotEqualTo(Protocol.LL128);
        }
        assertThat(a2a.switchPoints(THETA)).singleElement().satisfies(sp -> {
            assertThat(sp.from()).isEqualTo(Protocol.LL);
            assertThat(sp.to()).isEqualTo(Protocol.SIMPLE);
        });
        assertThat(ProtocolEnvelopeEstimator.fitted("envelope", "test", a2a).freeParameters()).containsExactly(
                "llLinkLatencyUs", "simpleLinkLatencyUs", ProtocolEnvelopeModel.BETA, "llEfficiency");
        assertThat(ProtocolEnvelopeEstimator.fitted("envelope", "test", M).freeParameters()).hasSize(6);
    }

    @Test
    void oneProtocolThroughoutHasNoSwitchPoint() {
        double[] simpleOnly = {10, 10, 0.1, 100, 0.5, 0.9};
        assertThat(M.switchPoints(simpleOnly)).isEmpty();
    }

    @Test
    void gradientMatchesACentralDifference() {
        GradientCheck.matchesCentralDifference(M, THETA, 64, 1e5, 4e6, 1e9);
    }

    @Test
    void rebuildsFromItsConfiguration() {
        assertThat(M.configuration().model()).isEqualTo(M);
        assertThat(M.at(Scale.gpus(64)).latencyCoefficient()).isEqualTo(2 * 63 * 2);
    }

    @Test
    void recoversAnExactEnvelopeAndItsSwitchPoints() {
        FitPoints pts = synthetic(THETA);
        Fit fit = Fitter.fit(ProtocolEnvelopeEstimator.fitted("envelope", "test", M), pts, List.of());
        assertThat(fit.inSample().overallPct().getAsDouble()).isLessThan(0.5);
        List<SwitchPoint> truth = M.switchPoints(THETA);
        List<SwitchPoint> fitted = M.switchPoints(fit.theta());
        assertThat(fitted).hasSameSizeAs(truth);
        for (int i = 0; i < truth.size(); i++) {
            assertThat(fitted.get(i).bytes()).isCloseTo(truth.get(i).bytes(), within(truth.get(i).bytes() * 0.05));
        }
        assertThat(fit.theta()[3]).isCloseTo(THETA[3], within(THETA[3] * 0.01));
    }

    @Property(tries = 30)
    void fitsAreDeterministic(@ForAll @DoubleRange(min = 0.2, max = 5) double scale) {
        double[] theta = THETA.clone();
        theta[0] *= scale;
        theta[3] /= scale;
        FitPoints pts = synthetic(theta);
        ProtocolEnvelopeEstimator e = ProtocolEnvelopeEstimator.fitted("envelope", "test", M);
        assertThat(e.estimate(pts)).containsExactly(e.estimate(pts));
    }
}
