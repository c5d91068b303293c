package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;

/** A CI job on a node without a working GPU must fail, not pass on bundled numbers: {@code HARNESS_NO_REPLAY=1}. */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class MpirunSweepNoReplayIT {

    @TempDir
    Path tmp;

    @Test
    void withNoReplayEveryRankExitsThreeAndSaysWhyInOneLine() throws Exception {
        assumeTrue(!Files.exists(Path.of("/proc/driver/nvidia/version")), "a machine with a driver would sweep");
        Processes.Result r = Processes.runMpirun(Processes.mpirun(2, List.of("-x", "HARNESS_NO_REPLAY=1"),
                Processes.harness("sweep", "-b", "1K", "-e", "1M")), Map.of(), tmp, "no-replay", Processes.HANG_S);
        assertThat(r.rc()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(r.out().lines().filter(l -> l.contains("<stdout>:"))).isEmpty();
        // each rank prints its line before it exits: the first to exit makes mpirun stop the other, which may not
        // have printed yet, so one line or two, never none
        List<String> why = r.err().lines().filter(l -> l.contains("no GPU: ")).toList();
        assertThat(why).isNotEmpty().hasSizeLessThanOrEqualTo(2).allSatisfy(l -> assertThat(l)
                .matches("\\[1,[01]\\]<stderr>:rank [01]/2: no GPU: NO_DRIVER: libcuda\\.so\\.1 not found.*")
                .endsWith("(--no-replay from HARNESS_NO_REPLAY=1: nothing measured, nothing replayed)"));
    }
}
