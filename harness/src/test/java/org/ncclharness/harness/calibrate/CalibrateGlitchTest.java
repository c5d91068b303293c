package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/** Issue 13 item 5: a glitch planted in a real log is found, listed by size, and left out of the fit unless kept. */
class CalibrateGlitchTest {

    private static final Path LOG = Path.of("../datasets/raw/a100_allreduce_8gpu_oci_bmgpu48.txt");
    private static final String ROW = "     8388608       2097152     float     sum      -1    185.8   45.15   79.02      0"
            + "    183.2   45.79   80.12      0";
    /** The same row timed 3x slower in both placements (a spike a busy node gives), bandwidths to match. */
    private static final String SPIKE = "     8388608       2097152     float     sum      -1    557.4   15.05   26.34      0"
            + "    549.6   15.26   26.71      0";

    @TempDir
    Path dir;

    private Path planted() throws IOException {
        String text = Files.readString(LOG);
        assertThat(text).contains(ROW);
        Path log = dir.resolve("spiked.txt");
        Files.writeString(log, text.replace(ROW, SPIKE));
        return log;
    }

    private static List<Double> residualSizes(Path json) throws IOException {
        JsonNode entry = new ObjectMapper().readTree(json.toFile()).path("datasets").get(0);
        List<Double> sizes = new ArrayList<>();
        entry.path("models").get(0).path("residuals").forEach(r -> sizes.add(r.path("bytes").asDouble()));
        return sizes;
    }

    @Test
    void aPlantedSpikeIsListedAndLeftOutOfTheFit() throws IOException {
        Path log = planted();
        Path json = dir.resolve("cal.json");
        CliRun run = CliRun.of("calibrate", log.toString(), "--interconnect", "NVLink3", "--verbose", "--json",
                json.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("measurement glitches left out of the fit \\(--keep-glitches keeps them\\):"
                + " 8 MiB \\(3\\.\\dx its neighbours' line\\); RMSPE of \\S+ with them \\d+\\.\\d %, without \\d+\\.\\d %");
        assertThat(residualSizes(json)).doesNotContain(8388608.0).contains(4194304.0, 16777216.0);
    }

    @Test
    void keepGlitchesKeepsItAndSaysSo() throws IOException {
        Path log = planted();
        Path json = dir.resolve("cal.json");
        CliRun run = CliRun.of("calibrate", log.toString(), "--interconnect", "NVLink3", "--verbose", "--keep-glitches",
                "--json", json.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("measurement glitches kept in the fit (--keep-glitches): 8 MiB");
        assertThat(residualSizes(json)).contains(8388608.0);
    }

    @Test
    void theLogAsPublishedHasNone() throws IOException {
        Path copy = dir.resolve("as-published.txt");
        Files.copy(LOG, copy);
        CliRun run = CliRun.of("calibrate", copy.toString(), "--interconnect", "NVLink3", "--verbose");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).doesNotContain("glitches");
    }
}
