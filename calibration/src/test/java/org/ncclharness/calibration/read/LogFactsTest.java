package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.nccl.ChannelCounts;

/** The facts a bring-up record takes from a log's other lines, on real NCCL_DEBUG=INFO excerpts (sources in their headers). */
class LogFactsTest {

    private static List<String> lines(String name) throws IOException {
        return Files.readAllLines(Path.of("src/test/resources/logs/ncclinfo/" + name));
    }

    @Test
    void aFourNodeSharpRunStatesItsVersionsEnvironmentAndSixNics() throws IOException {
        LogFacts f = LogFacts.of(lines("collnet_sharp_init_then_hang_a100_4node_2gpu_nccl2234_tests311.txt"));
        assertThat(f.ncclVersions()).containsExactly("2.23.4");
        assertThat(f.ncclCuda()).isEqualTo("12.4");
        assertThat(f.driverVersion()).isEqualTo("supports CUDA 12.4");
        assertThat(f.environment()).containsEntry("NCCL_COLLNET_ENABLE", "1");
        assertThat(f.nicsPerHost()).isEqualTo(6);
    }

    @Test
    void nicsAreCountedFromTheUsingLineAndRoIsNotANic() throws IOException {
        assertThat(NicCount.fromLines(List.of("h:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE"
                + " [RO]; OOB primaryip:10.10.10.10<0>"))).hasValue(2);
        assertThat(NicCount.fromLines(List.of("h:1:1 [0] NCCL INFO NET/IB : Using [RO]; OOB enp6s0:192.168.68.52<0>")))
                .isEmpty();
        // NCCL 2.3 printed one HCA per line ('NET/IB: [0] mlx5_1:1/IB'), each rank the same four
        assertThat(LogFacts.of(lines("ib_internal_4hca_nccl237_old_format_issue179.txt")).nicsPerHost()).isEqualTo(4);
    }

    /** aws-ofi-nccl names no devices, but says how many it found on the host (real p5 log, 32 EFA NICs). */
    @Test
    void anOfiLogCountsTheNicsTheProviderFound() throws IOException {
        List<String> p5 = Files.readAllLines(Path.of("src/test/resources/logs/real/"
                + "prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt"));
        assertThat(NicCount.fromLines(p5)).hasValue(32);
        assertThat(LogFacts.of(p5).nicsPerHost()).isEqualTo(32);
    }

    @Test
    void aShellLineLaunchingATestIsTheCommandLineAndItsNcclVariablesTheEnvironment() {
        LogFacts f = LogFacts.of(List.of("2024-05-01T10:00:00 starting",
                "> mpirun -np 16 -x NCCL_IB_HCA=\"mlx5_0,mlx5_1\" -x NCCL_ALGO=Ring ./build/all_reduce_perf -b 8 -e 8G -f 2",
                "NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2",
                "node1:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.2",
                "node2:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.2"));
        assertThat(f.commandLine()).startsWith("mpirun -np 16").endsWith("-f 2");
        assertThat(f.environment()).containsEntry("NCCL_IB_HCA", "mlx5_0,mlx5_1").containsEntry("NCCL_ALGO", "Ring");
        assertThat(f.driverVersion()).isEqualTo("535.104.05");
        assertThat(f.ncclVersions()).containsExactly("2.18.3", "2.19.3");
        assertThat(f.date()).isEqualTo("2024-05-01");
        assertThat(LogFacts.of(List.of("# collective: all_reduce_perf (redop sum)")).commandLine()).isNull();
    }

    /** NVIDIA/nccl-tests#319: the mpirun command runs over 13 lines joined by backslashes, its variables on them. */
    @Test
    void aCommandContinuedOverSeveralLinesIsOneCommandLine() throws IOException {
        List<String> all = lines("ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt");
        LogFacts f = LogFacts.of(all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW")));
        assertThat(f.commandLine()).startsWith("mpirun --allow-run-as-root --np 16 -H lccn09:8,lccn19:8 --bind-to none")
                .contains("-x NCCL_ALGO=RING").endsWith("all_reduce_perf -b 8 -e 16g -f 2 -g 1");
        assertThat(f.environment()).containsEntry("NCCL_ALGO", "RING").containsEntry("NCCL_IB_QPS_PER_CONNECTION", "64")
                .containsKey("NCCL_IB_HCA");
    }

    /**
     * A p5 2x8 log (NCCL 2.22.3, EFA): every one of the 16 ranks prints the same counts line, its thread's Init START
     * line giving the communicator's size; NVLS channels > 0 say NCCL had NVLS.
     */
    @Test
    void theChannelCountsLineIsReadWithTheSizeOfTheCommunicatorThatPrintedIt() throws IOException {
        LogFacts f = LogFacts.of(Files.readAllLines(Path.of("src/test/resources/logs/real/"
                + "prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt")));
        ChannelCounts sixteen = new ChannelCounts(16, 16, 16, 16, 16, 2);
        assertThat(f.channels()).containsExactly(sixteen);
        assertThat(f.channelsFor(16)).contains(sixteen);
        assertThat(f.channelsFor(8)).isEmpty();
        assertThat(sixteen.nvlsAvailable()).contains(true);
        assertThat(sixteen.describe()).isEqualTo("16 coll, 16 collnet, 16 nvls, 16 p2p (2 per peer) channels");
    }

    /**
     * Two communicators of 4 ranks on a p4d (24 channels each, 0 NVLS: an A100): the first prints its counts before
     * its thread's Init COMPLETE line says the size, the second after its {@code comm ... nRanks 4} line.
     */
    @Test
    void countsPrintedBeforeTheSizeWaitForTheirThreadsInitCompleteLine() throws IOException {
        LogFacts f = LogFacts.of(lines("p2p_cumem_read_nvlink_p4d_1pod_4gpu.txt"));
        assertThat(f.channels()).containsExactly(new ChannelCounts(4, 24, 24, 0, 32, 32));
        assertThat(f.channelsFor(4).flatMap(ChannelCounts::nvlsAvailable)).contains(false);
    }

    /** Counts lines without the host:pid:tid prefix, or none of whose threads says its size, are of no known size. */
    @Test
    void countsOfNoKnownSizeStandForTheTestedCommunicatorOnlyWhereNoneHasASize() throws IOException {
        LogFacts h800 = LogFacts.of(lines("nvls_comm_h800_4gpu_timeout_issue1609.txt"));
        assertThat(h800.channels()).containsExactly(new ChannelCounts(null, 16, 0, 16, 16, 2));
        assertThat(h800.channelsFor(4)).contains(new ChannelCounts(null, 16, 0, 16, 16, 2));
        LogFacts mixed = LogFacts.of(List.of("h:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1",
                "h:1:1 [0] NCCL INFO 8 coll channels, 8 p2p channels, 1 p2p channels per peer",
                "NCCL INFO 4 coll channels, 4 p2p channels, 1 p2p channels per peer"));
        assertThat(mixed.channelsFor(8)).contains(new ChannelCounts(8, 8, null, null, 8, 1));
        assertThat(mixed.channelsFor(16)).as("a size is stated, and it is not 16").isEmpty();
    }

    /** Two communicators of one size with different counts: the log does not say which was measured. */
    @Test
    void twoCommunicatorsOfTheTestedSizeThatDisagreeGiveNoCount() {
        LogFacts f = LogFacts.of(List.of("h:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1",
                "h:1:1 [0] NCCL INFO 2 coll channels, 2 p2p channels, 1 p2p channels per peer",
                "h:1:2 [0] NCCL INFO comm 0x2 rank 0 nRanks 2 nNodes 1",
                "h:1:2 [0] NCCL INFO 4 coll channels, 4 p2p channels, 1 p2p channels per peer"));
        assertThat(f.channels()).hasSize(2);
        assertThat(f.channelsFor(2)).isEmpty();
    }

    /** NCCL 2.7 and earlier print no counts line: the channel-0 ring line gives the channels and lists the ranks. */
    @Test
    void anOldLogsRingLineGivesTheRingChannels() throws IOException {
        LogFacts f = LogFacts.of(lines("socket_multinic_ethernet_2node_8gpu_issue601.txt"));
        assertThat(f.channels()).containsExactly(new ChannelCounts(8, 8, null, null, null, null));
        assertThat(f.channelsFor(8).map(ChannelCounts::nvlsAvailable)).contains(java.util.Optional.empty());
    }
}
