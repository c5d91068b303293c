package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
