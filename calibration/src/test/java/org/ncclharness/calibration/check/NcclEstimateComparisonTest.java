package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Severity;

class NcclEstimateComparisonTest {

    private static Measurement row(long bytes, double timeUs) {
        Half h = new Half(timeUs, 1.0, 1.0, 0.0, null);
        return new Measurement(bytes, bytes / 4, "float", "sum", -1, h, h);
    }

    @Test
    void oneLinePerSixteenfoldBandWithTheGeometricMeanOfTheRatios() {
        List<Measurement> rows = List.of(row(1 << 20, 40), row(4 << 20, 80), row(64 << 10, 10));
        // 1 MiB measured 2× and 4 MiB 4× NCCL's estimate: geometric mean 2.83 (below the WARN ratio); 64 KiB 1.5×
        List<NcclEstimate> est = List.of(new NcclEstimate(0, 20), new NcclEstimate(1, 20), new NcclEstimate(2, 10 / 1.5));
        List<Finding> f = NcclEstimateComparison.findings(rows, est);
        assertThat(f).extracting(Finding::message).containsExactly(
                "measured 1.50× NCCL's own estimate at 64 KiB–1 MiB (1 size(s), out-of-place; NCCL's estimate is its"
                        + " tuning model's, coarse)",
                "measured 2.83× NCCL's own estimate at 1 MiB–16 MiB (2 size(s), out-of-place; NCCL's estimate is its"
                        + " tuning model's, coarse)");
        assertThat(f).extracting(Finding::severity).containsOnly(Severity.INFO);
        assertThat(f).extracting(Finding::rule).containsOnly(NcclEstimateComparison.RULE);
    }

    @Test
    void aBandOfLargeSizesFarSlowerThanNcclsModelWarnsButLatencyBoundOnesOnlyInform() {
        List<Measurement> rows = List.of(row(8, 50), row(16 << 20, 4000));
        List<Finding> f = NcclEstimateComparison.findings(rows, List.of(new NcclEstimate(0, 5), new NcclEstimate(1, 1000)));
        assertThat(f).extracting(Finding::severity).containsExactly(Severity.INFO, Severity.WARN);
        assertThat(f.get(1).message()).startsWith("measured 4.00× NCCL's own estimate at 16 MiB–256 MiB")
                .endsWith("above 3× is worth a look)");
    }

    @Test
    void rowsWithoutAnEstimateOrATimeAreLeftOut() {
        Half none = new Half(null, null, null, null, null);
        List<Measurement> rows = List.of(new Measurement(1024, 256, "float", "sum", -1, none, none), row(2048, 5));
        assertThat(NcclEstimateComparison.findings(rows, List.of(new NcclEstimate(0, 3), new NcclEstimate(7, 3))))
                .isEmpty();
        assertThat(NcclEstimateComparison.findings(rows, List.of())).isEmpty();
    }

    @Property
    void neverAFail(@ForAll @LongRange(min = 1, max = 1L << 36) long bytes,
                    @ForAll @DoubleRange(min = 0.01, max = 1e7) double timeUs,
                    @ForAll @DoubleRange(min = 0.01, max = 1e7) double estimateUs) {
        List<Measurement> rows = new ArrayList<>(List.of(row(bytes, timeUs)));
        assertThat(NcclEstimateComparison.findings(rows, List.of(new NcclEstimate(0, estimateUs))))
                .hasSize(1).allSatisfy(x -> assertThat(x.severity()).isNotEqualTo(Severity.FAIL));
    }
}
