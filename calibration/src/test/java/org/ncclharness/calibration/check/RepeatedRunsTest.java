package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

class RepeatedRunsTest {

    private static final List<Measurement> ONE_RUN = DatasetCatalog.bundled()
            .get("h100_allreduce_8gpu_1node_aws_p5_batch").sweep().rows();

    private static List<Measurement> scaled(double f) {
        return ONE_RUN.stream().map(r -> new Measurement(r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(),
                new Half(r.outOfPlace().timeUs() * f, null, null, 0.0), r.inPlace())).toList();
    }

    @Test
    void threeRunsOfARealSweepKeepTheMedianRunPerSizeAndStateTheirSpread() {
        List<Measurement> rows = new ArrayList<>(scaled(1.3)); // as -N 3 prints them: run after run
        rows.addAll(scaled(1.0));
        rows.addAll(scaled(0.9));
        RepeatedRuns runs = RepeatedRuns.of(rows);
        assertThat(runs.median()).hasSize(ONE_RUN.size());
        for (int i = 0; i < ONE_RUN.size(); i++) {
            assertThat(runs.median().get(i).outOfPlace().timeUs()).isCloseTo(ONE_RUN.get(i).outOfPlace().timeUs(),
                    within(1e-9));
            assertThat(runs.fastest().get(i).outOfPlace().timeUs()).isCloseTo(0.9 * ONE_RUN.get(i).outOfPlace()
                    .timeUs(), within(1e-9));
            assertThat(runs.spread().get(i).runs()).isEqualTo(3);
            assertThat(runs.spread().get(i).spreadPct()).isCloseTo(40.0, within(1e-6));
        }
        assertThat(runs.atLargest().sizeBytes()).isEqualTo(ONE_RUN.get(ONE_RUN.size() - 1).sizeBytes());
    }

    @Test
    void oneRunIsItsOwnMedianWithNoSpread() {
        RepeatedRuns runs = RepeatedRuns.of(ONE_RUN);
        assertThat(runs.median()).isEqualTo(ONE_RUN).isEqualTo(runs.fastest());
        assertThat(runs.spread()).allSatisfy(s -> assertThat(s.spreadPct()).isZero());
    }
}
