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
    void writesThePageWithTheVerdictsTheTableAndOneFigureWithResiduals() throws Exception {
        Path site = dir.resolve("site");
        CliRun run = CliRun.of("calibrate", LOG.toString(), "--interconnect", "NVLink4", "--gpus", "8", "--report", site.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("# page written to " + site.resolve("index.html"));
        String html = Files.readString(site.resolve("index.html"));
        String id = LOG.toString();
        String png = "h100_allreduce_8gpu_1node_aws_p5_batch.txt.png";
        assertThat(html).contains("<title>calibrate: 1 dataset</title>")
                .contains("<span class=\"level\">WARN</span><b>" + id + "</b>: NVLS: busbw")
                .contains("best model ")
                .contains("<td>" + id + "</td><td>NVLink4</td><td class=\"num\">8</td><td class=\"num\">450.0</td>")
                .contains("<img src=\"" + png + "\" width=\"960\" height=\"740\"")
                .contains("<pre># single-tier alpha-beta calibration");
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
        assertThat(html).containsPattern("<b>" + java.util.regex.Pattern.quote(log.toString()) + "</b>: multi-domain"
                + " \\(two-tier\\): model (envelope|algorithms|hierarchical|flat-ring) picked, (lowest )?leave-one-out")
                .containsPattern("out-of-sample: envelope [0-9.]+ %, algorithms [0-9.]+ %, hierarchical [0-9.]+ %,"
                        + " flat-ring [0-9.]+ %");
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
