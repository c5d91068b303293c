package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.calibrate.RunBandwidthCeiling;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.harness.runs.CalibrationInputs;
import org.ncclharness.calibration.datasets.DatasetCatalog;

/**
 * The summary shows a limit only where the sizes reach it, and flags a busbw beyond every measured one: on the
 * bundled runs the issue names (GH200 512 GPUs at Alps, H100 p5 over EFA) and on every bundled run.
 */
class SummaryBoundsOnBundledRunsTest {

    private static List<CalibrationSummary.Row> rows(List<CalibrationInput> in) {
        return calibrated(in).stream().map(CalibrationSummary::row).flatMap(Optional::stream).toList();
    }

    private static List<CalibrationEntry> calibrated(List<CalibrationInput> in) {
        return CalibrationPipeline.calibrate(HardwareFacts.bundled(), CalibrationPipeline.glitches(in, false),
                CalibrationOptions.defaults(), Optional.empty(), FitProgress.NONE).entries();
    }

    private static CalibrationInput bundled(String id) {
        return CalibrationInputs.of(DatasetCatalog.bundled().get(id));
    }

    /** The highest busbw of the run, either half, any row: as printed, or from the time where it prints none. */
    private static double largestBusBw(CalibrationInput in) {
        Collective c = in.sweep().collective();
        int ranks = in.sweep().hardware().ranks();
        return in.sweep().rows().stream().flatMap(m -> java.util.stream.Stream.of(m.outOfPlace(), m.inPlace())
                        .map(h -> h.busBwGBps() != null ? h.busBwGBps() : h.timeUs() != null
                                ? c.busBwGBps(m.sizeBytes(), h.timeUs(), ranks) : null))
                .filter(b -> b != null).mapToDouble(Double::doubleValue).max().orElse(0);
    }

    @Test
    void theGh200AndP5BusBwBeyondEveryMeasuredOneIsFlagged() {
        List<String> ids = List.of("gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi",
                "h100_allreduce_16gpu_2node_aws_p5_efa_eks");
        List<CalibrationSummary.Row> rows = rows(ids.stream().map(SummaryBoundsOnBundledRunsTest::bundled).toList());
        assertThat(rows).hasSize(2);
        for (int i = 0; i < rows.size(); i++) {
            CalibrationSummary.Row r = rows.get(i);
            double measured = largestBusBw(bundled(ids.get(i)));
            assertThat(r.busBwGBps()).as(r.id()).isGreaterThan(measured * (1 + r.scorePct() / 100));
            assertThat(r.flags()).as(r.id()).contains("X");
        }
    }

    @Test
    void theOtherP5RunsBusBwWithinItsMeasuredOneIsNotFlaggedX() {
        // the same p5 system, its busbw within the fit's error of what it measured (which passed the EFA line
        // rate: R says so)
        CalibrationInput slurm = bundled("h100_allreduce_16gpu_2node_aws_p5_efa_slurm");
        CalibrationSummary.Row r = rows(List.of(slurm)).get(0);
        assertThat(r.busBwGBps()).isLessThanOrEqualTo(largestBusBw(slurm) * (1 + r.scorePct() / 100));
        assertThat(r.flags()).doesNotContain("X").contains("R");
    }

    @Test
    void noBundledRowShowsABusBwBeyondTheLargestMeasuredWithoutAFlag() {
        List<CalibrationInput> in = CalibrationInputs.bundled();
        List<CalibrationSummary.Row> rows = rows(in);
        assertThat(rows).hasSizeGreaterThan(50);
        for (CalibrationSummary.Row r : rows) {
            double measured = in.stream().filter(i -> i.id().equals(r.id())).mapToDouble(
                    SummaryBoundsOnBundledRunsTest::largestBusBw).findFirst().orElseThrow();
            if (r.busBwGBps() != null && r.busBwGBps() > measured * (1 + r.scorePct() / 100)) {
                assertThat(r.flags()).as(r.id() + ": busbw " + r.busBwGBps() + " over " + measured).contains("X");
            }
        }
    }

    /**
     * The GH200 512-GPU run with its NICs stated as a user would (--nics-per-host 4, 200 Gb/s each): the algorithm
     * envelope's β stays under what any algorithm moves between its 128 domains (100 GB/s x 511·128/(512·127)), so
     * the row no longer shows the 204 GB/s it showed without them; what it shows stays within what was measured.
     */
    @Test
    void theGh200RunWithItsNicsStatedKeepsItsBandwidthUnderTheCeiling() {
        CalibrationInput plain = bundled("gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi");
        CalibrationInput stated = new CalibrationInput(plain.id(), plain.sweep(), plain.forcedAlgo(), plain.flags(),
                new Nics(4, 25.0));
        double ceiling = 100.0 * 511 * 128 / (512 * 127);
        TwoTierCalibration t = (TwoTierCalibration) calibrated(List.of(stated)).get(0);
        for (Fit f : t.protocolFits()) {
            assertThat(f.theta()[ProtocolEnvelopeModel.BETA_INDEX]).as(f.name()).isLessThanOrEqualTo(ceiling);
        }
        CalibrationSummary.Row r = CalibrationSummary.row(t).orElseThrow();
        double measured = largestBusBw(stated);
        assertThat(r.busBwGBps() == null || r.busBwGBps() <= measured * (1 + r.scorePct() / 100)).as(
                r.busBwGBps() + " against " + measured).isTrue();
        assertThat(rows(List.of(plain)).get(0).busBwGBps()).as("without the NICs").isGreaterThan(2 * ceiling);
    }

    /**
     * Every bundled run across domains whose NICs the metadata states, and which no measured size passed: each
     * protocol-aware fit's β stays under what any algorithm moves between its domains.
     */
    @Test
    void noBundledFitPutsBetaAboveTheCeilingOfItsNics() {
        HardwareFacts facts = HardwareFacts.bundled();
        List<CalibrationInput> in = CalibrationInputs.bundled().stream().filter(i -> DatasetCatalog.bundled()
                .find(i.id()).map(d -> RunBandwidthCeiling.ceilingGBps(d, facts) != null).orElse(false)).toList();
        assertThat(in).hasSizeGreaterThanOrEqualTo(10);
        int held = 0;
        for (CalibrationEntry e : calibrated(in)) {
            if (!(e instanceof TwoTierCalibration t)) {
                continue;
            }
            double ceiling = RunBandwidthCeiling.ceilingGBps(DatasetCatalog.bundled().get(t.dataset().id()), facts);
            for (Fit f : t.protocolFits()) {
                assertThat(f.theta()[ProtocolEnvelopeModel.BETA_INDEX]).as(t.dataset().id() + " " + f.name())
                        .isLessThanOrEqualTo(ceiling);
                held++;
            }
        }
        assertThat(held).isGreaterThanOrEqualTo(20);
    }

    @Test
    void alphaFromSizesThatStartAt1GiBIsADashWithU() {
        CalibrationInput all = bundled("h100_allreduce_8gpu_azure_ndv5");
        List<Measurement> large = all.sweep().rows().stream().filter(m -> m.sizeBytes() >= 1L << 30).toList();
        assertThat(large).hasSizeGreaterThanOrEqualTo(3);
        CalibrationSummary.Row whole = rows(List.of(all)).get(0);
        CalibrationSummary.Row cut = rows(List.of(all.withSweep(all.sweep().withRows(large)))).get(0);
        assertThat(whole.alphaUs()).as("every size: alpha reached").isNotNull();
        assertThat(cut.alphaUs()).as("from 1 GiB up: alpha not reached").isNull();
        assertThat(cut.flags()).contains("U");
    }

    @Test
    void theBusBwOfALatencyOnlyRunIsADashWithU() {
        CalibrationInput small = bundled("h20_allreduce_16gpu_2node_ib_nvlstree_smallmsg_nccl1244_partial");
        CalibrationSummary.Row r = rows(List.of(small)).get(0);
        assertThat(r.busBwGBps()).isNull();
        assertThat(r.flags()).contains("U");
    }
}
