package org.ncclharness.calibration.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.read.LogFacts;

/** NCCL's estimate takes the ring channels the run's log printed for its communicator, else the defaults. */
class NcclBaselineTest {

    /** A p4d, 4 A100s on NVLink: NCCL printed 24 coll channels where graph-defaults.json assumes 12 for Ampere. */
    private static List<ChannelCounts> p4dChannels() throws IOException {
        return LogFacts.of(Files.readAllLines(Path.of("src/test/resources/logs/ncclinfo/"
                + "p2p_cumem_read_nvlink_p4d_1pod_4gpu.txt"))).channels();
    }

    private static Hardware a100s(int n) {
        return new Hardware("NVIDIA A100-SXM4-40GB", n, 1, n, 1, "NVLink3", null);
    }

    @Test
    void theLogsChannelsForTheRunsSizeReplaceTheDefault() throws IOException {
        NcclBaseline logged = NcclBaseline.of(Collective.ALL_REDUCE, a100s(4), "2.21.5", null, null, p4dChannels());
        NcclBaseline defaults = NcclBaseline.of(Collective.ALL_REDUCE, a100s(4), "2.21.5", null, null);
        assertThat(logged.model().orElseThrow().channels()).isEqualTo(24);
        assertThat(defaults.model().orElseThrow().channels()).isEqualTo(12);
        assertThat(logged.notes()).anyMatch(n -> n.startsWith("channels from the log: 24 x 20.00 GB/s"));
        assertThat(defaults.notes()).anyMatch(n -> n.startsWith("graph not stated: 12 channels"));
        // twice the channels at the same per-channel speed: a large AllReduce takes about half the time
        long bytes = 1L << 30;
        assertThat(logged.model().orElseThrow().timeUs(bytes, new double[0])).isLessThan(0.6 * defaults.model().orElseThrow()
                .timeUs(bytes, new double[0]));
    }

    /** At another scale the log's counts are not the communicator's: the defaults, and the note says why. */
    @Test
    void atAnotherScaleTheDefaultsAreUsedAndTheNoteNamesTheLogsSize() throws IOException {
        NcclBaseline eight = NcclBaseline.of(Collective.ALL_REDUCE, a100s(8), "2.21.5", null, null, p4dChannels());
        assertThat(eight.model().orElseThrow().channels()).isEqualTo(12);
        assertThat(eight.notes()).anyMatch(n -> n.startsWith("graph not stated: 12 channels")
                && n.endsWith("; the log's channels (24 at N=4) are not those of N=8"));
    }

    @Test
    void communicatorsOfTheRunsSizeThatDisagreeLeaveTheDefault() {
        List<ChannelCounts> two = List.of(new ChannelCounts(4, 2, null, null, 2, 1),
                new ChannelCounts(4, 8, null, null, 8, 1));
        NcclBaseline b = NcclBaseline.of(Collective.ALL_REDUCE, a100s(4), "2.21.5", null, null, two);
        assertThat(b.model().orElseThrow().channels()).isEqualTo(12);
        assertThat(b.notes()).anyMatch(n -> n.endsWith("(2 at N=4, 8 at N=4) differ between communicators of N=4"));
    }
}
