package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * A replay and a prediction keep their kind and label through every format, converted in a loop (text, CSV,
 * JSON, text, CSV, JSON), and every command that judges or fits rows reads them back as what they are: {@code check}
 * of a replay WARNs saying so where the same rows as stored measurements PASS; {@code check}, {@code calibrate} and
 * {@code plot --model} refuse a prediction naming its model, and take it with {@code --allow-predicted}, saying so.
 */
class ProvenanceFormatsTest {

    /** A run that check PASSes as stored measurements (with the flags below): only the replay can make it WARN. */
    private static final String PASSING = "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_gjaion";
    private static final String[] FLAGS = {"--interconnect", "IB-NDR", "--nodes", "2", "--gpus", "16",
        "--nics-per-host", "8"};

    @TempDir
    Path dir;

    /** Every file of the loop, the first one included, each read back with the original's kind and label. */
    private List<Path> convertedInALoop(Path first, Provenance expected) throws IOException {
        List<Path> files = new ArrayList<>(List.of(first));
        String[] formats = {"txt", "csv", "json", "txt", "csv", "json"};
        for (int i = 0; i < formats.length; i++) {
            Path from = files.get(files.size() - 1);
            Path to = dir.resolve("loop" + i + "." + formats[i]);
            CliRun r = switch (formats[i]) {
                case "csv" -> CliRun.of("convert", from.toString(), "--csv", to.toString());
                case "json" -> CliRun.of("convert", from.toString(), "--json", to.toString());
                default -> CliRun.of("convert", from.toString());
            };
            assertThat(r.exitCode()).as("convert %s to %s: %s", from, to, r.err()).isZero();
            if (formats[i].equals("txt")) {
                Files.writeString(to, r.out());
            }
            files.add(to);
        }
        for (Path f : files) {
            List<Sweep> back = Inputs.read(f.toString());
            assertThat(back).as(f.toString()).isNotEmpty().allSatisfy(s -> {
                assertThat(s.provenance().kind()).as("%s", f).isEqualTo(expected.kind());
                assertThat(s.provenance().label()).as("%s", f).isEqualTo(expected.label());
            });
        }
        return files;
    }

    private static String[] args(String command, Path file, String... more) {
        List<String> a = new ArrayList<>(List.of(command, file.toString()));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    @Test
    void aReplayStaysAReplayInEveryFormatAndCheckWarnsOnItWhereTheStoredRowsPass() throws IOException {
        Sweep replay = DatasetCatalog.bundled().get(PASSING).replay();
        Path json = Files.writeString(dir.resolve("replay.json"), SweepJson.writeAll(List.of(replay)));
        for (Path f : convertedInALoop(json, replay.provenance())) {
            CliRun r = CliRun.of(args("check", f, FLAGS));
            assertThat(r.exitCode()).as("%s: %s", f, r.err()).isZero();
            assertThat(r.out()).as("%s", f).contains("WARN: these numbers are a replay (" + Provenance.REPLAY_LABEL
                    + PASSING).contains("Verdict: WARN (1 reason)");
        }
        // the same rows, the provenance columns saying stored measurements: nothing else made it WARN
        Path csv = dir.resolve("loop1.csv");
        Path stored = Files.writeString(dir.resolve("stored.csv"), Files.readString(csv)
                .replace(",replay," + replay.provenance().label(), ",stored,stored measurements: stored.csv"));
        assertThat(Inputs.read(stored.toString()).get(0).provenance().kind()).isEqualTo(SourceKind.STORED);
        CliRun plain = CliRun.of(args("check", stored, FLAGS));
        assertThat(plain.out()).contains("Verdict: PASS").doesNotContain("replay");
    }

    /**
     * Rows timed on a test clock (a JVM started with -Dnccl-harness.loop-clock-file; the live path is
     * StandInSweepIT's) keep their kind and label through every format; check WARNs that they were not measured where
     * the same rows as stored measurements PASS, and calibrate fits them saying so.
     */
    @Test
    void rowsTimedOnATestClockStayNotMeasuredInEveryFormatAndCheckAndCalibrateSaySo() throws IOException {
        Sweep stored = DatasetCatalog.bundled().get(PASSING).sweep();
        Provenance clock = new Provenance(SourceKind.TEST_CLOCK, "h0", null, Provenance.TEST_CLOCK_LABEL
                + "the clock in /tmp/clock.0 (-Dnccl-harness.loop-clock-file); on 2 host(s) from h0 by nccl-harness");
        Sweep timed = new Sweep(clock, stored.collective(), stored.run(), stored.hardware(), stored.devices(),
                stored.rows(), List.of());
        Path json = Files.writeString(dir.resolve("clock.json"), SweepJson.writeAll(List.of(timed)));
        for (Path f : convertedInALoop(json, clock)) {
            CliRun r = CliRun.of(args("check", f, FLAGS));
            assertThat(r.exitCode()).as("%s: %s", f, r.err()).isZero();
            assertThat(r.out()).as("%s", f).contains("WARN: these numbers were not measured (" + clock.label()
                    + "): the timed loop read a test clock").contains("Verdict: WARN (1 reason)");
            CliRun fit = CliRun.of(args("calibrate", f, "--intra", "NVLink4", "--inter", "IB-NDR", "--nodes", "2",
                    "--gpus", "16", "--nics-per-host", "8"));
            assertThat(fit.exitCode()).as("%s: %s", f, fit.err()).isZero();
            assertThat(fit.out()).as("%s", f).contains(": " + clock.label() + ": its fit describes a stand-in's"
                    + " arithmetic, not hardware");
        }
    }

    @Test
    void aPredictionStaysOneInEveryFormatAndIsJudgedOrFittedOnlyWhenAskedSayingSo() throws IOException {
        CliRun p = CliRun.of("predict", "-b", "1K", "-e", "1G", "-f", "4", "--gpus", "8", "--bandwidth", "25GB/s",
                "--step-latency", "10us");
        assertThat(p.exitCode()).isZero();
        Path text = Files.writeString(dir.resolve("predicted.txt"), p.out());
        Sweep predicted = Inputs.read(text.toString()).get(0);
        assertThat(predicted.provenance().kind()).isEqualTo(SourceKind.PREDICTED);
        String model = predicted.provenance().label();
        assertThat(model).startsWith("predicted by ring formula");
        for (Path f : convertedInALoop(text, predicted.provenance())) {
            CliRun check = CliRun.of(args("check", f, "--interconnect", "NVLink4"));
            assertThat(check.exitCode()).as("%s", f).isEqualTo(ExitCode.USAGE);
            assertThat(check.err()).as("%s", f).isEqualTo(f + ": this is a prediction, not a measurement (" + model
                    + "); check judges measured runs, and compares them with a model via --calibration (check"
                    + " --allow-predicted judges it anyway)\n");
            CliRun fit = CliRun.of(args("calibrate", f, "--interconnect", "NVLink4"));
            assertThat(fit.exitCode()).as("%s", f).isEqualTo(ExitCode.USAGE);
            assertThat(fit.err()).as("%s", f).contains(f + ": this is a prediction, not a measurement (" + model
                    + "); calibrate fits measured runs (calibrate --allow-predicted fits it anyway)");

            CliRun judged = CliRun.of(args("check", f, "--interconnect", "NVLink4", "--allow-predicted"));
            assertThat(judged.exitCode()).as("%s: %s", f, judged.err()).isZero();
            assertThat(judged.out()).as("%s", f).contains("WARN: these numbers are a prediction (" + model
                    + "), not a measurement").contains("Verdict: WARN");
            CliRun fitted = CliRun.of(args("calibrate", f, "--interconnect", "NVLink4", "--allow-predicted", "-v"));
            assertThat(fitted.exitCode()).as("%s: %s", f, fitted.err()).isZero();
            assertThat(fitted.out()).as("%s", f).contains("predicted rows, taken as if measured"
                    + " (--allow-predicted): " + model).contains("# " + f + ": predicted rows, fitted as if measured"
                    + " (--allow-predicted)");
        }
    }

    /**
     * plot --model fits as calibrate does, so it refuses a prediction by the same rule, naming plot (it once
     * answered "calibrate --allow-predicted fits it anyway", a flag plot did not have), and takes it when asked;
     * --allow-predicted without --model, where plot fits nothing, is refused.
     */
    @Test
    void plotsFitRefusesAPredictionNamingPlotAndTakesItWhenAsked() throws IOException {
        CliRun p = CliRun.of("predict", "--dataset", "h100_allreduce_8gpu_azure_ndv5", "--gpus", "16");
        assertThat(p.exitCode()).as(p.err()).isZero();
        Path text = Files.writeString(dir.resolve("p.txt"), p.out());
        Path csv = dir.resolve("p.csv");
        assertThat(CliRun.of("convert", text.toString(), "--csv", csv.toString()).exitCode()).isZero();
        String model = Inputs.read(csv.toString()).get(0).provenance().label();
        Path svg = dir.resolve("x.svg");
        CliRun refused = CliRun.of("plot", csv.toString(), "--model", "--out", svg.toString());
        assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err()).isEqualTo(csv + ": this is a prediction, not a measurement (" + model + "); plot"
                + " --model fits measured runs as calibrate does (plot --model --allow-predicted fits it anyway)\n");
        assertThat(svg).doesNotExist();
        CliRun taken = CliRun.of("plot", csv.toString(), "--model", "--allow-predicted", "--interconnect", "NVLink4",
                "--out", svg.toString());
        assertThat(taken.exitCode()).as(taken.err()).isZero();
        assertThat(Files.readString(svg)).contains("predicted: p.csv");
        CliRun alone = CliRun.of("plot", csv.toString(), "--allow-predicted", "--out", dir.resolve("y.svg").toString());
        assertThat(alone.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(alone.err()).contains("--allow-predicted: takes predicted rows into a fit: add --model");
    }

    /** One option, one description: the commands take it from the same mixin. */
    @Test
    void checkCalibrateAndPlotShareTheOption() {
        String check = CliRun.of("check", "--help").out();
        String calibrate = CliRun.of("calibrate", "--help").out();
        String plot = CliRun.of("plot", "--help").out();
        String line = "--allow-predicted";
        assertThat(check).contains(line);
        assertThat(calibrate).contains(line);
        assertThat(plot).contains(line);
        assertThat(describe(check)).isEqualTo(describe(calibrate)).isEqualTo(describe(plot));
    }

    /** The option's help text: its line and the lines that continue it (up to the next option's). */
    private static String describe(String help) {
        List<String> lines = help.lines().toList();
        int at = 0;
        while (!lines.get(at).strip().startsWith("--allow-predicted")) {
            at++;
        }
        StringBuilder b = new StringBuilder(lines.get(at).strip());
        for (int i = at + 1; i < lines.size() && !lines.get(i).strip().startsWith("-")
                && !lines.get(i).isBlank(); i++) {
            b.append(' ').append(lines.get(i).strip());
        }
        return b.toString().replaceAll("\\s+", " ");
    }
}
