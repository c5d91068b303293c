package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code calibrate --report DIR}: the page, its figure and what it says, from a real log. */
class CalibrateReportTest {
    private static final Path LOG = Path.of("../datasets/raw/h100_allreduce_8gpu_1node_aws_p5_batch.txt");

    @TempDir
    Path dir;

    @Test
    void writesThePageWithTheVerdictsTheFamilyTableAndOneFigureWithResiduals() throws Exception {
        Path site = dir.resolve("site");
        CliRun run = CliRun.of("calibrate", LOG.toString(), "--interconnect", "NVLink4", "--gpus", "8", "--report", site.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("# page written to " + site.resolve("index.html"));
        String html = Files.readString(site.resolve("index.html"));
        String id = LOG.toString();
        String png = "h100_allreduce_8gpu_1node_aws_p5_batch.txt.png";
        assertThat(html).contains("<title>calibrate: 1 dataset</title>")
                .contains("<span class=\"level\">WARN</span><b>" + id + "</b>: NVLS: busbw")
                .contains("<th>u_r (ratio)</th><th>β_fit (GB/s)</th><th>ℓ_link (µs)</th><th>α_A (µs)</th>")
                .contains("<td>" + id + "</td><td>NVLink4</td><td class=\"num\">8</td><td class=\"num\">450.0</td>")
                .containsPattern("<td>NVLS</td><td>(envelope|B|B\\+beta|naive)</td>")
                .contains("<section class=\"run\" id=\"run-..-datasets-raw-h100_allreduce_8gpu_1node_aws_p5_batch.txt\">")
                .contains("<img src=\"" + png + "\" width=\"960\" height=\"740\"")
                .contains("Lower panel: each model&#39;s time error")
                .contains("<summary>The same as text (calibrate --verbose)</summary>\n<pre># single-tier alpha-beta");
        BufferedImage img = ImageIO.read(site.resolve(png).toFile());
        assertThat(img.getWidth()).isEqualTo(960);
        assertThat(img.getHeight()).isEqualTo(740);
    }

    @Test
    void aMultiDomainRunsPageSaysWhichModelWasPickedAndHowEachScored() throws Exception {
        Path log = Path.of("../datasets/raw/a100_allreduce_16gpu_2node_aws_p4de_efa.txt");
        Path site = dir.resolve("multi");
        CliRun run = CliRun.of("calibrate", log.toString(), "--intra", "NVLink3", "--inter", "EFA", "--nodes", "2",
                "--gpus", "16", "--report", site.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        String html = Files.readString(site.resolve("index.html"));
        String row = "<td>" + log + "</td><td>two-tier</td><td>2x8</td>";
        assertThat(html).contains(row).containsPattern(java.util.regex.Pattern.quote(row)
                + ".*<td>(envelope|algorithms|hierarchical|flat-ring)</td>.*<td class=\"long\">(lowest )?"
                + "(leave-one-out|out-of-sample)[^<]*</td></tr>");
        // the run's own table scores every family, the picked one marked
        for (String family : java.util.List.of("envelope", "algorithms", "hierarchical", "flat-ring")) {
            assertThat(html).containsPattern("<tr><td>" + family + "</td><td class=\"num\">[0-9]+</td>.*"
                    + "<td class=\"num\">[0-9.]+( GCV)?</td><td>(picked)?</td></tr>");
        }
        assertThat(html).containsPattern("<td class=\"num\">[0-9.]+( GCV)?</td><td>picked</td></tr>");
    }

    @Test
    void anExistingPageIsNeverOverwrittenWithoutForce() throws Exception {
        Path site = Files.createDirectories(dir.resolve("site"));
        Files.writeString(site.resolve("index.html"), "mine");

        CliRun run = CliRun.of("calibrate", LOG.toString(), "--interconnect", "NVLink4", "--gpus", "8", "--report", site.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("index.html: already exists; pass --force");
        assertThat(run.out()).isEmpty();
        assertThat(Files.readString(site.resolve("index.html"))).isEqualTo("mine");
        try (var files = Files.list(site)) {
            assertThat(files).hasSize(1);
        }
    }
}
