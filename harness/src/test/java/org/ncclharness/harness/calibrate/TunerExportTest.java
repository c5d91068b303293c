package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.export.TunerExport;
import org.ncclharness.calibration.export.TunerPick;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.harness.runs.CalibrationInputs;

/**
 * The tuner export read back with the example plugin's own rules ({@link ExamplePluginParser}): per size it picks
 * what the model (a multi-node calibration) or the measurement (an --algo/--proto matrix) says.
 */
class TunerExportTest {

    private static CalibrationReport calibrate(List<CalibrationInput> in) {
        return CalibrationPipeline.calibrate(HardwareFacts.bundled(), CalibrationPipeline.glitches(in, true),
                CalibrationOptions.defaults(), Optional.empty(), FitProgress.NONE);
    }

    private static CalibrationInput bundled(String id) {
        return CalibrationInputs.of(DatasetCatalog.bundled().get(id));
    }

    /** Sizes to look up: each power of two from 1 B to 1 TiB and its neighbours. */
    private static List<Long> probes() {
        List<Long> out = new ArrayList<>(List.of(0L));
        for (int k = 0; k <= 40; k++) {
            out.addAll(List.of((1L << k) - 1, 1L << k, (1L << k) + 1));
        }
        return out;
    }

    @Test
    void aMultiNodeCalibrationReadsBackAsItsModelsPickAtEverySize() {
        List<String> ids = List.of("h100_allreduce_16gpu_2node_aws_p5_efa_eks",
                "gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi");
        CalibrationReport report = calibrate(ids.stream().map(TunerExportTest::bundled).toList());
        TunerExport.Result export = ExportOption.tuner(report, List.of(), ids);
        List<ExamplePluginParser.Row> rows = ExamplePluginParser.parse(export.text());

        assertThat(rows).hasSize(export.rows().size()).allMatch(ExamplePluginParser.Row::namesKnown)
                .allMatch(r -> r.channels() == -1 && r.pipeOps() == -1 && r.regBuff() == -1);
        for (var e : report.entries()) {
            TwoTierCalibration t = (TwoTierCalibration) e;
            Fit fit = t.protocolFit(t.choice().picked()).orElseThrow();
            DoubleFunction<String> expected = envelopePick(fit.model(), fit.theta());
            int ranks = t.dataset().hardware().ranks();
            int nodes = t.dataset().hardware().hosts();
            for (long b : probes()) {
                ExamplePluginParser.Row hit = ExamplePluginParser.lookup(rows, "allreduce", b, nodes, ranks)
                        .orElseThrow(() -> new AssertionError("no row for " + b + " B at " + ranks + " ranks"));
                assertThat(hit.algorithm() + "/" + hit.protocol()).as("%s at %d B", t.dataset().id(), b)
                        .isEqualTo(expected.apply(b));
                assertThat(hit.comment()).startsWith("# model: " + t.dataset().id());
            }
            // another scale matches no row: NCCL keeps its own choice there
            assertThat(ExamplePluginParser.lookup(rows, "allreduce", 1024, nodes, ranks * 2)).isEmpty();
        }
        assertThat(export.measuredRows()).isZero();
    }

    @Test
    void aMatrixReadsBackAsTheMeasuredWinnerWhereMeasuredAndSaysSo() {
        // A matrix measured on one system: the bundled p5 run's times reshaped per combination so each protocol
        // wins a band (small: LL, middle: LL128, large: Simple) -- the test knows every winner by construction
        Sweep base = DatasetCatalog.bundled().get("h100_allreduce_8gpu_1node_aws_p5_batch").sweep();
        Map<String, DoubleUnaryOperator> shapes = new LinkedHashMap<>();
        shapes.put("Ring/LL", s -> 0.5 + s / Math.pow(2, 20));
        shapes.put("Ring/LL128", s -> 0.75 + s / Math.pow(2, 26));
        shapes.put("Ring/Simple", s -> 1.0);
        List<CalibrationInput> in = new ArrayList<>();
        Map<String, TunerPick> combos = new LinkedHashMap<>();
        for (var e : shapes.entrySet()) {
            String id = "matrix." + e.getKey().toLowerCase(Locale.ROOT).replace('/', '-') + ".json";
            String[] ap = e.getKey().split("/");
            combos.put(id, TunerPick.of(ap[0], ap[1]).orElseThrow());
            in.add(new CalibrationInput(id, base.withRows(base.rows().stream().map(m -> scaled(m,
                    e.getValue().applyAsDouble(m.sizeBytes()))).toList()), ap[0], List.of()));
        }
        CalibrationReport report = calibrate(in);
        TunerExport.Result export = TunerExport.of(report, combos, List.of("test"));
        List<ExamplePluginParser.Row> rows = ExamplePluginParser.parse(export.text());

        assertThat(rows).allMatch(ExamplePluginParser.Row::namesKnown);
        assertThat(export.measuredRows()).isPositive();
        for (Measurement m : base.rows()) {
            if (m.outOfPlace().timeUs() == null) {
                continue;
            }
            String winner = shapes.entrySet().stream().min((a, b) -> Double.compare(
                    a.getValue().applyAsDouble(m.sizeBytes()), b.getValue().applyAsDouble(m.sizeBytes())))
                    .orElseThrow().getKey().toLowerCase(Locale.ROOT);
            ExamplePluginParser.Row hit = ExamplePluginParser.lookup(rows, "allreduce", m.sizeBytes(), 1, 8)
                    .orElseThrow();
            assertThat(hit.algorithm() + "/" + hit.protocol()).as("%d B", m.sizeBytes()).isEqualTo(winner);
            assertThat(hit.comment()).as("%d B", m.sizeBytes()).startsWith("# measured:");
        }
        // beyond the largest measured size the models decide, and the file says so
        long largest = base.rows().stream().mapToLong(Measurement::sizeBytes).max().orElseThrow();
        assertThat(ExamplePluginParser.lookup(rows, "allreduce", largest + 1, 1, 8).orElseThrow().comment())
                .startsWith("# model:");
    }

    /** The README's example is what the command prints and writes, the file's place shortened to its name. */
    @Test
    void theReadmeExampleIsWhatTheCommandWrites(@TempDir Path dir) throws IOException {
        Path conf = dir.resolve("tuner.conf");
        CliRun run = CliRun.of("calibrate", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm", "--nccl-tuner",
                conf.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> out = run.out().lines().toList();
        String shown = out.get(out.size() - 1).replace(conf.toString(), "tuner.conf") + "\n$ cat tuner.conf\n"
                + Files.readString(conf);
        String readme = Files.readString(Path.of("../README.md"));
        String start = "$ java -jar harness.jar calibrate h100_allreduce_16gpu_2node_aws_p5_efa_slurm --nccl-tuner"
                + " tuner.conf | tail -1\n";
        int from = readme.indexOf(start);
        assertThat(from).as("the README's tuner example").isNotNegative();
        from += start.length();
        assertThat(readme.substring(from, readme.indexOf("```", from))).isEqualTo(shown);
    }

    private static Measurement scaled(Measurement m, double factor) {
        return new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(), scaled(m.outOfPlace(), factor),
                scaled(m.inPlace(), factor));
    }

    private static Half scaled(Half h, double factor) {
        return h.timeUs() == null ? h : new Half(h.timeUs() * factor, h.algBwGBps() == null ? null
                : h.algBwGBps() / factor, h.busBwGBps() == null ? null : h.busBwGBps() / factor, h.wrong());
    }

    /** The algorithm envelope's (algorithm, protocol) at a size, in the plugin's spelling. */
    private static DoubleFunction<String> envelopePick(CostModel model, double[] theta) {
        return model.accept(new OtherwiseVisitor<DoubleFunction<String>>() {
            @Override
            protected DoubleFunction<String> otherwise(CostModel m) {
                throw new AssertionError("the multi-node picks here are algorithm envelopes, got " + m.form());
            }

            @Override
            public DoubleFunction<String> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                return b -> {
                    AlgorithmEnvelopeModel.Choice c = m.chosen(b, theta);
                    return c.algorithm().label().toLowerCase(Locale.ROOT) + "/"
                            + c.protocol().label().toLowerCase(Locale.ROOT);
                };
            }
        });
    }
}
