package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.calibrate.ExamplePluginParser;

/**
 * An {@code --algo/--proto} matrix as {@code sweep -J} writes it (one JSON per combination, the combination in
 * {@code nccl_harness.algorithm}) exported by {@code calibrate --export nccl-tuner} and read back with the example
 * plugin's rules: at each measured size the combination measured fastest, under a comment saying so.
 */
class MatrixTunerExportTest {

    /** Times per combination (µs at a size): LL fastest small, LL128 in the middle, Simple large. */
    private static final Map<String, DoubleUnaryOperator> SHAPES = new LinkedHashMap<>();

    static {
        SHAPES.put("LL", s -> 5 + s / 2.0e3);
        SHAPES.put("LL128", s -> 8 + s / 40.0e3);
        SHAPES.put("Simple", s -> 20 + s / 100.0e3);
    }

    @Test
    void theMatrixsMeasuredWinnerIsWhatThePluginPicksAtEachMeasuredSize(@TempDir Path dir) throws IOException {
        SweepPlan p = LiveSweepTest.plan(Map.of(), "-b", "1K", "-e", "256M", "--algo", "Ring", "--proto",
                "LL,LL128,Simple", "--no-calibrate", "-c", "0", "-J", dir.resolve("m.json").toString());
        List<SweepResult> results = new ArrayList<>();
        SHAPES.forEach((proto, shape) -> results.add(result(p, proto, shape)));
        new SweepOutputs(p, new PrintWriter(new StringWriter())).emit(results, List.of("# test data"),
                new SweepOutputs.RunFacts(null, null, null, null, List.of(), SweepJson.object()));
        List<String> files = SweepOutputs.names(dir.resolve("m.json"), results);
        Path conf = dir.resolve("tuner.conf");
        List<String> args = new ArrayList<>(List.of("calibrate"));
        args.addAll(files);
        args.addAll(List.of("--gpus", "8", "--nodes", "1", "--interconnect", "NVLink4", "--nccl-tuner",
                conf.toString()));

        CliRun run = CliRun.of(args.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("# tuner configuration written to " + conf + ": ");
        String text = Files.readString(conf);
        List<ExamplePluginParser.Row> rows = ExamplePluginParser.parse(text);
        assertThat(rows).allMatch(ExamplePluginParser.Row::namesKnown);
        for (long s : p.sizes()) {
            String winner = SHAPES.entrySet().stream().min((a, b) -> Double.compare(a.getValue().applyAsDouble(s),
                    b.getValue().applyAsDouble(s))).orElseThrow().getKey().toLowerCase(Locale.ROOT);
            ExamplePluginParser.Row hit = ExamplePluginParser.lookup(rows, "allreduce", s, 1, 8).orElseThrow();
            assertThat(hit.algorithm() + "/" + hit.protocol()).as("%d B", s).isEqualTo("ring/" + winner);
            assertThat(hit.comment()).as("%d B", s).startsWith("# measured:");
        }

        // the file is there: a second export is refused without --force and leaves it as it was
        CliRun again = CliRun.of(args.toArray(String[]::new));
        assertThat(again.exitCode()).isNotZero();
        assertThat(again.err()).contains("--force");
        assertThat(Files.readString(conf)).isEqualTo(text);
    }

    private static SweepResult result(SweepPlan p, String proto, DoubleUnaryOperator timeUs) {
        List<Measurement> rows = p.sizes().stream().map(s -> {
            double t = timeUs.applyAsDouble(s);
            double alg = s / t / 1e3;
            Half h = new Half(t, alg, alg * Collective.ALL_REDUCE.busFactor(8), 0.0);
            return new Measurement(s, s / 4, "float", "sum", -1, h, h);
        }).toList();
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
        return new SweepResult(new Combination("Ring", proto), List.of(), s, List.of());
    }
}
