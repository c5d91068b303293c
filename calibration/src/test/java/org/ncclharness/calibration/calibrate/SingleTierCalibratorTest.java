package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.SeedUtilisation;
import org.ncclharness.calibration.fit.SyntheticSweeps;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.nccl.Protocol;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;

class SingleTierCalibratorTest {

    private static final Hardware H200 = SyntheticSweeps.singleNode("NVIDIA H200", 8, "NVLink4");
    private final SingleTierCalibrator calibrator = new SingleTierCalibrator(HardwareFacts.bundled(),
            CalibrationOptions.defaults());

    private SingleTierCalibration single(Sweep s, List<String> flags) {
        CalibrationEntry e = calibrator.calibrate(new CalibrationInput("synthetic", s, null, flags));
        assertThat(e).isInstanceOf(SingleTierCalibration.class);
        return (SingleTierCalibration) e;
    }

    @Test
    void recoversKnownAlphaAndBetaAndReportsEveryModel() {
        double alpha = 40;
        double beta = 380;
        long max = 512L << 20;
        SingleTierCalibration c = single(SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, alpha, beta, 1024, max),
                List.of());
        Fit joint = c.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA).orElseThrow();
        assertThat(alphaOf(joint)).isCloseTo(alpha, within(0.01 * alpha));
        assertThat(joint.theta()[1]).isCloseTo(beta, within(0.01 * beta));
        // The seed's u_r carries the bias the formula predicts, to the busbw's printed precision.
        double f = Collective.ALL_REDUCE.busFactor(8);
        assertThat(c.seed().ur()).isCloseTo(SeedUtilisation.expectedBias(alpha, beta, f, max, 450), within(1e-4));
        assertThat(c.fits()).extracting(Fit::name).containsExactly("A", "B", "B+beta", "naive", "envelope");
        // Method A: the H200 profile's 59.5 µs, whatever the data say.
        assertThat(alphaOf(c.fit("A").orElseThrow())).isCloseTo(59.5, within(1e-9));
        assertThat(c.inNetworkFlag()).isNull();
        assertThat(c.best()).isEqualTo("B+beta");
        assertThat(c.bestBasis()).isEqualTo("leave-one-out");
    }

    @Test
    void aUserFixedLinkLatencyGivesTheKnownAnswer() {
        SingleTierCalibrator fixed = new SingleTierCalibrator(HardwareFacts.bundled(),
                new CalibrationOptions(0.936, null, Scoring.EVERY_FAMILY));
        Sweep s = SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 26.208, 400, 1024, 1L << 30);
        SingleTierCalibration c = (SingleTierCalibration) fixed.calibrate(CalibrationInput.of("h200", s));
        Fit b = c.fit("B").orElseThrow();
        assertThat(alphaOf(b)).isCloseTo(26.2, within(0.05));
        assertThat(b.freeParameters()).containsExactly("uR");
    }

    @Test
    void busBandwidthAboveThePhysicalPeakIsFlaggedFromTheDataAndCapped() {
        // 480 GB/s effective on NVLink4 (450 GB/s): only in-network reduction does that.
        SingleTierCalibration c = single(SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 30, 485, 1024,
                8L << 30), List.of());
        assertThat(c.inNetworkFlag()).isEqualTo("NVLS");
        assertThat(c.seed().ur()).isEqualTo(0.92);
        assertThat(c.seed().measuredUr()).isGreaterThan(1.0);
        assertThat(Note.texts(c.notes())).anyMatch(n -> n.startsWith("NVLS:"));
    }

    @Test
    void multiDomainRunsAwaitTheTwoTierFit() {
        Hardware twoNodes = new Hardware("NVIDIA H100", 16, 2, 8, 2, "NVLink4", "IB-NDR");
        CalibrationEntry e = calibrator.calibrate(CalibrationInput.of("x",
                SyntheticSweeps.ring(Collective.ALL_REDUCE, twoNodes, 50, 100, 1024, 1L << 30)));
        assertThat(e).isInstanceOf(DeferredCalibration.class);
        assertThat(((DeferredCalibration) e).awaiting()).isEqualTo(DeferredCalibration.TWO_TIER);
    }

    @Test
    void oneGpuPerNodeIsASingleTierOverTheNetwork() {
        Hardware tcp = new Hardware("NVIDIA L40S", 2, 2, 1, 2, null, "TCP");
        SingleTierCalibration c = single(SyntheticSweeps.ring(Collective.ALL_REDUCE, tcp, 60, 8, 1024, 1L << 28),
                List.of());
        assertThat(c.interconnect()).isEqualTo("TCP");
        assertThat(c.seed().ur()).isNull();
        assertThat(c.unavailable()).containsKey("naive");
    }

    @Test
    void latencyOnlyDataCalibrateAlphaOnly() {
        SingleTierCalibration c = single(SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 15, 400, 8, 4096),
                List.of());
        assertThat(c.identifiability().label()).isEqualTo("alpha-only");
        assertThat(c.fit("B+beta")).isEmpty();
        assertThat(alphaOf(c.fit("B").orElseThrow())).isCloseTo(15, within(0.2));
        assertThat(c.fit("B").orElseThrow().marks()).anyMatch(m -> m.startsWith("beta not calibrated"));
    }

    @Test
    void bandwidthOnlyDataCalibrateBetaOnlyAndAMetadataDeclarationDecides() {
        Sweep s = SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 200, 400, 128L << 20, 8L << 30);
        SingleTierCalibration fromData = single(s, List.of());
        assertThat(fromData.identifiability().label()).isEqualTo("alpha+beta");
        SingleTierCalibration declared = single(s, List.of("bandwidth-only"));
        assertThat(declared.identifiability().label()).isEqualTo("beta-only");
        assertThat(declared.fit("B+beta").orElseThrow().theta()[0]).isZero();
        assertThat(Note.texts(declared.notes())).anyMatch(n -> n.contains("metadata flag bandwidth-only decides"));
    }

    @Test
    void aSweepThatKnowsNOnlyFromItsDeviceLinesIsCalibratedAtThatN() {
        Sweep s = SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 30, 400, 1024, 1L << 30);
        List<Device> devices = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
            devices.add(new Device(r, 0, 1, "node", r, "0x" + r, "NVIDIA H200"));
        }
        Sweep fromDevices = new Sweep(s.provenance(), s.collective(), s.run(),
                new Hardware("NVIDIA H200", null, 1, null, 1, "NVLink4", null), devices, s.rows(), List.of());
        SingleTierCalibration c = single(fromDevices, List.of());
        assertThat(c.ranks()).isEqualTo(8);
    }

    @Test
    void mixedConfigurationsAreNotFitted() {
        CalibrationEntry e = calibrator.calibrate(new CalibrationInput("x",
                SyntheticSweeps.ring(Collective.ALL_REDUCE, H200, 20, 400, 1024, 1L << 30), null,
                List.of("mixed-configurations")));
        assertThat(e).isInstanceOf(DeferredCalibration.class);
        assertThat(((DeferredCalibration) e).awaiting()).isNull();
    }

    @Test
    void theNvlsFlagFiresOnTheHopperNvlsDatasetsAndNotOnTheA100OnesWithMetadataStrippedToTheConfiguration() {
        for (String id : List.of("h200_allreduce_8gpu_azure_ndv5", "h100_allreduce_8gpu_azure_ndv5",
                "h100_allreduce_8gpu_1node_aws_p5_batch")) {
            assertThat(flagOfStripped(id)).as(id).isEqualTo("NVLS");
        }
        for (String id : List.of("a100_allreduce_8gpu_azure_ndv4", "a100_allreduce_8gpu_oci_bmgpu48",
                "a100_allreduce_8gpu_1node_azureml_ndv4_jzazure")) {
            assertThat(flagOfStripped(id)).as(id).isNull();
        }
    }

    @Test
    void theEnvelopesEfficienciesStayAtMostOneSoSimpleCarriesTheLargestSizes() {
        // the 8-node Polaris run calibrated as one tier of 32 GPUs: with η free its envelope put LL128 at 1.61 times
        // Simple's bandwidth and carried the largest sizes on it, which NCCL never does; held at most 1, Simple
        // carries them and beyond
        Dataset polaris = DatasetCatalog.bundled().get("a100_allreduce_32gpu_8node_slingshot_polaris_nccl2215");
        SingleTierCalibration c = single(oneTier(polaris), List.of());
        Fit envelope = c.fit("envelope").orElseThrow();
        ProtocolEnvelopeModel m = (ProtocolEnvelopeModel) envelope.model();
        assertThat(ProtocolEnvelopeModel.efficiency(Protocol.LL, envelope.theta())).isLessThanOrEqualTo(1);
        assertThat(ProtocolEnvelopeModel.efficiency(Protocol.LL128, envelope.theta())).isLessThanOrEqualTo(1);
        double largest = envelope.residuals().stream().mapToDouble(Residual::bytes).max().orElseThrow();
        for (double bytes : new double[] {largest, 1e12, 1e15}) {
            assertThat(m.chosen(bytes, envelope.theta())).as("%.3g B", bytes).isEqualTo(Protocol.SIMPLE);
        }
    }

    /**
     * A real RTX 4090 pair (PCIe, docker, 2.24 GB/s) calibrated as if on NVLink4 is told the fabric looks wrong; on
     * its own PCIe4, at 7 % of the line rate (P2P off), and on every other bundled one-tier run, nothing is said.
     */
    @Test
    void aFabricFarAboveWhatTheRunReachedIsQuestioned() {
        Dataset d = DatasetCatalog.bundled().get("rtx4090_allreduce_2gpu_1node_docker_kalavai");
        Hardware hw = d.sweep().hardware();
        Sweep onNvlink = d.sweep().withHardware(new Hardware(hw.gpuModel(), hw.ranks(), hw.hosts(), hw.domainSize(),
                hw.domains(), "NVLink4", null));
        assertThat(Note.texts(single(onNvlink, d.metadata().flags()).notes())).anySatisfy(n -> assertThat(n)
                .startsWith("busbw peaks at 2.24 GB/s, 0.5 % of NVLink4's 450 GB/s: is the interconnect right?"));
        SingleTierCalibrator cal = new SingleTierCalibrator(HardwareFacts.bundled(), CalibrationOptions.defaults());
        for (Dataset x : DatasetCatalog.bundled().all()) {
            if (cal.calibrate(new CalibrationInput(x.id(), x.sweep(), x.metadata().algo(), x.metadata().flags()))
                    instanceof SingleTierCalibration c) {
                assertThat(Note.texts(c.notes())).as(x.id()).noneMatch(n -> n.contains("is the interconnect right?"));
            }
        }
    }

    /**
     * One pick everywhere: a 5-size run (CoreWeave's GB200 NVL72) has the points for leave-one-out of the models with
     * no parameter only; B+beta is compared by generalized cross-validation, in-sample / (1 - k/5), rather than
     * passed over for the datasheet's naive line at 17.6 %.
     */
    @Test
    void aFamilyTooSmallForLeaveOneOutIsComparedByGeneralizedCrossValidation() {
        Dataset d = DatasetCatalog.bundled().get("gb200_allreduce_nvl72_coreweave");
        SingleTierCalibration c = (SingleTierCalibration) calibrator.calibrate(new CalibrationInput(d.id(), d.sweep(),
                d.metadata().algo(), d.metadata().flags()));
        assertThat(c.best()).isEqualTo(SingleTierCalibrator.METHOD_B_FITTED_BETA);
        assertThat(c.bestBasis()).isEqualTo(SingleTierCalibration.BY_GCV);
        Fit bBeta = c.fit(c.best()).orElseThrow();
        assertThat(bBeta.leaveOneOut()).isNull();
        int k = bBeta.freeParameters().size();
        assertThat(c.bestScorePct()).isCloseTo(bBeta.inSample().overallPct().getAsDouble() / (1 - (double) k / 5),
                within(1e-9));
        assertThat(c.bestScorePct()).isLessThan(c.fit("naive").orElseThrow().leaveOneOut().overallPct().getAsDouble());
    }

    /**
     * A run whose data check failed at one size is fitted as measured, and its calibration says so: a note, and
     * flag W in the summary row (the whole report prints it only under --verbose otherwise).
     */
    @Test
    void rowsThatFailedTheDataCheckAreNotedAndFlagged() {
        Dataset d = DatasetCatalog.bundled().get("h100_allreduce_8gpu_azure_ndv5");
        List<Measurement> rows = new java.util.ArrayList<>(d.sweep().rows());
        Measurement r = rows.get(3);
        Half h = r.outOfPlace();
        rows.set(3, new Measurement(r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(),
                new Half(h.timeUs(), h.algBwGBps(), h.busBwGBps(), 7.0, null), r.inPlace()));
        Sweep broken = new Sweep(d.sweep().provenance(), d.sweep().collective(), d.sweep().run(),
                d.sweep().hardware(), d.sweep().devices(), rows, d.sweep().notes(), d.sweep().trailer());
        SingleTierCalibration c = (SingleTierCalibration) calibrator.calibrate(new CalibrationInput(d.id(), broken,
                d.metadata().algo(), d.metadata().flags()));
        assertThat(Note.texts(c.notes())).anySatisfy(n -> assertThat(n).startsWith("1 of its " + rows.size()
                + " rows report #wrong > 0: nccl-tests' data check failed"));
        java.io.StringWriter w = new java.io.StringWriter();
        CalibrationSummary.write(new java.io.PrintWriter(w, true), new CalibrationReport(List.of(c)));
        assertThat(w.toString().lines().filter(l -> l.startsWith(d.id())).findFirst().orElseThrow()).endsWith("W");
        SingleTierCalibration clean = (SingleTierCalibration) calibrator.calibrate(new CalibrationInput(d.id(),
                d.sweep(), d.metadata().algo(), d.metadata().flags()));
        assertThat(Note.texts(clean.notes())).noneMatch(n -> n.contains("#wrong"));
    }

    /** The dataset's rows with nothing but GPU model, N and interconnect: no flags, no notes, no algo. */
    private String flagOfStripped(String id) {
        return single(oneTier(DatasetCatalog.bundled().get(id)), List.of()).inNetworkFlag();
    }

    /** A dataset's rows as one domain of all its GPUs over its intra-domain fabric, with nothing else known. */
    private static Sweep oneTier(Dataset d) {
        Sweep full = d.sweep();
        Hardware hw = new Hardware(null, full.hardware().ranks(), 1, full.hardware().ranks(), 1,
                full.hardware().intra(), null);
        return new Sweep(Provenance.stored(d.id()), full.collective(), RunInfo.unknown(), hw, List.of(), full.rows(),
                List.of());
    }

    private static double alphaOf(Fit f) {
        return ((SingleTierModel) f.model()).alphaUs(f.theta());
    }
    /** predict --interconnect fits B+beta alone: the same parameters as the full calibration's, no other model. */
    @Test
    void oneModelAloneFitsAsInTheFullCalibration() {
        SingleTierCalibrator alone = calibrator.only(SingleTierCalibrator.METHOD_B_FITTED_BETA);
        int compared = 0;
        for (Dataset d : DatasetCatalog.bundled().all()) {
            CalibrationInput in = new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags());
            if (SingleTierCalibrator.interconnectOf(d.hardware(), HardwareFacts.bundled()).isEmpty()) {
                assertThat(alone.calibrate(in)).isInstanceOf(DeferredCalibration.class);
                continue;
            }
            if (!(calibrator.calibrate(in) instanceof SingleTierCalibration full)
                    || full.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA).isEmpty()) {
                assertThat(alone.calibrate(in)).isInstanceOf(DeferredCalibration.class);
                continue;
            }
            SingleTierCalibration one = (SingleTierCalibration) alone.calibrate(in);
            assertThat(one.fits()).extracting(Fit::name).containsExactly(SingleTierCalibrator.METHOD_B_FITTED_BETA);
            assertThat(one.fits().get(0).theta())
                    .containsExactly(full.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA).get().theta());
            assertThat(one.identifiability()).isEqualTo(full.identifiability());
            assertThat(one.interconnect()).isEqualTo(full.interconnect());
            compared++;
        }
        assertThat(compared).isGreaterThan(10);
    }
}
