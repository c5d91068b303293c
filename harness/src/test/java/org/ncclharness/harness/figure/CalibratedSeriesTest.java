package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.model.NcclBaseline;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.harness.runs.CalibrationInputs;

/** The curves plot draws are the calibrated models themselves, not a second calibration. */
class CalibratedSeriesTest {
    private static final String MULTI_DOMAIN = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";
    private static final long[] SIZES = {1L << 10, 1L << 20, 64L << 20, 1L << 30, 16L << 30};

    @Test
    void twoTierIsTheModelPredictUses() {
        HardwareFacts facts = HardwareFacts.bundled();
        Dataset d = DatasetCatalog.bundled().get(MULTI_DOMAIN);
        CalibrationInput in = CalibrationInputs.of(d);
        CalibrationEntry entry = new TwoTierCalibrator(facts).calibrate(in, CalibrationInputs.bundled());
        assertThat(entry).isInstanceOf(TwoTierCalibration.class);

        CalibratedSeries.Drawn drawn = CalibratedSeries.draw(d.sweep(), entry, null,
                List.of(CalibratedSeries.TWO_TIER, "hierarchical", "flat-ring"));
        assertThat(drawn.notDrawn()).isEmpty();
        PredictionModel predicted = PredictionSources.dataset(MULTI_DOMAIN, "two-tier", facts);
        ModelCurve better = drawn.series().models().get(0);
        String form = ((TwoTierCalibration) entry).best().orElseThrow().form().id();
        ModelCurve same = drawn.series().models().stream().filter(c -> c.name().equals("two-tier " + form))
                .findFirst().orElseThrow();
        for (long b : SIZES) {
            assertThat(better.timeUs().applyAsDouble(b)).as("%d bytes", b).isCloseTo(predicted.timeUs(b), within(1e-9));
            assertThat(same.timeUs().applyAsDouble(b)).isEqualTo(better.timeUs().applyAsDouble(b));
        }
        // The two forms are different curves.
        assertThat(drawn.series().models().get(1).timeUs().applyAsDouble(16L << 30))
                .isNotEqualTo(drawn.series().models().get(2).timeUs().applyAsDouble(16L << 30));
    }

    @Test
    void ncclIsNcclsTunerAtTheRunsConfiguration() {
        Dataset d = DatasetCatalog.bundled().get(MULTI_DOMAIN);
        NcclBaseline nccl = NcclBaseline.of(d.collective(), d.sweep().hardware(), d.metadata().ncclVersion(),
                d.metadata().nicsPerHost(), d.metadata().nicGbps());
        CalibrationEntry deferred = new org.ncclharness.calibration.calibrate.SingleTierCalibrator(HardwareFacts.bundled(),
                org.ncclharness.calibration.calibrate.CalibrationOptions.defaults()).calibrate(CalibrationInputs.of(d));

        CalibratedSeries.Drawn drawn = CalibratedSeries.draw(d.sweep(), deferred, nccl, List.of("nccl", "B"));
        assertThat(drawn.series().models()).hasSize(1);
        assertThat(drawn.notDrawn()).containsOnlyKeys("B");
        for (long b : SIZES) {
            assertThat(drawn.series().models().get(0).timeUs().applyAsDouble(b))
                    .isEqualTo(nccl.model().orElseThrow().timeUs(b, new double[0]));
        }
    }
}
