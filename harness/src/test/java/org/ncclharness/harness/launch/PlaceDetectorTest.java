package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/** Every launcher row of docs/launch.md's "Where am I" table, with the environment each one was measured to set. */
class PlaceDetectorTest {

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Place detect(Map<String, String> env) {
        return PlaceDetector.detect(env, PlaceFlags.NONE, 4242);
    }

    /** Open MPI 4.1.4 mpirun -np 4, rank 1 (a subset of the 69 OMPI/PMIX variables it sets). */
    private static Map<String, String> openMpiRank1() {
        return env("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "4", "OMPI_COMM_WORLD_LOCAL_RANK", "1",
                "OMPI_COMM_WORLD_LOCAL_SIZE", "4", "OMPI_COMM_WORLD_NODE_RANK", "1", "OMPI_UNIVERSE_SIZE", "4",
                "OMPI_MCA_ess_base_jobid", "742981633", "PMIX_NAMESPACE", "742981633", "PMIX_RANK", "1",
                "OMPI_MCA_orte_hnp_uri", "742981632.0;tcp://10.0.0.5:40123");
    }

    @Test
    void openMpi() {
        Place p = detect(openMpiRank1());
        assertThat(p.launcher()).isEqualTo(Launcher.OPENMPI);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank, Place::localSize)
                .containsExactly(1, 4, 1, 4);
        assertThat(p.jobId()).isEqualTo("ompi-742981633");
        assertThat(p.jobIdShared()).isTrue();
        assertThat(p.label()).isEqualTo("rank 1/4");
    }

    @Test
    void openMpi5WithoutOrteUsesThePmixNamespace() {
        Map<String, String> e = openMpiRank1();
        e.remove("OMPI_MCA_ess_base_jobid");
        e.put("PMIX_NAMESPACE", "prterun-node01-1234@1");
        assertThat(detect(e).jobId()).isEqualTo("pmix-prterun-node01-1234@1");
    }

    @Test
    void hydraHasNoJobIdSoTheProxyParentStandsInForOneHost() {
        Place p = detect(env("PMI_RANK", "2", "PMI_SIZE", "3", "MPI_LOCALRANKID", "2", "MPI_LOCALNRANKS", "3",
                "PMI_FD", "6", "HYDI_CONTROL_FD", "7", "MPIR_CVAR_CH3_INTERFACE_HOSTNAME", "node01"));
        assertThat(p.launcher()).isEqualTo(Launcher.PMI);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank, Place::localSize)
                .containsExactly(2, 3, 2, 3);
        assertThat(p.jobId()).isEqualTo("hydra-4242");
        assertThat(p.jobIdShared()).isFalse();
    }

    private static Map<String, String> srunRank3() {
        return env("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "SLURM_NPROCS", "4", "SLURM_STEP_NUM_TASKS", "4",
                "SLURM_LOCALID", "1", "SLURM_NODEID", "1", "SLURM_STEP_TASKS_PER_NODE", "2(x2)",
                "SLURM_JOB_ID", "117", "SLURM_STEP_ID", "0", "SLURM_STEP_NODELIST", "gpu[01-02]",
                "SLURM_LAUNCH_NODE_IPADDR", "10.0.0.1", "SLURM_SRUN_COMM_HOST", "10.0.0.1", "SLURM_GTIDS", "2,3");
    }

    @Test
    void srunInsideAStep() {
        Place p = detect(srunRank3());
        assertThat(p.launcher()).isEqualTo(Launcher.SLURM);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank, Place::localSize)
                .containsExactly(3, 4, 1, 2);
        assertThat(p.jobId()).isEqualTo("slurm-117.0");
        assertThat(p.jobIdShared()).isTrue();
    }

    @Test
    void srunPmi2GivesPmiRankAndSlurmTheLocalRank() {
        Map<String, String> e = srunRank3();
        e.putAll(env("PMI_RANK", "3", "PMI_SIZE", "4", "PMI_FD", "5", "PMI_JOBID", "117.0"));
        Place p = detect(e);
        assertThat(p.launcher()).isEqualTo(Launcher.PMI);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank, Place::localSize)
                .containsExactly(3, 4, 1, 2);
        assertThat(p.jobId()).isEqualTo("pmi-117.0");
    }

    @Test
    void srunPmixIsStillSlurm() {
        Map<String, String> e = srunRank3();
        e.putAll(env("PMIX_RANK", "3", "PMIX_NAMESPACE", "slurm.pmix.117.0"));
        Place p = detect(e);
        assertThat(p.launcher()).isEqualTo(Launcher.SLURM);
        assertThat(p.rank()).isEqualTo(3);
        assertThat(p.jobId()).isEqualTo("pmix-slurm.pmix.117.0");
    }

    private static Map<String, String> torchrunRank2() {
        return env("RANK", "2", "WORLD_SIZE", "4", "LOCAL_RANK", "2", "LOCAL_WORLD_SIZE", "4", "MASTER_ADDR",
                "127.0.0.1", "MASTER_PORT", "29500", "GROUP_RANK", "0", "GROUP_WORLD_SIZE", "1", "ROLE_RANK", "2",
                "ROLE_WORLD_SIZE", "4", "TORCHELASTIC_RUN_ID", "none", "TORCHELASTIC_USE_AGENT_STORE", "True",
                "TORCHELASTIC_RESTART_COUNT", "0", "OMP_NUM_THREADS", "1", "NCCL_ASYNC_ERROR_HANDLING", "1");
    }

    @Test
    void torchrun() {
        Place p = detect(torchrunRank2());
        assertThat(p.launcher()).isEqualTo(Launcher.TORCHRUN);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank, Place::localSize)
                .containsExactly(2, 4, 2, 4);
        assertThat(p.jobId()).isEqualTo("torchrun-none@127.0.0.1:29500");
    }

    @Test
    void handLaunchedJobsOnOnePortAreToldApartByHarnessJobId() {
        Map<String, String> a = env("RANK", "1", "WORLD_SIZE", "2", "MASTER_ADDR", "10.0.0.1", "MASTER_PORT", "29500");
        Place plain = detect(a);
        assertThat(plain.jobId()).isEqualTo("env-10.0.0.1:29500");
        assertThat(plain.hints()).anyMatch(h -> h.contains("HARNESS_JOB_ID"));
        Map<String, String> b = new java.util.HashMap<>(a);
        b.put("HARNESS_JOB_ID", "sweep-42");
        Place named = detect(b);
        assertThat(named.jobId()).isEqualTo("job-sweep-42");
        assertThat(named.jobIdShared()).isTrue();
        assertThat(named.hints()).isEmpty();
    }

    @Test
    void kubernetesEnvWithoutLocalRankLeavesItToHostIds() {
        Place p = detect(env("RANK", "5", "WORLD_SIZE", "8", "MASTER_ADDR", "job-master-0", "MASTER_PORT",
                "23456"));
        assertThat(p.launcher()).isEqualTo(Launcher.TORCHRUN);
        assertThat(p.localRank()).isEqualTo(-1);
        assertThat(p.localKnown()).isFalse();
        assertThat(p.jobId()).isEqualTo("env-job-master-0:23456");
        assertThat(p.jobIdShared()).isTrue();
    }

    @Test
    void torchrunInsideSrunTrustsTorchrun() {
        Map<String, String> e = srunRank3();
        e.putAll(torchrunRank2());
        Place p = detect(e);
        assertThat(p.launcher()).isEqualTo(Launcher.TORCHRUN);
        assertThat(p.rank()).isEqualTo(2);
    }

    /** The measured trap: mpirun inside sbatch; every rank inherits the batch step's SLURM_PROCID=0. */
    @Test
    void mpirunInsideSbatchIgnoresTheBatchStepsSlurmProcId() {
        Map<String, String> e = openMpiRank1();
        e.putAll(env("SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_LOCALID", "0", "SLURM_JOB_ID", "118",
                "SLURM_NODEID", "0", "SLURM_TASKS_PER_NODE", "4"));
        Place p = detect(e);
        assertThat(p.launcher()).isEqualTo(Launcher.OPENMPI);
        assertThat(p.rank()).isEqualTo(1);
        assertThat(p.localRank()).isEqualTo(1);
        assertThat(p.jobId()).isEqualTo("ompi-742981633");
    }

    @Test
    void batchStepWithoutSrunIsASingleProcessWithAHint() {
        Place p = detect(env("SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_LOCALID", "0", "SLURM_JOB_ID",
                "118"));
        assertThat(p.launcher()).isEqualTo(Launcher.SINGLE);
        assertThat(p.worldSize()).isEqualTo(1);
        assertThat(p.hints()).singleElement().asString().contains("Slurm allocated 4 tasks").contains("srun");
    }

    @Test
    void noLauncherIsASingleProcessWithoutHints() {
        Place p = detect(env("HOME", "/root"));
        assertThat(p).extracting(Place::launcher, Place::rank, Place::worldSize, Place::localRank,
                Place::localSize).containsExactly(Launcher.SINGLE, 0, 1, 0, 1);
        assertThat(p.hints()).isEmpty();
    }

    @Test
    void flagsBeatEveryLauncher() {
        Place p = PlaceDetector.detect(torchrunRank2(), new PlaceFlags(1, 2, null), 1);
        assertThat(p.launcher()).isEqualTo(Launcher.FLAGS);
        assertThat(p).extracting(Place::rank, Place::worldSize, Place::localRank).containsExactly(1, 2, -1);
        Place manual = PlaceDetector.detect(env(), new PlaceFlags(0, 2, 0), 1);
        assertThat(manual.localRank()).isZero();
        assertThat(manual.jobId()).isEqualTo("manual");
        assertThat(manual.jobIdShared()).isFalse();
    }

    @Test
    void localRankFlagOverridesTheLaunchers() {
        Place p = PlaceDetector.detect(openMpiRank1(), new PlaceFlags(null, null, 3), 1);
        assertThat(p.launcher()).isEqualTo(Launcher.OPENMPI);
        assertThat(p.localRank()).isEqualTo(3);
    }

    @Test
    void badInputIsAUsageErrorNamingTheVariable() {
        assertThatThrownBy(() -> PlaceDetector.detect(env(), new PlaceFlags(1, null, null), 1))
                .isInstanceOf(HarnessException.class).hasMessageContaining("--rank and --world-size go together")
                .extracting(e -> ((HarnessException) e).exitCode()).isEqualTo(ExitCode.USAGE);
        Map<String, String> e = openMpiRank1();
        e.put("OMPI_COMM_WORLD_SIZE", "four");
        assertThatThrownBy(() -> detect(e)).hasMessage("OMPI_COMM_WORLD_SIZE=four: expected a whole number");
        assertThatThrownBy(() -> detect(env("RANK", "4", "WORLD_SIZE", "4")))
                .hasMessageStartingWith("rank 4 of world size 4 (from RANK=4 WORLD_SIZE=4)");
        assertThatThrownBy(() -> detect(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "2",
                "LOCAL_WORLD_SIZE", "2"))).hasMessageContaining("local rank 2 of local size 2");
        assertThatThrownBy(() -> detect(env("OMPI_COMM_WORLD_RANK", "0")))
                .hasMessageStartingWith("OMPI_COMM_WORLD_SIZE is not set");
    }

    @Test
    void slurmTasksPerNode() {
        assertThat(PlaceDetector.expandTasksPerNode("2(x3),1")).containsExactly(2, 2, 2, 1);
        assertThat(PlaceDetector.expandTasksPerNode("8")).containsExactly(8);
        assertThatThrownBy(() -> PlaceDetector.expandTasksPerNode("2(x")).hasMessageContaining("2(x3),1");
        Map<String, String> e = srunRank3();
        e.put("SLURM_STEP_TASKS_PER_NODE", "3,1");
        e.put("SLURM_NODEID", "5"); // a node id outside the step's list: unknown, not a wrong guess
        assertThat(detect(e).localSize()).isEqualTo(-1);
    }
}
