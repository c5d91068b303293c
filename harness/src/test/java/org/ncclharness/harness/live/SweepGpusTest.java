package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.JobGroups;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.JobOptions;
import org.ncclharness.harness.launch.Launcher;
import org.ncclharness.harness.launch.Member;
import org.ncclharness.harness.launch.Place;
import org.ncclharness.harness.launch.RendezvousSpec;

/** The GPUs a sweep's ranks drive, and two ranks on one GPU refused before NCCL sees them (no GPU needed). */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SweepGpusTest {

    /** Four devices as the probe reports them (test data, no GPU). */
    private static final List<GpuDevice> FOUR = List.of(gpu(0, "0000:18:00.0"), gpu(1, "0000:2a:00.0"),
            gpu(2, "0000:3a:00.0"), gpu(3, "0000:5d:00.0"));

    private static GpuDevice gpu(int index, String busId) {
        return new GpuDevice(index, "NVIDIA H100 80GB HBM3", busId, 80L << 30, 9, 0, 132);
    }

    private static Member driver(int rank, String hostId, String... busIds) {
        return new Member(rank, "node-" + hostId, hostId, 100 + rank, -1, -1, 8, List.of(busIds));
    }

    @Test
    void eachProcessDrivesItsLocalRanksSliceOrFromNcclTestsDevice() {
        assertThat(SweepGpus.chosen(null, 2, 1, FOUR)).extracting(GpuDevice::index).containsExactly(2, 3);
        assertThat(SweepGpus.busIds(SweepGpus.chosen(null, 1, 3, FOUR))).containsExactly("0000:5d:00.0");
        assertThat(SweepGpus.chosen(1, 2, 5, FOUR)).extracting(GpuDevice::index).containsExactly(1, 2);
        assertThatThrownBy(() -> SweepGpus.chosen(null, 2, 2, FOUR)).isInstanceOfSatisfying(HarnessException.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessage("Invalid number of GPUs: 6 requested but only 4 were found.");
    }

    @Test
    void twoRanksOfOneHostOnOneGpuAreRefusedWithTheFix() {
        assertThatThrownBy(() -> SweepGpus.refuseShared(List.of(driver(0, "a", "0000:18:00.0"),
                driver(1, "a", "0000:18:00.0"), driver(2, "b", "0000:18:00.0")), 0))
                .isInstanceOfSatisfying(HarnessException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
                .hasMessage("two or more ranks would drive one GPU (the GPUs each rank chose): ranks [0, 1] on host"
                        + " node-a all chose GPU 0000:18:00.0: NCCL_TESTS_DEVICE=0 gives every rank of a host the same"
                        + " GPUs: unset it, or set it per rank (local rank × -t × -g)");
        // -g 2 slices that overlap in one GPU (different CUDA_VISIBLE_DEVICES orders on one host)
        assertThatThrownBy(() -> SweepGpus.refuseShared(List.of(driver(0, "a", "0000:18:00.0", "0000:2a:00.0"),
                driver(1, "a", "0000:2a:00.0", "0000:3a:00.0")), null))
                .hasMessageContaining("ranks [0, 1] on host node-a all chose GPU 0000:2a:00.0: give every rank of a"
                        + " host the same CUDA_VISIBLE_DEVICES");
        // the same bus id on two hosts is two GPUs; distinct slices on one host are fine
        SweepGpus.refuseShared(List.of(driver(0, "a", "0000:18:00.0"), driver(1, "b", "0000:18:00.0"),
                driver(2, "a", "0000:2a:00.0", "0000:3a:00.0")), null);
    }

    @TempDir
    Path tmp;

    /** Two ranks of one host joined over loopback; returns what each rank's {@code agree} threw, or null. */
    private List<Throwable> agreeInAJob(List<List<GpuDevice>> choices, Integer testsDevice) throws Exception {
        // limits only a hang reaches: no verdict here is a timeout
        JobOptions fast = new JobOptions(Duration.ofSeconds(120), Duration.ofSeconds(120), Duration.ofMillis(200),
                Duration.ofSeconds(60), 1 << 16, null);
        JobIdentity id = new JobIdentity("job-token", "1.0", "args");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<Throwable>> fs = new ArrayList<>();
            for (int r = 0; r < choices.size(); r++) {
                int rank = r;
                fs.add(pool.submit(() -> {
                    Place place = new Place(Launcher.FLAGS, rank, choices.size(), -1, -1, "test-job", true, "test",
                            List.of());
                    Member self = new Member(rank, "localhost", "host-a", 1000 + rank, -1, -1, 2,
                            SweepGpus.busIds(FOUR));
                    try (JobGroup job = JobGroups.join(place, new RendezvousSpec.File(tmp.resolve("rdzv"), true,
                            "test"), self, id, fast, null, quiet)) {
                        SweepGpus.agree(job, choices.get(rank), testsDevice);
                        job.barrier();
                        return null;
                    } catch (HarnessException e) {
                        return e;
                    }
                }));
            }
            List<Throwable> out = new ArrayList<>();
            for (Future<Throwable> f : fs) {
                try {
                    out.add(f.get(240, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    out.add(e.getCause());
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void inAJobEveryRankRefusesAlikeBeforeNcclAndDistinctChoicesGoOn() throws Exception {
        List<Throwable> same = agreeInAJob(List.of(SweepGpus.chosen(0, 1, 0, FOUR), SweepGpus.chosen(0, 1, 1, FOUR)), 0);
        assertThat(same).hasSize(2).allSatisfy(t -> assertThat(t).isInstanceOfSatisfying(HarnessException.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
                .hasMessageStartingWith("two or more ranks would drive one GPU (the GPUs each rank chose): ranks [0, 1]"
                        + " on host localhost all chose GPU 0000:18:00.0"));
        List<Throwable> distinct = agreeInAJob(List.of(SweepGpus.chosen(null, 1, 0, FOUR),
                SweepGpus.chosen(null, 1, 1, FOUR)), null);
        assertThat(distinct).containsExactly(null, null);
    }
}
