package org.ncclharness.harness.live;

import org.ncclharness.harness.sweep.SweepCommandTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.figure.ReportPage;

/** {@code sweep --report DIR}: the page of a replayed sweep, its refusal, and the page of a measured one. */
class SweepReportTest {
    static final String OCI = SweepCommandTest.OCI;
    /** One NVLink domain: the single-tier calibration fits it (the OCI run waits for the two-tier fit). */
    static final String H100 = "h100_allreduce_8gpu_1node_aws_p5_batch";

    @TempDir
    Path dir;

    @Test
    void aReplayedSweepsPageHasItsRowsAsPrintedTheCalibrationVerdictAndOneFigureWithTheModels() throws Exception {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the replay path is not taken");
        Path site = dir.resolve("site");
        CliRun r = CliRun.of("sweep", "--dataset", H100, "-b", "1M", "-e", "1G", "--min-busbw", "1000", "--report",
                site.toString());
        // a replay is not judged: the gate is reported as not applied, and the exit is 0
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("# page written to " + site.resolve("index.html"));
        String html = Files.readString(site.resolve("index.html"));
        assertThat(html).contains("<title>sweep: all_reduce, replay</title>")
                .contains("<span class=\"level\">NOTE</span><b>" + H100 + "</b>: replay, not measured by this run:")
                .contains("<span class=\"level\">NOTE</span><b>" + H100 + "</b>: --min-busbw / NCCL_TESTS_MIN_BW"
                        + " (average ")
                .contains("gate 0.9 x 1000 GB/s) not judged: this table is a replay")
                .doesNotContain("<span class=\"level\">FAIL</span><b>" + H100 + "</b>")
                .contains("<th>u_r (ratio)</th>").contains("<th>picked model</th>")
                .contains("<section class=\"run\" id=\"run-" + H100 + "\">")
                .contains("<pre># single-tier alpha-beta calibration");
        // Every printed row is a table row, cell for cell.
        List<String> printed = SweepCommandTest.rows(r.out());
        assertThat(printed).isNotEmpty();
        for (String row : printed) {
            String[] cells = row.trim().split("\\s+");
            StringBuilder tr = new StringBuilder("<tr>");
            for (String c : cells) {
                tr.append(c.matches("[-+]?[0-9].*") ? "<td class=\"num\">" : "<td>").append(c).append("</td>");
            }
            assertThat(html).contains(tr.append("</tr>"));
        }
        // the replayed points with the calibrated models and their residuals, in both views (busbw, time)
        assertThat(html).contains("<img src=\"" + H100 + ".png\" width=\"960\" height=\"740\"")
                .contains("<img src=\"" + H100 + "-time.png\" width=\"960\" height=\"740\"");
        assertThat(html.split("<img ", -1)).hasSize(3);
        BufferedImage img = ImageIO.read(site.resolve(H100 + ".png").toFile());
        assertThat(img.getHeight()).isEqualTo(740);
        assertThat(html).doesNotContain("http://").doesNotContain("https://" + "fonts");
    }

    @Test
    void anExistingPageIsRefusedBeforeAnyOutputAndForceReplacesIt() throws Exception {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the replay path is not taken");
        Path site = Files.createDirectories(dir.resolve("site"));
        Files.writeString(site.resolve("index.html"), "mine");
        Path json = dir.resolve("run.json");
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "-b", "1M", "-e", "4M", "-J", json.toString(), "--report",
                site.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("index.html: already exists; pass --force");
        assertThat(r.out()).isEmpty();
        assertThat(json).doesNotExist();
        assertThat(Files.readString(site.resolve("index.html"))).isEqualTo("mine");
        try (var files = Files.list(site)) {
            assertThat(files).hasSize(1);
        }
        CliRun forced = CliRun.of("sweep", "--dataset", OCI, "-b", "1M", "-e", "4M", "--no-calibrate", "--report",
                site.toString(), "--force");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        String html = Files.readString(site.resolve("index.html"));
        assertThat(html).contains("Measured points only (--no-calibrate).").doesNotContain("best model");
        assertThat(site.resolve(OCI + ".png")).isRegularFile();
    }

    @Test
    void aMeasuredSweepsTableCarriesTheFastestAndSlowestProcess() {
        SweepPlan p = LiveSweepTest.plan(Map.of(), "-b", "1K", "-e", "2K", "--no-calibrate");
        List<Measurement> rows = List.of(row(1024, 2.0), row(2048, 3.0));
        Sweep s = new Sweep(new Provenance(SourceKind.MEASURED, "node07", null, "measured now on 1 host(s) from"
                + " node07 by nccl-harness (test data)"), Collective.ALL_REDUCE, RunInfo.unknown(),
                new Hardware("NVIDIA H100 80GB HBM3", 2, 1, 2, 1, "NVLink4", null), List.of(), rows, List.of());
        List<RankTimes> times = List.of(new RankTimes(0, Placement.OUT_OF_PLACE, 1.5, 2.5),
                new RankTimes(1, Placement.IN_PLACE, 2.75, 3.25));
        ReportPage page = SweepReportPage.of(p, List.of(new SweepResult(Combination.auto(), List.of(), s, List.of(),
                times)), List.of(), null, null);
        ReportPage.Table t = page.tables().get(0);
        assertThat(t.caption()).isEqualTo("Results (measured): node07");
        assertThat(t.header()).endsWith("out-of-place fastest / slowest process (us)",
                "in-place fastest / slowest process (us)");
        assertThat(t.rows().get(0)).startsWith("1024", "256", "float", "sum", "-1", "2.00").endsWith("1.50 / 2.50", "-");
        assertThat(t.rows().get(1)).endsWith("-", "2.75 / 3.25");
        assertThat(page.verdicts()).extracting(ReportPage.Verdict::level).containsExactly(ReportPage.Level.NOTE);
        assertThat(page.figures()).extracting(ReportPage.ReportFigure::id).containsExactly("node07", "node07-time");
    }

    private static Measurement row(long bytes, double us) {
        double algBw = bytes / us / 1e3;
        return new Measurement(bytes, bytes / 4, "float", "sum", -1, new Half(us, algBw, algBw, 0.0),
                new Half(us, algBw, algBw, 0.0));
    }
}
