package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.JobGroup;
import org.ncclharness.harness.launch.JobGroups;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.JobOptions;
import org.ncclharness.harness.launch.Launcher;
import org.ncclharness.harness.launch.Member;
import org.ncclharness.harness.launch.Place;
import org.ncclharness.harness.launch.RendezvousSpec;

/** Four real job members (threads over the file rendezvous) in colours of two: each colour reduces its own values. */
class ColourGroupTest {

    @TempDir
    Path tmp;

    @Test
    void eachColourReducesAmongItsOwnProcessesAndIndexesThemInRankOrder() throws Exception {
        LongUnaryOperator colour = r -> r / 2; // {0, 1} and {2, 3}, as two hosts of two
        // limits only a hang reaches: no verdict here is a timeout
        JobOptions options = new JobOptions(Duration.ofSeconds(120), Duration.ofSeconds(120),
                Duration.ofMillis(200), Duration.ofSeconds(60), 1 << 16, null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<double[]>> out = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (org.ncclharness.harness.launch.JobGroup job = JobGroups.join(
                            new Place(Launcher.FLAGS, rank, 4, -1, -1, "test-job", true, "test", List.of()),
                            new RendezvousSpec.File(tmp.resolve("rdzv"), true, "test"),
                            new Member(rank, "localhost", "host-" + rank / 2, 1000 + rank, -1, -1, 2, List.of()),
                            new JobIdentity("job", "1.0", "args"), options, null, new PrintStream(
                                    java.io.OutputStream.nullOutputStream()))) {
                        ColourGroup g = new ColourGroup(job, colour);
                        double[] sum = {rank, 10 * rank};
                        g.allreduce(sum, JobGroup.Reduction.SUM);
                        double[] max = {rank};
                        g.allreduce(max, JobGroup.Reduction.MAX);
                        double[] min = {rank};
                        g.allreduce(min, JobGroup.Reduction.MIN);
                        g.barrier();
                        return new double[] {sum[0], sum[1], max[0], min[0], g.processIndex(), g.processCount()};
                    }
                }));
            }
            assertThat(out.get(0).get(240, TimeUnit.SECONDS)).containsExactly(1, 10, 1, 0, 0, 2);
            assertThat(out.get(1).get(240, TimeUnit.SECONDS)).containsExactly(1, 10, 1, 0, 1, 2);
            assertThat(out.get(2).get(240, TimeUnit.SECONDS)).containsExactly(5, 50, 3, 2, 0, 2);
            assertThat(out.get(3).get(240, TimeUnit.SECONDS)).containsExactly(5, 50, 3, 2, 1, 2);
        } finally {
            pool.shutdownNow();
        }
    }
}
