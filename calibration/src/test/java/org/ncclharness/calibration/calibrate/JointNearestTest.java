package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * A joint calibration's model above its largest run: the fit on the runs nearest it, scored as
 * docs/model-accuracy.md's cross-scale rows score it (a group's smaller runs calibrated jointly, its largest
 * predicted; runs and target as calibrate fits them, measurement glitches left out).
 */
class JointNearestTest {

    /**
     * A cross-scale group of docs/model-accuracy.md with its rows' figures.
     *
     * @param nearestPct the algorithms-nearest row's RMSPE on the target
     * @param allRunsPct the algorithms row's (the pick, on every run)
     * @param floorPct   the best in-sample RMSPE on the target
     */
    private record Group(List<String> smaller, String target, TwoTierConfig at, String nearestRun, double nearestPct,
                         double allRunsPct, double floorPct) {
    }

    private static final Group ALPS = new Group(List.of("gh200_allreduce_4gpu_1node_alps_tunedcxi",
            "gh200_allreduce_8gpu_2node_slingshot_alps_tunedcxi", "gh200_allreduce_16gpu_4node_slingshot_alps_tunedcxi",
            "gh200_allreduce_32gpu_8node_slingshot_alps_tunedcxi", "gh200_allreduce_64gpu_16node_slingshot_alps_tunedcxi",
            "gh200_allreduce_128gpu_32node_slingshot_alps_tunedcxi",
            "gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi",
            "gh200_allreduce_1024gpu_256node_slingshot_alps_tunedcxi"),
            "gh200_allreduce_2048gpu_512node_slingshot_alps_tunedcxi", new TwoTierConfig(512, 4),
            "gh200_allreduce_1024gpu_256node_slingshot_alps_tunedcxi", 27.8, 35.5, 28.4);
    private static final Group POLARIS = new Group(List.of("a100_allreduce_8gpu_2node_slingshot_polaris_nccl2215",
            "a100_allreduce_32gpu_8node_slingshot_polaris_nccl2215",
            "a100_allreduce_1024gpu_256node_slingshot_polaris_nccl2215"),
            "a100_allreduce_2160gpu_540node_slingshot_polaris_nccl2215", new TwoTierConfig(540, 4),
            "a100_allreduce_1024gpu_256node_slingshot_polaris_nccl2215", 22.6, 24.6, 21.3);

    private static final TwoTierCalibrator TWO = new TwoTierCalibrator(HardwareFacts.bundled());

    /** A run as calibrate fits it, and as the doc scores it: measurement glitches left out. */
    private static CalibrationInput input(String id) {
        Dataset d = DatasetCatalog.bundled().get(id);
        return GlitchExclusion.of(new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags()),
                false).fitted();
    }

    private static TwoTierCalibration joint(Group g) {
        return TWO.joint("joint", g.smaller().stream().map(JointNearestTest::input).toList());
    }

    @Test
    void theNearestFitUsesTheLargestRunAloneAndIsNotThePick() {
        for (Group g : List.of(ALPS, POLARIS)) {
            TwoTierCalibration t = joint(g);
            Fit nearest = t.protocolFit(NearestConfigurations.MODEL).orElseThrow();
            assertThat(nearest.runs()).containsExactly(g.nearestRun());
            // the pick scores the models on every run; the nearest one is fitted on fewer
            assertThat(t.choice().picked()).isEqualTo(TwoTierCalibrator.ALGORITHMS);
            assertThat(CalibrationSummary.nearestLines(t)).first().asString()
                    .startsWith("# joint above its largest run: predict uses algorithms-nearest");
            assertThat(CalibrationSummary.nearestLines(t)).contains("#   " + g.nearestRun());
        }
    }

    @Test
    void theNearestRunsAreNamedWholeWhateverTheirIdsSay() {
        // a user's files name the runs: an id may hold the description's own separator (" + "), or its wording
        List<CalibrationInput> renamed = ALPS.smaller().stream().map(JointNearestTest::input)
                .map(i -> new CalibrationInput("alps + " + i.id() + ", the fewest runs nearest", i.sweep(), i.forcedAlgo(),
                        i.flags(), i.nics(), i.ncclEstimates(), i.loggedChannels()))
                .toList();
        TwoTierCalibration t = TWO.joint("joint", renamed);
        String largest = "alps + " + ALPS.nearestRun() + ", the fewest runs nearest";
        assertThat(t.protocolFit(NearestConfigurations.MODEL).orElseThrow().runs()).containsExactly(largest);
        assertThat(CalibrationSummary.nearestLines(t)).contains("#   " + largest);
    }

    @Test
    void predictingTheLargestRunMatchesTheDocsCrossScaleRows() {
        for (Group g : List.of(ALPS, POLARIS)) {
            TwoTierCalibration t = joint(g);
            double nearestPct = pct(g, t.protocolFit(NearestConfigurations.MODEL).orElseThrow());
            double allRunsPct = pct(g, t.protocolFit(TwoTierCalibrator.ALGORITHMS).orElseThrow());
            assertThat(nearestPct).as(g.target()).isCloseTo(g.nearestPct(), within(0.05));
            assertThat(allRunsPct).as(g.target()).isCloseTo(g.allRunsPct(), within(0.05));
            // the doc's verdict: within 1.25 x the floor, where the fit on every run is not (or only just)
            assertThat(nearestPct / g.floorPct()).as(g.target()).isLessThanOrEqualTo(1.25)
                    .isLessThan(allRunsPct / g.floorPct());
        }
    }

    private static double pct(Group g, Fit f) {
        AlgorithmEnvelopeModel m = ((AlgorithmEnvelopeModel) f.model()).at(Scale.of(g.at()));
        FitPoints p = FitPoints.from(input(g.target()).sweep(), g.at().ranks());
        double[] predicted = new double[p.size()];
        for (int i = 0; i < p.size(); i++) {
            predicted[i] = m.timeUs(p.bytes()[i], f.theta());
        }
        return Rmspe.of(p.bytes(), p.timeUs(), predicted).overallPct().orElseThrow();
    }
}
