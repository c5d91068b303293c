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
    /**
     * Prose that names NCCL_ALGO=X (a note above the log, a thread's words) forces nothing, for the reader's table as
     * for the diagnosis (which reads {@link LogFacts#environment}): before, the reader took 'NVLSTree.' from a note
     * and LogFacts took a note naming mpirun and all_reduce_perf as the command line, so diagnose missed the real
     * launch line's NCCL_ALGO=Ring (logs/real/ nccltests294, nccl1368).
     */
    @Test
    void proseSetsNothingAndTheLaunchLineItsContinuationsABracketPromptAndEnvLinesDo() {
        String row = "   134217728      33554432     float     sum      -1    738.7  181.69  340.67      0    739.9  181.40"
                + "  340.12      0";
        List<String> prose = List.of("notes: the thread forced NCCL_ALGO=NVLSTree. on all_reduce_perf via mpirun", row);
        assertThat(forced(prose)).isNull();
        assertThat(LogFacts.of(prose).environment()).doesNotContainKey("NCCL_ALGO");
        assertThat(LogFacts.of(prose).commandLine()).isNull();
        for (List<String> launch : List.of(
                List.of("collective: all_reduce (all_reduce_perf on the mpirun line)",
                        "/usr/mpi/bin/mpirun -np 40 -x NCCL_ALGO=Ring /opt/nccl-tests/all_reduce_perf -b 1M -e 1G", row),
                List.of("mpirun -np 8 -H $hosts -x NCCL_IB_GID_INDEX=3 \\", "        -x NCCL_ALGO=Ring"
                        + " /opt/rccl-tests/all_reduce_perf -b 8 -e 16G -f 2 -g 1", row),
                List.of("[root@node-29 nccl-tests]# mpirun -np 2 -x NCCL_ALGO=Ring ./build/all_reduce_perf -b 8", row),
                List.of("NCCL_ALGO=Ring", row))) {
            assertThat(forced(launch)).as("%s", launch).isEqualTo("Ring");
            assertThat(LogFacts.of(launch).environment()).as("%s", launch).containsEntry("NCCL_ALGO", "Ring");
        }
    }
}
