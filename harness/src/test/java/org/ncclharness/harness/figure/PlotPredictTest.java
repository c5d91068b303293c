package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.model.RingTree;
import org.ncclharness.calibration.predict.Prediction;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code plot --predict}: predicted curves, labelled as such, and the Ring/Tree crossover where RingTree puts it. */
class PlotPredictTest {
    private static final String H100 = "h100_allreduce_8gpu_azure_ndv5";
    private static final String MULTI_DOMAIN = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";

    @TempDir
    Path dir;

    /** The size the chart marks: the first sampled size past RingTree's exact crossover. */
    @Test
    void ringFormulaRingAndTreeMarkRingTreesCrossover() throws Exception {
        Path svg = dir.resolve("rt.svg");
        Path png = dir.resolve("rt.png");
        String[] args = {"plot", "--predict", "--bandwidth", "25GB/s", "--step-latency", "10us", "--gpus", "8",
            "--algo", "Ring,Tree", "--out"};
        CliRun run = CliRun.of(concat(args, svg.toString()));
        assertThat(run.exitCode()).as(run.err()).isZero();

        // T_ring = 14(D/200e3 + 10), T_tree = 2D/25e3 + 60: equal at D = 80 / (2/25e3 - 14/200e3) = 8e6 bytes.
        RingTree rt = new RingTree(8, 2, 25, 25, 10);
        double exact = rt.crossoverBytes().orElseThrow();
        assertThat(exact).isCloseTo(8e6, org.assertj.core.data.Offset.offset(1e-3));
        // the marker is where the two curves meet, to the byte: the size predict prints, not the next sample
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(texts).contains("Tree/Ring crossover at " + BinarySizeFormat.of(Math.round(exact))
                + ": Ring faster from here");
        assertThat(texts).contains("Predicted AllReduce bus bandwidth");
        // The subtitle (the series' provenance) and the two curves: everything says "predicted".
        assertThat(BusBwChartTest.legendEntries(texts)).containsExactly("predicted: Ring/Tree from the ring formula:"
                + " B = 25 GB/s, L = 10 us, binary tree (h = 3, B_root = 25 GB/s) · N=8", "predicted: Ring",
                "predicted: Tree");
        assertThat(run.out()).contains("predicted Ring/Tree crossover at 8000000 bytes (7.63 MiB): Tree faster below,"
                + " Ring above");

        CliRun pngRun = CliRun.of(concat(args, png.toString()));
        assertThat(pngRun.exitCode()).as(pngRun.err()).isZero();
        BufferedImage img = Images.readPng(png);
        assertThat(img.getWidth()).isEqualTo(1000);
        assertThat(img.getHeight()).isEqualTo(600);
        assertThat(Images.distinctColours(img, 10)).isGreaterThan(2);
    }

    @Test
    void datasetRingAndTreeUsePredictsModelAndItsCrossover() throws Exception {
        Path svg = dir.resolve("ds.svg");
        CliRun run = CliRun.of("plot", H100, "--predict", "--dataset", H100, "--algo", "Tree,Ring", "--out",
                svg.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();

        RingTree rt = Prediction.ringTree(PredictionSources.dataset(H100, RingTreeFigure.DEFAULT_MODELS.get(0),
                HardwareFacts.bundled())).orElseThrow();
        double exact = rt.crossoverBytes().orElseThrow();
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(texts).contains("Tree/Ring crossover at " + BinarySizeFormat.of(Math.round(exact))
                + ": Ring faster from here");
        // Measured points beside the prediction keep their own label; the curves say "predicted".
        assertThat(BusBwChartTest.legendEntries(texts)).containsExactlyInAnyOrder("predicted: Tree (predicted:"
                + " Ring/Tree from B of dataset " + H100 + " (calibrated now): B = " + digits(rt.bwGBps()) + " GB/s, L = "
                + digits(rt.stepUs()) + " us, binary tree (h = 3, B_root = " + digits(rt.rootGBps()) + " GB/s) · N=8)",
                "predicted: Ring (predicted: Ring/Tree from B of dataset " + H100 + " (calibrated now): B = "
                        + digits(rt.bwGBps()) + " GB/s, L = " + digits(rt.stepUs()) + " us, binary tree (h = 3, B_root = "
                        + digits(rt.rootGBps()) + " GB/s) · N=8)",
                "dataset: " + H100 + " · N=8 (in-place)");

        // predict names the same crossover for the same model.
        CliRun predict = CliRun.of("predict", "--dataset", H100, "--model", "B", "--bytes", "1M");
        Matcher m = Pattern.compile("Tree is faster below [^(]+\\((\\d+) bytes\\)").matcher(predict.out());
        assertThat(m.find()).as(predict.out()).isTrue();
        assertThat(run.out()).contains("predicted Ring/Tree crossover at " + m.group(1) + " bytes");
    }

    /** A multi-domain calibration's algorithm envelope: Ring and Tree drawn, the crossover where predict puts it. */
    @Test
    void multiDomainAlgorithmsDrawRingAndTreeWithPredictsCrossover() throws Exception {
        Path svg = dir.resolve("md.svg");
        CliRun run = CliRun.of("plot", "--predict", "--dataset", MULTI_DOMAIN, "--nodes", "8", "--algo", "Ring,Tree",
                "--out", svg.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        CliRun predict = CliRun.of("predict", "--dataset", MULTI_DOMAIN, "--model", "algorithms", "--nodes", "8",
                "--bytes", "1M");
        Matcher m = Pattern.compile("Ring/Tree +: (.+)").matcher(predict.out());
        assertThat(m.find()).as(predict.out()).isTrue();
        assertThat(run.out()).contains("predicted Ring/Tree crossover: " + m.group(1));
        Matcher bytes = Pattern.compile("\\((\\d+) bytes\\)").matcher(m.group(1));
        assertThat(bytes.find()).as(m.group(1)).isTrue();
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(texts).anyMatch(t -> t.matches("(Tree/Ring|Ring/Tree) crossover at "
                + Pattern.quote(BinarySizeFormat.of(Long.parseLong(bytes.group(1)))) + ": .*"));
        assertThat(BusBwChartTest.legendEntries(texts)).contains("predicted: Ring", "predicted: Tree");
    }

    @Test
    void withoutAlgoTheModelsOwnPredictionIsDrawn() throws Exception {
        Path svg = dir.resolve("p.svg");
        CliRun run = CliRun.of("plot", "--predict", "--interconnect", "NVLink4", "--gpus", "8", "--out", svg.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(BusBwChartTest.legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactly(
                "predicted: B+beta from the bundled calibrations of NVLink4 · N=8", "predicted: B+beta");
        assertThat(run.err()).contains("plot: note: parameters borrowed from");
    }

    @Test
    void predictionOptionsAreChecked() {
        String out = dir.resolve("f.png").toString();
        String[] ring = {"--predict", "--bandwidth", "25GB/s", "--step-latency", "10us", "--gpus", "8"};

        assertUsage(CliRun.of(concat(concat(new String[] {"plot"}, ring), "--algo", "Ring,Star", "--out", out)),
                "--algo: unknown algorithm Star; known: Ring, Tree");
        assertUsage(CliRun.of(concat(concat(new String[] {"plot"}, ring), "--algo", "Ring,ring", "--out", out)),
                "--algo: Ring is named twice");
        assertUsage(CliRun.of(concat(concat(new String[] {"plot"}, ring), "--residuals", "--out", out)),
                "--residuals: a prediction has no measured times to be wrong about");
        assertUsage(CliRun.of("plot", H100, "--algo", "Ring,Tree", "--out", out), "--algo: describes a prediction:"
                + " add --predict");
        assertUsage(CliRun.of("plot", H100, "--bandwidth", "25GB/s", "--out", out), "describes a prediction");
        assertUsage(CliRun.of("plot", "--out", out), "name an INPUT");
        assertUsage(CliRun.of("plot", "--predict", "--bandwidth", "25GB/s", "--gpus", "8", "--out", out),
                "plot: --bandwidth needs --step-latency");
        // refused with what would work: the models of this source that have a Ring and a Tree
        assertUsage(CliRun.of("plot", "--predict", "--dataset", H100, "--model", "envelope", "--algo", "Ring,Tree",
                "--out", out), "--algo: Ring and Tree come from a single-tier alpha-beta AllReduce model (the ring"
                + " formula, A, B, B+beta, naive, datasheet), the algorithm envelope of a multi-domain AllReduce"
                + " (algorithms) or NCCL's tuner; envelope is protocol-envelope of AllReduce: pick B with --model");
        assertUsage(CliRun.of("plot", "--predict", "--dataset", MULTI_DOMAIN, "--model", "two-tier", "--algo",
                "Ring,Tree", "--out", out), "NCCL's tuner; two-tier is ");
        assertUsage(CliRun.of("plot", "--predict", "--dataset", MULTI_DOMAIN, "--model", "two-tier", "--algo",
                "Ring,Tree", "--out", out), ": pick algorithms with --model");
        assertThat(dir).isEmptyDirectory();
    }

    private static void assertUsage(CliRun run, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains(message);
    }

    private static String digits(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
