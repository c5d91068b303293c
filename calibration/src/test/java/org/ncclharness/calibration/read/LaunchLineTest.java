package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;

/** Host counts from the launch lines of real logs (the bundled raw files), and what is not one. */
class LaunchLineTest {

    private static int hosts(String line) {
        return LaunchLine.of(line).orElseThrow().hosts();
    }

    @Test
    void openMpiRanksOverRanksPerNodeOrItsHostList() {
        assertThat(hosts("mpirun -np 32 -N 8 --hostfile /tmp/hosts.txt -x LD_LIBRARY_PATH ./build/all_reduce_perf"
                + " -b 1M -e 8G -f 2 -g 1")).isEqualTo(4);
        assertThat(hosts("$ mpirun --allow-run-as-root -n 16 -H inst-xxxxx-h100-ol89:8,inst-yyyyy-h100-ol89:8 -mca"
                + " plm_rsh_args \"-p 22222\" ./build/all_reduce_perf -b 8 -e 8G")).isEqualTo(2);
        assertThat(hosts("mpirun -np 16 --map-by ppr:8:node ./all_reduce_perf -b 8 -e 1G")).isEqualTo(2);
        assertThat(hosts("mpiexec.hydra -n 16 -ppn 4 ./all_gather_perf -b 8 -e 1G")).isEqualTo(4);
    }

    @Test
    void slurmsDashNIsNodesAndTheBenchmarksOwnFlagsAreNotTheLaunchers() {
        assertThat(hosts("srun -N 2 --ntasks-per-node=8 --mpi=pmix ./all_reduce_perf -b 8 -e 8G")).isEqualTo(2);
        assertThat(hosts("srun --mpi=pmix --nodes=4 --ntasks-per-node=4 /opt/nccl-tests/build/all_reduce_perf -b8"))
                .isEqualTo(4);
        assertThat(hosts("srun -n 16 --ntasks-per-node=8 ./all_reduce_perf -b 8 -e 8G -n 100")).isEqualTo(2);
        // the benchmark's -n (iterations) and -N (its own run count) are not the launcher's
        LaunchLine ranksOnly = LaunchLine.of("mpirun -np 16 ./all_reduce_perf -b 8 -e 8G -N 4 -n 20").orElseThrow();
        assertThat(ranksOnly.hosts()).isNull();
        assertThat(ranksOnly.ranks()).isEqualTo(16);
    }

    /** N is the processes times the benchmark's GPUs and threads per process (nccl-tests' nProcs x nThreads x nGpus). */
    @Test
    void theRanksAreProcessesTimesEachOnesGpusAndThreads() {
        assertThat(LaunchLine.of("mpirun -np 2 -H a:1,b:1 ./all_reduce_perf -b 8 -e 1G -g 8").orElseThrow().ranks())
                .isEqualTo(16);
        assertThat(LaunchLine.of("mpirun -np 2 ./all_reduce_perf --ngpus 2 --nthreads 2").orElseThrow().ranks())
                .isEqualTo(8);
        // real: NVIDIA/nccl#1368, 5 hosts x 8 processes of one GPU
        LaunchLine real = LaunchLine.of("/usr/mpi/gcc/openmpi-4.1.7a1/bin/mpirun --allow-run-as-root -np 40 -H"
                + " 100.64.40.36:8,100.64.40.39:8,100.64.40.41:8,100.64.40.42:8,100.64.40.43:8  --timestamp-output"
                + " -x NCCL_ALGO=Ring /root/nccl_apps/nccl-test/all_reduce_perf -b 1M -e 1G -g 1 -f 2").orElseThrow();
        assertThat(real.hosts()).isEqualTo(5);
        assertThat(real.ranks()).isEqualTo(40);
    }

    @Test
    void aLineWithoutTheCountOrWithoutALauncherStatesNone() {
        // a host file's hosts are not on the line: the ranks are, the hosts are not
        assertThat(LaunchLine.of("mpirun --hostfile hosts.txt -np 16 ./all_reduce_perf -b 8 -e 1G")).get()
                .isEqualTo(new LaunchLine(null, 16, "mpirun 16 processes"));
        assertThat(LaunchLine.of("./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8")).isEmpty();
        assertThat(LaunchLine.of("srun --nodes=2-4 ./all_reduce_perf")).isEmpty();
    }

    /** A real 4-host log that lists only its first host's 8 ranks: the launch line gives the hosts. */
    @Test
    void aLogWhoseDeviceListShowsOneHostTakesTheLaunchLinesCount() throws Exception {
        Path raw = Path.of("../datasets/raw/h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion.txt");
        List<String> lines = Files.readAllLines(raw);
        List<String> log = lines.subList(lines.indexOf("=== RAW (copied verbatim from the source) ===") + 1,
                lines.size());
        Sweep s = new NcclTestsLogReader("run.txt", null).read(log).get(0);
        assertThat(s.devices()).hasSize(8);
        assertThat(s.hardware().ranks()).isEqualTo(32);
        assertThat(s.hardware().hosts()).isEqualTo(4);
        assertThat(Note.texts(s.notes())).contains("4 hosts taken as the launch line states (mpirun 32 ranks, 8 per node): the"
                + " device list does not show every rank");
        // without the launch line the count stays unknown, never the one host the list shows
        Sweep cut = new NcclTestsLogReader("run.txt", null).read(log.stream()
                .filter(l -> !l.contains("mpirun")).toList()).get(0);
        assertThat(cut.hardware().hosts()).isNull();
    }
}
