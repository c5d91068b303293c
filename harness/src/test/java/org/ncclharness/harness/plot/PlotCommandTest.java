package org.ncclharness.harness.plot;

import org.ncclharness.harness.figure.BusBwChartTest;
import org.ncclharness.harness.figure.Images;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

class PlotCommandTest {
    private static final String ID = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";
    private static final Path RAW = Path.of("../datasets/raw");

    @TempDir
    Path dir;

    @Test
    void drawsABundledDatasetAtTheRequestedSize() throws Exception {
        Path png = dir.resolve("f.png");
        CliRun run = CliRun.of("plot", ID, "--out", png.toString(), "--width", "640", "--height", "400");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("wrote " + png, "dataset: " + ID + " · N=16");
        BufferedImage img = Images.readPng(png);
        assertThat(img.getWidth()).isEqualTo(640);
        assertThat(img.getHeight()).isEqualTo(400);
    }

    @Test
    void oneSeriesPerInputWhateverItsKind() throws Exception {
        Path csv = dir.resolve("run.csv");
        assertThat(CliRun.of("convert", RAW.resolve(ID + ".txt").toString(), "--csv", csv.toString()).exitCode())
                .isZero();
        Path svg = dir.resolve("f.svg");
        CliRun run = CliRun.of("plot", ID, RAW.resolve("h100_allreduce_8gpu_1node_aws_p5_batch.txt").toString(),
                csv.toString(), "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactly(
                "dataset: " + ID + " · N=16", "stored: h100_allreduce_8gpu_1node_aws_p5_batch.txt · N=8", "stored: run.csv · N=16");
    }

    @Test
    void everyInputThatCannotBeReadIsNamedAndNothingIsDrawn() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.txt"), "");
        Path svg = dir.resolve("f.svg");
        for (String model : new String[] {null, "envelope"}) {
            List<String> args = new ArrayList<>(List.of("plot", ID, empty.toString(),
                    "no_such_dataset", "--out", svg.toString()));
            if (model != null) {
                args.addAll(List.of("--model", model));
            }
            CliRun run = CliRun.of(args.toArray(String[]::new));

            assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(run.err().strip().lines()).containsExactly(
                    "2 of the 3 inputs could not be used (each line says why and what to pass); nothing was written:",
                    empty + ": empty file; expected an nccl-tests log, a CSV or a JSON file",
                    "no_such_dataset: neither a file nor a bundled dataset id; `harness.jar datasets` lists the ids");
            assertThat(svg).doesNotExist();
        }
    }

    /**
     * Across hosts the dashed limit is the network's (every NIC of a host at its line rate), once the NIC count is
     * known; the real Dell H200 2-host run stands above it, and its legend says what that means.
     */
    @Test
    void aMultiHostRunIsDrawnUnderTheNetworksLineOnceItsNicsAreKnown() throws Exception {
        Path log = dir.resolve("dell.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_h200_2x8_roce_dell_schmaustech.txt"),
                log);
        Path svg = dir.resolve("net.svg");
        CliRun run = CliRun.of("plot", log.toString(), "--interconnect", "RoCE-400G", "--nics-per-host", "8",
                "--model", "algorithms", "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactly(
                "stored: dell.txt · N=16 [busbw 486 GB/s above the network's 400 GB/s: a tree or an in-network"
                        + " reduction]", "model algorithms (the model picked)", "β_phys RoCE-400G x 8 NICs: 400 GB/s");

        Path unknown = dir.resolve("no-nics.svg");
        assertThat(CliRun.of("plot", log.toString(), "--interconnect", "RoCE-400G", "--model", "algorithms", "--out",
                unknown.toString()).exitCode()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(unknown))))
                .noneMatch(l -> l.startsWith("β_phys"));
    }

    @Test
    void modelsAreCalibratedAndDrawnOverThePointsWithResiduals() throws Exception {
        Path svg = dir.resolve("m.svg");
        CliRun run = CliRun.of("plot", "h100_allreduce_8gpu_azure_ndv5", "--model", "B,naive", "--residuals",
                "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactlyInAnyOrder(
                "dataset: h100_allreduce_8gpu_azure_ndv5 · N=8 (in-place) [NVLS: busbw 479 GB/s above β_phys 450 GB/s]",
                "model B", "model naive", "β_phys NVLink4: 450 GB/s");
        assertThat(Images.parseSvg(svg).getDocumentElement().getAttribute("height")).isEqualTo("800.0");
    }

    /** A real AllGather log that names no program: its rows fit AllGather and AllToAll, and --collective decides. */
    @Test
    void collectiveNamesTheTablesTheRowsLeaveOpenAsCalibrateAsksFor() throws Exception {
        List<String> raw = Files.readAllLines(Path.of("../datasets/raw/b200_allgather_16gpu_2node_roce_gke_a4_dranet.txt"));
        Path log = dir.resolve("ag.txt");
        Files.write(log, raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size()));
        CliRun open = CliRun.of("plot", log.toString(), "--model", "envelope", "--interconnect", "RoCE-400G", "--out",
                dir.resolve("a.png").toString());
        assertThat(open.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(open.err()).contains("fit all_gather/alltoall/alltoallv; pass --collective NAME");
        CliRun named = CliRun.of("plot", log.toString(), "--model", "envelope", "--interconnect", "RoCE-400G",
                "--collective", "all_gather", "--out", dir.resolve("b.png").toString());
        assertThat(named.exitCode()).as(named.err()).isZero();
        assertThat(named.err()).doesNotContain("not drawn");
    }

    @Test
    void saysWhichModelsItCouldNotDraw() throws Exception {
        Path png = dir.resolve("m.png");
        CliRun run = CliRun.of("plot", "h100_allreduce_8gpu_azure_ndv5", ID, "--model", "A,B", "--out",
                png.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("h100_allreduce_8gpu_azure_ndv5: model A not drawn: no profile for")
                .contains(ID + ": model A not drawn: not fitted to this multi-domain run (it has: envelope,"
                        + " algorithms, two-tier)")
                .contains(ID + ": model B not drawn: not fitted to this multi-domain run");
    }

    /** --model with no name draws every model calibrate fits, its pick marked (as the README words it). */
    @Test
    void modelAloneDrawsEveryFittedModelWithThePickMarked() throws Exception {
        Path svg = dir.resolve("all.svg");
        CliRun run = CliRun.of("plot", ID, "--model", "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> legend = BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)));
        assertThat(legend).anySatisfy(l -> assertThat(l).endsWith("(the model picked)"))
                .anySatisfy(l -> assertThat(l).startsWith("model envelope"))
                .anySatisfy(l -> assertThat(l).startsWith("model algorithms"))
                .anySatisfy(l -> assertThat(l).startsWith("model two-tier"));
        CliRun typo = CliRun.of("plot", ID, "--model", "envelop", "--out", dir.resolve("t.svg").toString());
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err()).contains("unknown model envelop; known: fitted (every one fitted), A, B");
    }

    @Test
    void envelopeAndNcclAreDrawnOverASingleDomainRunAndNcclIsAnEstimate() throws Exception {
        Path svg = dir.resolve("e.svg");
        CliRun run = CliRun.of("plot", "h100_allreduce_8gpu_azure_ndv5", "--model", "B,envelope,nccl,two-tier",
                "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactly(
                "dataset: h100_allreduce_8gpu_azure_ndv5 · N=8 (in-place) [NVLS: busbw 479 GB/s above β_phys 450 GB/s]",
                "model B", "model envelope (the model picked)", "model nccl (NCCL 2.18.5 tuner estimate, not fitted)",
                "β_phys NVLink4: 450 GB/s");
        assertThat(run.err()).contains("h100_allreduce_8gpu_azure_ndv5: model two-tier not drawn: a single-domain run")
                .contains("h100_allreduce_8gpu_azure_ndv5: the nccl estimate assumes: graph not stated");
    }

    @Test
    void twoTierDrawsTheFittedFormsOfAMultiDomainRun() throws Exception {
        Path svg = dir.resolve("t.svg");
        CliRun run = CliRun.of("plot", ID, "--model", "two-tier,hierarchical,flat-ring,B,nccl", "--residuals",
                "--out", svg.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> legend = BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)));
        assertThat(legend).hasSize(6);
        // EFA has no fixed per-NIC figure: the line comes from the dataset's stated 32 x 100 Gb/s
        assertThat(legend.get(0)).isEqualTo("dataset: " + ID + " · N=16 [busbw 487 GB/s above the network's 400 GB/s:"
                + " a tree or an in-network reduction]");
        assertThat(legend.get(1)).matches("model two-tier (hierarchical|flat-ring) \\((the better form|forms within 1 %,"
                + " lower RMSPE)\\)");
        assertThat(legend.subList(2, 6)).containsExactly("model two-tier hierarchical", "model two-tier flat-ring",
                "model nccl (NCCL 2.30.7 tuner estimate, not fitted)", "β_phys EFA x 32 NICs: 400 GB/s");
        assertThat(run.err()).contains(ID + ": model B not drawn: not fitted to this multi-domain run (it has: envelope,"
                + " algorithms, two-tier)");
    }

    /**
     * A real 4-host log with three glitches: plot fits it as calibrate does, so the model it marks as picked is
     * calibrate's, glitches left out or (--keep-glitches) kept; and the protocol-aware families are drawn without
     * asking for a two-tier model too.
     */
    @Test
    void theModelMarkedPickedIsCalibratesWithGlitchesLeftOutOrKept() throws Exception {
        Path log = dir.resolve("4x8.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_h100_4x8_ib_ndr_qoofyk_issue309.txt"),
                log);
        for (List<String> keep : List.of(List.<String>of(), List.of("--keep-glitches"))) {
            Path json = dir.resolve("cal" + keep.size() + ".json");
            List<String> cal = new ArrayList<>(List.of("calibrate", log.toString(), "--interconnect",
                    "IB-NDR", "--json", json.toString()));
            cal.addAll(keep);
            assertThat(CliRun.of(cal.toArray(String[]::new)).exitCode()).isZero();
            String best = org.ncclharness.calibration.calibrate.CalibrationFile.read(json).dataset(log.toString()).best();
            Path svg = dir.resolve("p" + keep.size() + ".svg");
            List<String> plot = new ArrayList<>(List.of("plot", log.toString(), "--model",
                    "algorithms,envelope", "--interconnect", "IB-NDR", "--out", svg.toString()));
            plot.addAll(keep);
            CliRun run = CliRun.of(plot.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()).doesNotContain("not drawn");
            List<String> legend = BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)));
            assertThat(legend).as(keep.toString()).contains("model " + best + " (the model picked)")
                    .filteredOn(l -> l.endsWith("(the model picked)")).hasSize(1);
            // the glitches the fit left out are drawn hollow, in a legend entry of their own; kept, they are not
            assertThat(legend.stream().filter(l -> l.endsWith(": glitches left out of the fit")).count())
                    .as(keep.toString()).isEqualTo(keep.isEmpty() ? 1 : 0);
        }
        // the two tiers named as calibrate names them
        CliRun tiers = CliRun.of("plot", log.toString(), "--model", "algorithms", "--intra", "NVLink4", "--inter",
                "IB-NDR", "--out", dir.resolve("tiers.svg").toString());
        assertThat(tiers.exitCode()).as(tiers.err()).isZero();
        CliRun both = CliRun.of("plot", log.toString(), "--model", "algorithms", "--intra", "NVLink4",
                "--interconnect", "RoCE-100G", "--out", dir.resolve("both.svg").toString());
        assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(both.err()).contains("--interconnect RoCE-100G names a one-tier run's fabric, and --intra NVLink4"
                + " another");
    }

    @Test
    void ncclSaysWhyItHasNoEstimateForAnAmdRun() throws Exception {
        Path png = dir.resolve("a.png");
        CliRun run = CliRun.of("plot", "mi300x_allreduce_16gpu_2node_rccl_hisohara", "--model", "nccl", "--out",
                png.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("mi300x_allreduce_16gpu_2node_rccl_hisohara: model nccl not drawn: ")
                .contains("is not an NVIDIA GPU NCCL's tables cover (RCCL has its own tuner)");
    }

    @Test
    void modelOptionsAreChecked() {
        CliRun unknown = CliRun.of("plot", ID, "--model", "B,nope", "--out", dir.resolve("f.png").toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err().strip()).isEqualTo("--model: unknown model nope; known: fitted (every one fitted), A,"
                + " B, B+beta, naive, envelope, algorithms, nccl, two-tier, hierarchical, flat-ring");

        CliRun lonely = CliRun.of("plot", ID, "--residuals", "--out", dir.resolve("f.png").toString());
        assertThat(lonely.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(lonely.err()).contains("--residuals: residuals are a model's errors: add --model");

        CliRun file = CliRun.of("plot", RAW.resolve("h100_allreduce_8gpu_1node_aws_p5_batch.txt").toString(),
                "--model", "B", "--gpus", "8", "--out", dir.resolve("f.png").toString());
        assertThat(file.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(file.err()).contains("pass --interconnect NAME");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void neverOverwritesWithoutForce() throws Exception {
        Path png = dir.resolve("f.png");
        Files.writeString(png, "keep me");

        CliRun refused = CliRun.of("plot", ID, "--out", png.toString());
        assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err()).contains(png + ": already exists; pass --force");
        assertThat(Files.readString(png)).isEqualTo("keep me");

        assertThat(CliRun.of("plot", ID, "--out", png.toString(), "--force").exitCode()).isZero();
        assertThat(Images.readPng(png).getWidth()).isEqualTo(1000);
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        CliRun unknown = CliRun.of("plot", "no_such_dataset", "--out", dir.resolve("f.png").toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err().strip()).isEqualTo(
                "no_such_dataset: neither a file nor a bundled dataset id; `harness.jar datasets` lists the ids");

        CliRun format = CliRun.of("plot", ID, "--out", dir.resolve("f.jpg").toString());
        assertThat(format.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(format.err()).contains("f.jpg: unknown image format: name the file .png or .svg");

        CliRun size = CliRun.of("plot", ID, "--out", dir.resolve("f.png").toString(), "--width", "10");
        assertThat(size.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(size.err()).contains("image size 10x600 is outside");
        assertThat(dir).isEmptyDirectory();
    }
}
