package org.ncclharness.harness.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.Reference;
import org.ncclharness.calibration.check.RunContext;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.ReportPage;

/** {@code check --report DIR}: the findings as verdicts, the per-size table, the figure of the run and reference. */
class CheckReportTest {
    static final String OCI = CheckCommandTest.OCI;
    static final String HEALTHY = CheckCommandTest.HEALTHY;

    @TempDir
    Path dir;

    @Test
    void theFailingOciRunsPageShowsTheVerdictItsFindingsTheDipsAndItsFigure() throws Exception {
        Path site = dir.resolve("site");
        CliRun r = CliRun.of("check", OCI, "--min-busbw", "200", "--report", site.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.FAIL);
        assertThat(r.out()).contains("Verdict: FAIL").contains("# page written to " + site.resolve("index.html"));
        String html = Files.readString(site.resolve("index.html"));
        assertThat(html).contains("<title>check: " + OCI + ": FAIL</title>")
                .contains("<span class=\"level\">FAIL</span><b>" + OCI + "</b>: verdict FAIL (")
                .contains("<span class=\"level\">FAIL</span><b>min-busbw</b>: average busbw")
                .contains("<span class=\"level\">WARN</span><b>dip</b>: dip at 16 MiB")
                .contains("<span class=\"level\">WARN</span><b>dip</b>: dip at 64 MiB")
                .contains("<tr><td class=\"num\">16777216</td><td class=\"num\">33.41</td><td>dip</td></tr>")
                .contains("<pre># check: " + OCI)
                .contains("<img src=\"" + OCI + ".png\" width=\"960\" height=\"560\"")
                .contains("<img src=\"" + OCI + "-time.png\" width=\"960\" height=\"560\"");
        // the run in two views, no more
        assertThat(html.split("<img ", -1)).hasSize(3);
        BufferedImage img = ImageIO.read(site.resolve(OCI + ".png").toFile());
        assertThat(img.getWidth()).isEqualTo(960);
    }

    @Test
    void aBaselineIsTheFiguresDashedReferenceAndAModelAPredictedOne() throws Exception {
        Path site = dir.resolve("baseline");
        CliRun r = CliRun.of("check", HEALTHY, "--baseline", HEALTHY, "--report", site.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String html = Files.readString(site.resolve("index.html"));
        assertThat(html).contains("<title>check: " + HEALTHY + ": PASS</title>")
                .contains("<th>reference: baseline (GB/s)</th><th>% of reference</th>")
                .contains("dashed, the reference: dataset").contains("(baseline " + HEALTHY + ")");

        Path cal = dir.resolve("cal.json");
        assertThat(CliRun.of("calibrate", "../datasets/" + HEALTHY + ".csv", "--gpus", "8", "--interconnect",
                "NVLink4", "--json", cal.toString()).exitCode()).isZero();
        Path model = dir.resolve("model");
        CliRun m = CliRun.of("check", HEALTHY, "--calibration", cal.toString(), "--report", model.toString());
        assertThat(m.exitCode()).as(m.err()).isIn(0, 1);
        assertThat(Files.readString(model.resolve("index.html"))).contains("reference (calibration): PREDICTION (not a measurement) of model")
                .contains("<th>reference: calibration, predicted (GB/s)</th>").contains("dashed, the reference: predicted: model");

        // the page itself: the run as the series, the baseline as the reference it was judged against, both views
        Sweep run = DatasetCatalog.bundled().get(HEALTHY).sweep();
        FigureSeries base = FigureSeries.of(run).withLabel("baseline copy");
        CheckReport report = new CheckReport(HEALTHY, run.provenance(), Reference.baseline("copy", run), List.of(),
                List.of(new Finding(Severity.INFO, "peak", null, "peak 1 GB/s")), Verdict.PASS);
        ReportPage page = CheckReportPage.of(report, RunContext.of(run, DatasetCatalog.bundled().get(HEALTHY).document()), run, base, "printed");
        assertThat(page.figures()).hasSize(2).allSatisfy(f -> {
            assertThat(((Figure) f.figure()).series()).extracting(FigureSeries::label)
                    .containsExactly(FigureSeries.of(run).label());
            assertThat(((Figure) f.figure()).judgement().reference().label()).isEqualTo("baseline copy");
        });
        assertThat(page.verdicts()).extracting(ReportPage.Verdict::level)
                .containsExactly(ReportPage.Level.PASS, ReportPage.Level.NOTE);
    }

    @Test
    void anExistingPageIsRefusedBeforeAnyOutput() throws Exception {
        Path site = Files.createDirectories(dir.resolve("site"));
        Files.writeString(site.resolve("index.html"), "mine");
        Path md = dir.resolve("bringup.md");
        CliRun r = CliRun.of("check", OCI, "--markdown", md.toString(), "--report", site.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("index.html: already exists; pass --force");
        assertThat(r.out()).isEmpty();
        assertThat(md).doesNotExist();
        assertThat(Files.readString(site.resolve("index.html"))).isEqualTo("mine");
        try (var files = Files.list(site)) {
            assertThat(files).hasSize(1);
        }
        CliRun forced = CliRun.of("check", OCI, "--report", site.toString(), "--force");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(Files.readString(site.resolve("index.html"))).contains("<title>check: " + OCI + ": WARN</title>");
    }
}
