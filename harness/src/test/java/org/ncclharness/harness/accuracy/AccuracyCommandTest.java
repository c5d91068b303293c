package org.ncclharness.harness.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

class AccuracyCommandTest {

    /** docs/model-accuracy.md, found from the module directory Maven runs the tests in. */
    private static Path committed() {
        Path here = Path.of("").toAbsolutePath();
        Path p = here.resolve("../docs/model-accuracy.md").normalize();
        return Files.exists(p) ? p : here.resolve("docs/model-accuracy.md");
    }

    @Test
    void theCommittedReportIsWhatTheCommandPrints() throws IOException {
        CliRun run = CliRun.of("accuracy");
        assertThat(run.exitCode()).isZero();
        String expected = Files.readString(committed(), StandardCharsets.UTF_8);
        assertThat(run.out())
                .as("docs/model-accuracy.md is stale: regenerate with harness.jar accuracy --markdown"
                        + " docs/model-accuracy.md --force")
                .isEqualTo(expected);
        assertThat(run.out()).contains("| envelope |").contains("## Cross-scale");
    }

    @Test
    void markdownFileIsNotOverwrittenWithoutForce(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("acc.md");
        Files.writeString(out, "keep");
        CliRun run = CliRun.of("accuracy", "--markdown", out.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(Files.readString(out)).isEqualTo("keep");
    }
}
