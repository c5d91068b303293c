package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.hardware.HardwareFacts;

/** The bound's alternative is the envelope fitted without the ceiling, and the bounded fit itself where none is set. */
class CeilingVariantsTest {

    private static final String RUN = "a100_allreduce_16gpu_2node_aws_p4d_efa_eks";

    private final Dataset d = DatasetCatalog.bundled().get(RUN);
    private final FitPoints points = FitPoints.from(d.sweep(), d.sweep().hardware().ranks());
    private final ProtocolEnvelopeEstimator envelope = (ProtocolEnvelopeEstimator) Candidates
            .forDataset(d, points, HardwareFacts.bundled()).stream().filter(c -> c.model().equals(Candidates.ENVELOPE))
            .findFirst().orElseThrow().estimator();

    /** The bounded family as the report scored it: only that it applies matters here. */
    private ModelScores bounded() {
        return new ModelScores(Candidates.ENVELOPE, 6, Fitter.inSample(envelope, points, List.of()).inSample(), null,
                OptionalDouble.empty(), null, null, HeldOut.interleaved(envelope, points),
                HeldOut.extrapolation(envelope, points), List.of());
    }

    @Test
    void aBindingCeilingIsLeftOutOfTheVariant() {
        // the largest measured busbw itself: no size passed it (a ceiling a size passed is dropped), and the
        // free fit's beta, from the line through the sweep's end, stands above it
        double low = Arrays.stream(points.busBwGBps()).max().orElseThrow();
        ProtocolEnvelopeEstimator capped = envelope.withCeiling(low);
        List<Candidate> candidates = List.of(new Candidate(Candidates.ENVELOPE, capped, null));
        List<ModelScores> out = CeilingVariants.of(candidates, List.of(bounded()), points);
        assertThat(out).hasSize(1);
        ModelScores variant = out.get(0);
        assertThat(variant.model()).isEqualTo("envelope-no-ceiling");
        double free = Fitter.inSample(envelope.withCeiling(null), points, List.of()).inSample().overallPct()
                .getAsDouble();
        double bent = Fitter.inSample(capped, points, List.of()).inSample().overallPct().getAsDouble();
        assertThat(variant.inSample().overallPct()).hasValue(free);
        assertThat(free).isLessThan(bent);
        assertThat(variant.interleaved().pct()).isEqualTo(HeldOut.interleaved(envelope.withCeiling(null), points).pct());
    }

    @Test
    void withoutACeilingTheVariantIsTheBoundedFitRenamed() {
        List<Candidate> candidates = List.of(new Candidate(Candidates.ENVELOPE, envelope.withCeiling(null), null));
        ModelScores b = bounded();
        ModelScores variant = CeilingVariants.of(candidates, List.of(b), points).get(0);
        assertThat(variant.model()).isEqualTo("envelope-no-ceiling");
        assertThat(variant.interleaved()).isSameAs(b.interleaved());
        assertThat(variant.extrapolation()).isSameAs(b.extrapolation());
    }
}
