package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;

/** {@code doctor --rank K --world-size N --rendezvous ...} by hand, no launcher: local ranks from host ids. */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class ManualLaunchIT {

    @TempDir
    Path tmp;

    @Test
    void twoRanksByHandJoinAndGetTheirLocalRanksFromHostIds() throws Exception {
        String rdzv = "tcp://127.0.0.1:" + Processes.freePort();
        Process one = Processes.start(Processes.harness("doctor", "--verbose", "--rank", "1", "--world-size", "2",
                "--rendezvous", rdzv), Map.of(), tmp, "r1");
        Processes.Result zero = Processes.run(Processes.harness("doctor", "--rank", "0", "--world-size", "2",
                "--rendezvous", rdzv), Map.of(), tmp, "r0", Processes.HANG_S);
        assertThat(one.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
        Processes.Result r1 = Processes.result(one, tmp, "r1", 0);
        assertThat(r1.outLines()).anyMatch(l -> l.startsWith("rank 1/2 place: launcher flags (--rank=1"
                + " --world-size=2), local from host ids"))
                .anyMatch(l -> l.startsWith("rank 1/2 joined: 2 rank(s)"))
                .noneMatch(l -> l.startsWith("#"));
        List<String> summary = zero.outLines().stream().filter(l -> l.startsWith("#")).toList();
        assertThat(summary.get(0)).isEqualTo("# doctor: job summary");
        assertThat(summary).anyMatch(l -> l.matches("# rank 0: .* local=0/2 .*"))
                .anyMatch(l -> l.matches("# rank 1: .* local=1/2 .*"))
                .filteredOn(l -> l.startsWith("# verdict: ")).hasSize(1);
        assertThat(r1.rc()).as("every rank exits with rank 0's verdict").isEqualTo(zero.rc());
        if (zero.rc() != ExitCode.OK) {
            assertThat(zero.rc()).isEqualTo(ExitCode.ENVIRONMENT);
        }
    }

    @Test
    void aManualLaunchWithoutARendezvousSaysWhatToSet() throws Exception {
        Processes.Result r = Processes.run(Processes.harness("doctor", "--rank", "1", "--world-size", "2"),
                Map.of(), tmp, "none", Processes.HANG_S);
        assertThat(r.rc()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err().strip()).startsWith("rank 1/2: the launcher (flags) does not say whether all 2 ranks are"
                + " on one host and no rendezvous is set: pass -x MASTER_ADDR=");
    }
}
