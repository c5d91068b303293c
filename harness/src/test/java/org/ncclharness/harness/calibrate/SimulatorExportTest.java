package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.export.AstraSimNetwork;
import org.ncclharness.calibration.export.SimAiBusBw;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.runs.CalibrationInputs;

/**
 * The simulator exports read back with each simulator's own rules ({@link AstraSimNetworkParser},
 * {@link SimAiBusBwParser}) and held to the calibration: the values are the summary's, in the simulator's units, and
 * the simulator's own cost formula with them gives the fit's time.
 */
class SimulatorExportTest {

    private static final String ONE_NODE = "h100_allreduce_8gpu_azure_ndv5";
    private static final String P5 = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";
    private static final double GIB = 1L << 30;

    private static CalibrationReport calibrate(String... ids) {
        List<CalibrationInput> in = java.util.Arrays.stream(ids)
                .map(id -> CalibrationInputs.of(DatasetCatalog.bundled().get(id))).toList();
        return CalibrationPipeline.calibrate(HardwareFacts.bundled(), CalibrationPipeline.glitches(in, false),
                CalibrationOptions.defaults(), Optional.empty(), FitProgress.NONE);
    }

    @Test
    void astraSimsRingOverTheExportedDimensionGivesTheFitsTime() {
        CalibrationReport report = calibrate(ONE_NODE);
        CalibrationSummary.Row row = CalibrationSummary.row(report.entries().get(0)).orElseThrow();
        AstraSimNetworkParser.Network net = AstraSimNetworkParser.parse(
                ExportOption.astraSim(report, List.of(ONE_NODE)).text().orElseThrow());

        assertThat(net.topology()).containsExactly("Ring");
        assertThat(net.npusCount()).containsExactly(8);
        assertThat(net.bandwidth().get(0) * GIB / 1e9).isCloseTo(row.busBwGBps(), within(1e-3));
        // ASTRA-sim's ring AllReduce: 2(N-1) neighbour sends of M/N bytes, each latency + bytes / bandwidth (B/ns)
        double bytesPerNs = net.bandwidth().get(0) * GIB / 1e9;
        for (double m : new double[] {1 << 10, 1 << 20, GIB, 16 * GIB}) {
            double astraUs = 2 * 7 * (net.latency().get(0) + (m / 8) / bytesPerNs) / 1e3;
            double fitUs = row.alphaUs() + 2.0 * 7 / 8 * m / (row.busBwGBps() * 1e3);
            assertThat(astraUs).as("%.0f B", m).isCloseTo(fitUs, within(fitUs * 1e-5));
        }
    }

    @Test
    void aRunWithAnUndeterminedTierIsNotWrittenAndSaysWhy() {
        AstraSimNetwork.Result r = ExportOption.astraSim(calibrate(P5), List.of(P5));
        assertThat(r.text()).isEmpty();
        assertThat(r.skipped()).singleElement().asString().startsWith(P5 + ": ").contains("undetermined");
    }

    @Test
    void eachExportWrittenIsSummedUpInOneLineAfterTheFilesAreWritten(@TempDir Path dir) {
        Path net = dir.resolve("net.yml");
        Path busbw = dir.resolve("busbw.txt");
        CliRun run = CliRun.of("calibrate", ONE_NODE, P5, "--astra-sim", net.toString(), "--simai", busbw.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> summary = run.out().lines().filter(l -> l.startsWith("# ASTRA-sim") || l.startsWith("# SimAI"))
                .toList();
        assertThat(summary).hasSize(2);
        assertThat(summary.get(0)).isEqualTo("# ASTRA-sim network written to " + net + ": " + ONE_NODE
                + "; not written: 1 (listed at the file's top)");
        assertThat(summary.get(1)).startsWith("# SimAI busbw written to " + busbw + ": ").contains(" values");
        assertThat(net).exists();
        assertThat(busbw).exists();
    }

    @Test
    void theCommandRefusesInOneLineAndWritesNothingWhereNoRunCanBeWritten(@TempDir Path dir) {
        Path file = dir.resolve("net.yml");
        CliRun run = CliRun.of("calibrate", P5, "--astra-sim", file.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("--astra-sim: no calibrated run determines every dimension's bandwidth and"
                + " latency").contains("nothing was written");
        assertThat(file).doesNotExist();
    }

    @Test
    void anExistingFileIsRefusedBeforeTheWorkWithoutForce(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("busbw.yaml"), "keep\n");
        CliRun run = CliRun.of("calibrate", ONE_NODE, "--simai", file.toString());
        assertThat(run.exitCode()).isNotZero();
        assertThat(Files.readString(file)).isEqualTo("keep\n");
        assertThat(CliRun.of("calibrate", ONE_NODE, "--simai", file.toString(), "--force").exitCode()).isZero();
        assertThat(SimAiBusBwParser.parse(Files.readString(dir.resolve("busbw.yaml")))).containsKey("TP.allreduce");
    }

    @Test
    void simAiReadsTheOneNodeBusBwAsTpAndTheMultiNodeRunsAsDp() {
        CalibrationReport report = calibrate(ONE_NODE, P5);
        SimAiBusBw.Result r = ExportOption.simai(report, List.of(ONE_NODE, P5));
        Map<String, Float> values = SimAiBusBwParser.parse(r.text());
        CalibrationSummary.Row one = CalibrationSummary.row(report.entries().get(0)).orElseThrow();
        CalibrationSummary.Row p5 = CalibrationSummary.row(report.entries().get(1)).orElseThrow();

        assertThat(values.keySet()).containsExactly("TP.allreduce", "DP.allreduce");
        // SimAI's time: data_size * GBps / busbw * 1e9 * 2(n-1)/n ns, GBps = 1 / 2^30: the fit's f * M / busbw
        for (var e : Map.of("TP.allreduce", one, "DP.allreduce", p5).entrySet()) {
            int n = Integer.parseInt(e.getValue().ranks());
            double m = 4 * GIB;
            double simAiNs = m / GIB / values.get(e.getKey()) * 1e9
                    * 2 * (n - 1) / n;
            double fitNs = 2.0 * (n - 1) / n * m / e.getValue().busBwGBps();
            assertThat(simAiNs).as(e.getKey()).isCloseTo(fitNs, within(fitNs * 1e-5));
        }
        // the p5 run's NVLink tier is not determined by it alone: the one-node run fills TP, the p5 entry is listed
        assertThat(r.text()).contains("# not written: " + P5 + ": TP.allreduce");
    }
}
