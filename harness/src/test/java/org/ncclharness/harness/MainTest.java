package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void aBadFlagIsOneLineAndWhereTheOptionsAreNotTheWholeUsage() {
        CliRun run = CliRun.of("datasets", "show");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().lines()).containsExactly("Missing required parameter: 'ID'",
                "(see: java -jar harness.jar datasets show --help)");
        assertThat(CliRun.of("--bogus").err().lines()).containsExactly("Unknown option: '--bogus'",
                "(see: java -jar harness.jar --help)");
    }

    @Test
    void helpListsTheExitCodes() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(ExitCode.TABLE);
    }
}
