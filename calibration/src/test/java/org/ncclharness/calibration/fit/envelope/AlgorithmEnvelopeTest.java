package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.Protocol;
import org.ncclharness.calibration.model.TwoTierConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AlgorithmEnvelopeTest {

    private static final Collective AR = Collective.ALL_REDUCE;
    /**
     * ℓ_LL, ℓ_LL128, ℓ_Simple (us per hop-step), β (GB/s), η_LL, η_LL128, ℓ_net (us per network step), τ: an
     * H100-like 2-node shape where Tree wins the small sizes and Ring the large ones.
     */
    private static final double[] THETA = {0.3, 0.7, 1.6, 180, 0.35, 0.8, 6.0, 0.6};

    private static FitPoints synthetic(AlgorithmEnvelopeModel m, double[] theta, double noise) {
        List<double[]> pts = new ArrayList<>();
        int i = 0;
        for (double b = 8; b <= 8L << 30; b *= 2, i++) {
            // a fixed ±noise pattern: deterministic, and no size is exact
            double t = m.timeUs(b, theta) * (1 + noise * ((i % 3) - 1));
            pts.add(new double[] {b, t, m.collective().busFactor(m.config().ranks()) * b / (t * 1e3)});
        }
        double[][] cols = new double[3][pts.size()];
        for (int k = 0; k < pts.size(); k++) {
            for (int j = 0; j < 3; j++) {
                cols[j][k] = pts.get(k)[j];
            }
        }
        return new FitPoints(cols[0], cols[1], cols[2], Placement.OUT_OF_PLACE, false, List.of());
    }

    private static AlgorithmEnvelopeModel at(int d, int g) {
        return new AlgorithmEnvelopeModel(AR, new TwoTierConfig(d, g), 2);
    }

    @Test
    void ncclsStepCountsSetTheLatencies() {
        AlgorithmEnvelopeModel m = at(4, 8);
        double[] unitLink = {1, 1, 1, 1e9, 1, 1, 0, 1};
        double[] unitNet = {0, 0, 0, 1e9, 1, 1, 1, 1};
        // Ring: 2(N-1) = 62 steps of 2 hops; 2(d-1) = 6 of them over the network. Tree: 2((g-1) + log2 d) = 18
        // link steps of 2 hops, 2 log2 d = 4 over the network.
        assertThat(m.alphaUs(Algorithm.RING, Protocol.LL, unitLink)).isEqualTo(124);
        assertThat(m.alphaUs(Algorithm.RING, Protocol.LL, unitNet)).isEqualTo(6);
        assertThat(m.alphaUs(Algorithm.TREE, Protocol.LL, unitLink)).isEqualTo(36);
        assertThat(m.alphaUs(Algorithm.TREE, Protocol.LL, unitNet)).isEqualTo(4);
        assertThat(m.treeApplies()).isTrue();
        assertThat(at(1, 8).treeApplies()).isFalse();
        assertThat(new AlgorithmEnvelopeModel(Collective.ALL_GATHER, new TwoTierConfig(4, 8), 2).treeApplies())
                .isFalse();
    }

    @Test
    void everyCandidateWinsSomewhereOnTheShapeTheTestsUse() {
        AlgorithmEnvelopeModel m = at(2, 8);
        Set<String> seen = new java.util.TreeSet<>();
        for (double b = 8; b <= 8L << 30; b *= 2) {
            seen.add(m.chosen(b, THETA).label());
        }
        assertThat(seen).contains("Tree/LL", "Ring/Simple");
        assertThat(seen.stream().map(s -> s.split("/")[1]).collect(Collectors.toSet()))
                .contains("LL", "LL128", "Simple");
    }

    @Test
    void knownParametersComeBackWithinTwoPercentFromOneRun() {
        AlgorithmEnvelopeModel m = at(2, 8);
        FitPoints p = synthetic(m, THETA, 0.005);
        double[] fit = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(p);
        for (int i = 0; i < p.size(); i++) {
            assertThat(m.timeUs(p.bytes()[i], fit) / m.timeUs(p.bytes()[i], THETA)).isCloseTo(1, within(0.02));
        }
        // the bandwidth and the Simple latency decide the large sizes: within 2 % of the truth
        assertThat(fit[ProtocolEnvelopeModel.BETA_INDEX] / THETA[ProtocolEnvelopeModel.BETA_INDEX])
                .isCloseTo(1, within(0.02));
    }

    @Test
    void theRingsBandwidthStaysUnderTheNetworksLineRateThatNoSizePassed() {
        // 512 nodes of 4 with Tree/Simple carrying the end: pinned there, β = τ·β/τ stands above the end's busbw
        // by 1/τ. A line rate just above every measured busbw holds β under it, one-run and joint alike
        double[] wide = {0.5, 1.2, 6, 60, 0.3, 0.9, 3, 0.9};
        AlgorithmEnvelopeModel m = at(512, 4);
        FitPoints p = synthetic(m, wide, 0);
        double most = java.util.Arrays.stream(p.busBwGBps()).max().orElseThrow();
        double line = 1.01 * most;
        double[] free = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(p);
        assertThat(free[ProtocolEnvelopeModel.BETA_INDEX]).isGreaterThan(line);
        double[] held = new AlgorithmEnvelopeEstimator("algorithms", "", m, line).estimate(p);
        assertThat(held[ProtocolEnvelopeModel.BETA_INDEX]).isLessThanOrEqualTo(line);
        double[] joint = AlgorithmEnvelopeEstimator.estimateJoint(List.of(m), List.of(p), List.of(line));
        assertThat(joint[ProtocolEnvelopeModel.BETA_INDEX]).isLessThanOrEqualTo(line);
        // the largest sizes are still met: the line rate is above every one of them
        int top = p.largest();
        assertThat(m.timeUs(p.bytes()[top], held) / p.timeUs()[top]).isCloseTo(1, within(0.05));
        // a line rate some measured size passed (a tree or NVLS did it) bounds nothing: the fit is the free one
        double[] passed = new AlgorithmEnvelopeEstimator("algorithms", "", m, 0.9 * most).estimate(p);
        assertThat(passed).containsExactly(free);
    }

    @Test
    void atHundredsOfRanksTheFitFindsTheTreeThatCarriesTheSmallSizes() {
        // 256 nodes of 4: Ring has 2 x 1023 link steps, Tree 2 x (3 + 8) = 22, so the small sizes are Tree's.
        // From starts that put the smallest size's latency on Ring's steps alone, this fit stopped with sizes 5 %
        // off (a slow network: Tree carries everything up to the large sizes).
        double[] slow = {0.5, 1.2, 3, 40, 0.3, 0.9, 3, 0.8};
        AlgorithmEnvelopeModel m = at(256, 4);
        FitPoints p = synthetic(m, slow, 0.005);
        assertThat(m.chosen(p.bytes()[0], slow).algorithm()).isEqualTo(Algorithm.TREE);
        double[] fit = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(p);
        for (int i = 0; i < p.size(); i++) {
            assertThat(m.timeUs(p.bytes()[i], fit) / m.timeUs(p.bytes()[i], slow)).as("%s bytes", p.bytes()[i])
                    .isCloseTo(1, within(0.02));
        }
    }

    @Test
    void whereTreeCarriesTheLargestSizesItsBandwidthIsTheSweepsEnd() {
        // 512 nodes of 4: Ring's 2 x 2047 steps of Simple latency keep it off every size up to 8 GiB, so Tree/Simple
        // carries the end, and the end's bandwidth pins τ·β (Ring's β then follows τ), not β alone
        double[] wide = {0.5, 1.2, 6, 60, 0.3, 0.9, 3, 0.9};
        AlgorithmEnvelopeModel m = at(512, 4);
        FitPoints p = synthetic(m, wide, 0);
        double top = p.bytes()[p.largest()];
        assertThat(m.chosen(top, wide)).isEqualTo(new AlgorithmEnvelopeModel.Choice(Algorithm.TREE, Protocol.SIMPLE));
        double[] fit = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(p);
        assertThat(m.chosen(top, fit).algorithm()).isEqualTo(Algorithm.TREE);
        double end = org.ncclharness.calibration.fit.TailBandwidth.of(p, AR.busFactor(m.config().ranks()))
                .orElseThrow().busBwGBps();
        assertThat(m.carrierBusBwGBps(top, fit)).isCloseTo(end, within(1e-9 * end));
        assertThat(m.carrierBusBwGBps(top, fit)).isCloseTo(m.carrierBusBwGBps(top, wide), within(0.02 * end));
        for (int i = 0; i < p.size(); i++) {
            assertThat(m.timeUs(p.bytes()[i], fit) / p.timeUs()[i]).as("%s bytes", p.bytes()[i])
                    .isCloseTo(1, within(0.02));
        }
    }

    @Test
    void theSweepsEndSetsTheBandwidthBeyondIt() {
        // a real 2-node A100 run whose busbw climbs from 167 GB/s at 256 MiB to 189 GB/s at 8 GiB: fitted on the sizes
        // up to 256 MiB, the bandwidth of its end (128-256 MiB) predicts every larger size within 6 %, where β fitted
        // with the rest over the same sizes (the joint fit's way) predicts them further off
        Dataset d = DatasetCatalog.bundled().find("a100_allreduce_16gpu_2node_ib_aks_ndmv4_jingchaozhang").orElseThrow();
        FitPoints all = FitPoints.from(d.sweep(), 16);
        FitPoints small = all.keep(i -> all.bytes()[i] <= 256.0 * (1 << 20));
        AlgorithmEnvelopeModel m = at(2, 8);
        double[] pinned = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(small);
        double[] free = AlgorithmEnvelopeEstimator.estimateJoint(List.of(m), List.of(small), Arrays.asList((Double) null));
        double pinnedSq = 0;
        double freeSq = 0;
        for (int i = small.size(); i < all.size(); i++) {
            double p = m.timeUs(all.bytes()[i], pinned) / all.timeUs()[i] - 1;
            double f = m.timeUs(all.bytes()[i], free) / all.timeUs()[i] - 1;
            assertThat(Math.abs(p)).as("%s bytes", all.bytes()[i]).isLessThan(0.06);
            pinnedSq += p * p;
            freeSq += f * f;
        }
        assertThat(all.size() - small.size()).isEqualTo(5);
        assertThat(pinnedSq).isLessThan(freeSq);
    }

    @Test
    void treeNeverGetsMoreThanNcclsShareOfTheRingsBandwidth() {
        // data whose Tree is as fast as the ring's full bus bandwidth: the fit holds τ at NCCL's 0.92
        double[] fast = THETA.clone();
        fast[AlgorithmEnvelopeModel.TREE_FACTOR] = 1.5;
        AlgorithmEnvelopeModel m = at(2, 8);
        double[] fit = new AlgorithmEnvelopeEstimator("algorithms", "", m).estimate(synthetic(m, fast, 0.005));
        assertThat(fit[AlgorithmEnvelopeModel.TREE_FACTOR]).isLessThanOrEqualTo(
                org.ncclharness.calibration.nccl.NcclTuning.forVersion(null).tuning().treeBusBwFactor());
    }

    @Test
    void aJointFitAtTwoScalesRecoversThePerStepParametersAndPredictsAThird() {
        List<AlgorithmEnvelopeModel> models = List.of(at(2, 8), at(4, 8));
        List<FitPoints> points = models.stream().map(m -> synthetic(m, THETA, 0.005)).toList();
        double[] fit = AlgorithmEnvelopeEstimator.estimateJoint(models, points, Collections.nCopies(models.size(), (Double) null));
        for (int j : new int[] {2, 3, AlgorithmEnvelopeModel.NET_LATENCY}) {
            assertThat(fit[j] / THETA[j]).as("parameter %d", j).isCloseTo(1, within(0.02));
        }
        AlgorithmEnvelopeModel far = at(16, 8);
        for (double b = 8; b <= 8L << 30; b *= 4) {
            assertThat(far.timeUs(b, fit) / far.timeUs(b, THETA)).as("%s bytes at 16x8", b).isCloseTo(1, within(0.02));
        }
    }

    @Test
    void withOneGpuPerDomainOnlyTheParametersTheDataTellApartAreFree() {
        // 2 hosts of 1 GPU: every step crosses the network (l_net is not told apart from l_p) and Tree takes Ring's
        // two steps with twice the bytes (never the faster): the envelope's six parameters
        assertThat(new AlgorithmEnvelopeEstimator("a", "", at(2, 1)).freeParameters())
                .doesNotContain("netStepLatencyUs", "treeBandwidthFactor").hasSize(6);
        assertThat(at(2, 1).whyNoTree()).hasValueSatisfying(w -> assertThat(w).contains("never the faster"));
        // 4 hosts of 1 GPU: Tree has 4 link steps against Ring's 6 and can carry the small sizes, so tau counts
        assertThat(new AlgorithmEnvelopeEstimator("a", "", at(4, 1)).freeParameters())
                .contains("treeBandwidthFactor").doesNotContain("netStepLatencyUs").hasSize(7);
        assertThat(new AlgorithmEnvelopeEstimator("a", "", at(2, 8)).freeParameters()).hasSize(8);
        // what is fixed stays where it starts: l_net at 0, and the fit still follows the data
        AlgorithmEnvelopeModel m = at(2, 1);
        double[] truth = THETA.clone();
        truth[AlgorithmEnvelopeModel.NET_LATENCY] = 0;
        double[] fit = new AlgorithmEnvelopeEstimator("a", "", m).estimate(synthetic(m, truth, 0.005));
        assertThat(fit[AlgorithmEnvelopeModel.NET_LATENCY]).isZero();
        for (double b = 8; b <= 8L << 30; b *= 8) {
            assertThat(m.timeUs(b, fit) / m.timeUs(b, truth)).as("%s bytes", b).isCloseTo(1, within(0.02));
        }
    }

    @Test
    void withRingTheOnlyCandidateOneRunDoesNotTellTheNetworkLatencyFromTheLinks() {
        // AllGather at 2 x 8: every protocol's alpha is 15 h l_p + 1 l_net, so only their sum is seen
        AlgorithmEnvelopeModel ag = new AlgorithmEnvelopeModel(Collective.ALL_GATHER, new TwoTierConfig(2, 8), 2);
        assertThat(new AlgorithmEnvelopeEstimator("a", "", ag).freeParameters())
                .doesNotContain("netStepLatencyUs", "treeBandwidthFactor").hasSize(6);
        // nor does an AllReduce that forced Ring
        assertThat(new AlgorithmEnvelopeModel(AR, new TwoTierConfig(2, 8), 2, true).netLatencyDetermined()).isFalse();
        // two configurations mix them in other proportions (1 of 15 steps, 3 of 31): a joint fit tells them apart
        List<AlgorithmEnvelopeModel> two = List.of(ag, ag.at(Scale.of(new TwoTierConfig(4, 8))));
        assertThat(AlgorithmEnvelopeModel.netLatencyDetermined(two)).isTrue();
        assertThat(AlgorithmEnvelopeEstimator.freeParameters(two)).contains("netStepLatencyUs").hasSize(7);
        double[] truth = THETA.clone();
        truth[AlgorithmEnvelopeModel.TREE_FACTOR] = 1;
        List<FitPoints> points = two.stream().map(m -> synthetic(m, truth, 0.005)).toList();
        double[] fit = AlgorithmEnvelopeEstimator.estimateJoint(two, points,
                Collections.nCopies(two.size(), (Double) null));
        assertThat(fit[AlgorithmEnvelopeModel.NET_LATENCY] / truth[AlgorithmEnvelopeModel.NET_LATENCY])
                .isCloseTo(1, within(0.05));
    }

    @Test
    void anAllToAllAcrossDomainsMovesOnlyTheOtherDomainsShareOverTheNetwork() {
        // 2 x 8: 8 of 15 peer exchanges cross, carrying half the bytes; nccl-tests' busbw counts (N-1)/N of them,
        // so the largest sizes show 15/8 of the network's rate
        AlgorithmEnvelopeModel a2a = new AlgorithmEnvelopeModel(Collective.ALL_TO_ALL, new TwoTierConfig(2, 8), 2);
        double[] unitNet = {0, 0, 0, 1e9, 1, 1, 1, 1};
        assertThat(a2a.alphaUs(Algorithm.RING, Protocol.LL, unitNet)).isEqualTo(8);
        assertThat(a2a.busCoefficient(Algorithm.RING)).isEqualTo(0.5);
        assertThat(a2a.carrierBusBwGBps(1L << 34, THETA))
                .isCloseTo(15.0 / 8 * THETA[ProtocolEnvelopeModel.BETA_INDEX], within(1e-9));
        // the sweep's end, pinned, is read back as the network's beta: the fit recovers it and the times
        double[] fit = new AlgorithmEnvelopeEstimator("algorithms", "", a2a).estimate(synthetic(a2a, THETA, 0.005));
        assertThat(fit[ProtocolEnvelopeModel.BETA_INDEX] / THETA[ProtocolEnvelopeModel.BETA_INDEX])
                .isCloseTo(1, within(0.02));
        for (double b = 8; b <= 8L << 30; b *= 8) {
            assertThat(a2a.timeUs(b, fit) / a2a.timeUs(b, THETA)).as("%s bytes", b).isCloseTo(1, within(0.02));
        }
    }

    @Test
    void aBroadcastAcrossDomainsIsAChainAtOneLinksBandwidth() {
        AlgorithmEnvelopeModel bc = new AlgorithmEnvelopeModel(Collective.BROADCAST, new TwoTierConfig(4, 8), 2);
        double[] unitLink = {1, 1, 1, 1e9, 1, 1, 0, 1};
        double[] unitNet = {0, 0, 0, 1e9, 1, 1, 1, 1};
        assertThat(bc.alphaUs(Algorithm.RING, Protocol.SIMPLE, unitLink)).isEqualTo(31 * 2);
        assertThat(bc.alphaUs(Algorithm.RING, Protocol.SIMPLE, unitNet)).isEqualTo(3);
        assertThat(bc.busCoefficient(Algorithm.RING)).isEqualTo(1);
        assertThat(bc.treeApplies()).isFalse();
        assertThat(bc.whyNoTree()).hasValueSatisfying(w -> assertThat(w).contains("AllReduce's"));
    }

    @Test
    void aJointFitLeavesRunsOnOneDomainOut() {
        List<AlgorithmEnvelopeModel> models = List.of(at(1, 8), at(2, 8), at(4, 8));
        assertThat(JointAlgorithmFit.fittedRuns(models)).containsExactly(1, 2);
        assertThat(JointAlgorithmFit.fittedRuns(List.of(at(1, 8), at(1, 4)))).containsExactly(0, 1);
        // a one-domain run at another bandwidth (NVLink's) would pull the shared beta: left out, the two runs across
        // domains still give back their parameters
        double[] nvlink = THETA.clone();
        nvlink[ProtocolEnvelopeModel.BETA_INDEX] = 3 * THETA[ProtocolEnvelopeModel.BETA_INDEX];
        List<FitPoints> points = List.of(synthetic(at(1, 8), nvlink, 0.005), synthetic(at(2, 8), THETA, 0.005),
                synthetic(at(4, 8), THETA, 0.005));
        org.ncclharness.calibration.fit.Fit fit = JointAlgorithmFit.fit("algorithms", "d",
                List.of("one-domain", "two", "four"), models, points, Collections.nCopies(models.size(), (Double) null));
        // the runs it fitted, by id, as a field: readers never take them back out of the description
        assertThat(fit.runs()).containsExactly("two", "four");
        assertThat(fit.description()).endsWith(" (fitted jointly on 2 configurations; 1 run on one domain left out: its"
                + " bandwidth is the intra-domain tier's, not the slower tier's that beta is across domains)");
        assertThat(fit.leaveOneOutNote()).isEqualTo("estimated by 10-fold cross-validation over the 2 runs' "
                + fit.inSample().points() + " points");
        assertThat(fit.theta()[ProtocolEnvelopeModel.BETA_INDEX] / THETA[ProtocolEnvelopeModel.BETA_INDEX])
                .isCloseTo(1, within(0.02));
        assertThat(fit.inSample().points()).isEqualTo(points.get(1).size() + points.get(2).size());
    }

    @Test
    void aJointFitSaysWhatItWasFittedOnInWordsThatReadRightAtAnyCount() {
        assertThat(JointAlgorithmFit.scope(1, 0)).isEqualTo(" (fitted on one configuration)");
        assertThat(JointAlgorithmFit.scope(3, 0)).isEqualTo(" (fitted jointly on 3 configurations)");
        assertThat(JointAlgorithmFit.scope(1, 2)).isEqualTo(" (fitted on one configuration; 2 runs on one domain left"
                + " out: their bandwidth is the intra-domain tier's, not the slower tier's that beta is across domains)");
        // one run across domains beside one on a domain: the fit's own description and cross-validation note
        List<AlgorithmEnvelopeModel> models = List.of(at(1, 8), at(2, 8));
        List<FitPoints> points = List.of(synthetic(at(1, 8), THETA, 0.005), synthetic(at(2, 8), THETA, 0.005));
        org.ncclharness.calibration.fit.Fit fit = JointAlgorithmFit.fit("algorithms", "d",
                List.of("one", "two"), models, points, Collections.nCopies(models.size(), (Double) null));
        assertThat(fit.description()).isEqualTo("d (fitted on one configuration; 1 run on one domain left out: its"
                + " bandwidth is the intra-domain tier's, not the slower tier's that beta is across domains)");
        assertThat(fit.leaveOneOutNote()).isEqualTo("estimated by 10-fold cross-validation over the run's "
                + points.get(1).size() + " points");
    }

    @Test
    void onOneDomainItIsTheSingleTierEnvelopeExactly() {
        Dataset d = DatasetCatalog.bundled().find("h100_allreduce_8gpu_azure_ndv5").orElseThrow();
        FitPoints p = FitPoints.from(d.sweep(), 8);
        AlgorithmEnvelopeModel alg = at(1, 8);
        ProtocolEnvelopeModel env = new ProtocolEnvelopeModel(AR, 8, 2);
        double[] a = new AlgorithmEnvelopeEstimator("algorithms", "", alg).estimate(p);
        double[] e = ProtocolEnvelopeEstimator.fitted("envelope", "", env).estimate(p);
        assertThat(new AlgorithmEnvelopeEstimator("algorithms", "", alg).freeParameters()).hasSize(6);
        for (double b = 8; b <= 8L << 30; b *= 2) {
            assertThat(alg.timeUs(b, a)).isEqualTo(env.timeUs(b, e));
        }
    }

    @Test
    void theGradientIsTheDerivativeOfTheTime() {
        GradientCheck.matchesCentralDifference(at(2, 8), THETA, 64, 1 << 20, 1L << 32);
    }

    @Test
    void aReportRebuildsTheModelAndItMovesToAnotherScale() {
        AlgorithmEnvelopeModel m = at(2, 8);
        assertThat(m.configuration().model()).isEqualTo(m);
        assertThat(m.at(Scale.of(new TwoTierConfig(8, 8))).config().ranks()).isEqualTo(64);
    }
}
