package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NCCL_ALGO a log says its run forced: NCCL's own INFO line, or an assignment on the launch line. */
class ForcedAlgoTest {

    private static List<String> block(Path p, String from, String to) throws Exception {
        List<String> all = Files.readAllLines(p);
        int a = all.indexOf(from) + 1;
        int b = to == null ? -1 : all.indexOf(to);
        return all.subList(a, b < 0 ? all.size() : b);
    }

    private static String forced(List<String> lines) {
        return new NcclTestsLogReader("run.log", null).read(lines).get(0).run().forcedAlgo();
    }

    @Test
    void readFromNcclsInfoLinesFromALaunchLineAndNotInventedWhereTheLogIsSilent() throws Exception {
        // #319: '-x NCCL_ALGO=RING' sits on a continued mpirun line; NCCL says 'NCCL_ALGO set by environment to RING'
        List<String> ring = block(Path.of("src/test/resources/logs/ncclinfo/"
                + "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt"), "=== RAW", "=== END RAW");
        assertThat(forced(ring)).isEqualTo("RING");
        assertThat(forced(ring.stream().filter(l -> !l.contains("NCCL INFO")).toList())).isEqualTo("RING");
        assertThat(forced(ring.stream().filter(l -> !l.contains("-x NCCL_ALGO")).toList())).isEqualTo("RING");
        // an mpirun line with '-x NCCL_ALGO=ring' and NCCL_DEBUG=VERSION: no INFO line says it
        String raw = "=== RAW (copied verbatim from the source) ===";
        assertThat(forced(block(Path.of("../datasets/raw/l40s_allreduce_2gpu_2node_tcp_ring_schmaustech.txt"), raw,
                null))).isEqualTo("ring");
        assertThat(forced(block(Path.of("../datasets/raw/h100_allreduce_16gpu_2node_aws_p5_efa_eks.txt"), raw,
                null))).isNull();
    }
}
