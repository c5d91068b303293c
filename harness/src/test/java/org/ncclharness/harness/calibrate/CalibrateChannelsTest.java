package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/** {@code calibrate} says the channels NCCL printed for the tested communicator, and where they come from. */
class CalibrateChannelsTest {

    /** A real 2-host A10G log (NCCL 2.11.4 over sockets) whose two ranks print {@code 2 coll channels, ...}. */
    private static final String LOG = "../calibration/src/test/resources/logs/real/"
            + "twohost_a10g_2x1_socket_ncclinfo_awsbatch_errorcol.txt";
    private static final String NOTE = "channels from the log: 2 coll, 2 p2p (1 per peer) channels (NCCL's INFO lines"
            + " for the communicator of N=2)";

    @Test
    void verboseAndTheJsonShowTheLogsChannelCountsWithTheirOrigin(@TempDir Path dir) throws IOException {
        CliRun verbose = CliRun.of("calibrate", "--verbose", LOG);
        assertThat(verbose.exitCode()).as(verbose.err()).isZero();
        assertThat(verbose.out()).contains(NOTE);
        Path json = dir.resolve("cal.json");
        CliRun written = CliRun.of("calibrate", LOG, "--json", json.toString());
        assertThat(written.exitCode()).as(written.err()).isZero();
        JsonNode entry = new ObjectMapper().readTree(json.toFile()).path("datasets").get(0);
        assertThat(entry.path("notes").toString()).contains("channels from the log: 2 coll");
    }

    /** A log without INFO lines (a bundled dataset's raw text) gets no such note. */
    @Test
    void aLogWithoutChannelLinesSaysNothingOfChannels() {
        CliRun run = CliRun.of("calibrate", "--verbose",
                "../calibration/src/test/resources/logs/real/old_dgx2_v100_all_gather.txt");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).doesNotContain("channels from the log");
    }
}
