package org.ncclharness.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code bench launch} where the bindings cannot load NCCL: it says why and measures nothing (native: LaunchCostTest). */
class LaunchBenchTest {

    @Test
    void withoutNcclItSaysWhyAndExitsThree() {
        CliRun run = CliRun.of("bench", "launch");
        assertThat(run.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(run.out()).startsWith("bench launch: no NCCL to launch into, nothing measured: ")
                .containsPattern("(NO_DRIVER|NCCL_NOT_FOUND|NCCL_LOAD_FAILED): ").contains("Fix: ");
    }
}
