package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * Where am I in the job: a pure function of the environment and the flags (docs/launch.md, "Where am I").
 *
 * <p>Precedence: flags, torchrun/env:// ({@code RANK}+{@code WORLD_SIZE}), Open MPI
 * ({@code OMPI_COMM_WORLD_*}), PMI ({@code PMI_RANK}, Hydra's {@code MPI_LOCALRANKID}), Slurm only inside a job
 * step, else a single process. Slurm comes last and needs {@code SLURM_STEP_ID} because a plain {@code mpirun}
 * inside {@code sbatch} hands every rank the batch step's {@code SLURM_PROCID=0} (measured).
 */
public final class PlaceDetector {

    private PlaceDetector() {
    }

    /**
     * @param env       the process environment
     * @param flags     the command-line flags
     * @param parentPid this process's parent pid: Hydra gives no job id, and its ranks on one host share the
     *                  {@code hydra_pmi_proxy} parent
     */
    public static Place detect(Map<String, String> env, PlaceFlags flags, long parentPid) {
        Place p = fromLaunchers(env, flags, parentPid);
        if (flags.localRank() != null) {
            p = new Place(p.launcher(), p.rank(), p.worldSize(), flags.localRank(), p.localSize(), p.jobId(),
                    p.jobIdShared(), p.evidence() + " --local-rank=" + flags.localRank(), p.hints());
        }
        validate(p);
        return p;
    }

    private static Place fromLaunchers(Map<String, String> env, PlaceFlags flags, long parentPid) {
        JobId job = jobId(env, parentPid);
        if (flags.rank() != null || flags.worldSize() != null) {
            if (flags.rank() == null || flags.worldSize() == null) {
                throw new HarnessException(ExitCode.USAGE,
                        "--rank and --world-size go together: give both, or neither to read them from the launcher");
            }
            return new Place(Launcher.FLAGS, flags.rank(), flags.worldSize(), -1, -1, job.id, job.shared,
                    "--rank=" + flags.rank() + " --world-size=" + flags.worldSize(), List.of());
        }
        if (env.containsKey("RANK") && env.containsKey("WORLD_SIZE")) {
            List<String> hints = job.id.startsWith(ENV_PREFIX) ? List.of("started by hand (RANK/WORLD_SIZE, no launcher"
                    + " job id): set HARNESS_JOB_ID to the same value on every rank, else another such job on one"
                    + " MASTER_PORT is told apart only on rank 0's host, by the session its ranks were started"
                    + " from") : List.of();
            return new Place(Launcher.TORCHRUN, num(env, "RANK"), num(env, "WORLD_SIZE"),
                    optNum(env, "LOCAL_RANK"), optNum(env, "LOCAL_WORLD_SIZE"), job.id, job.shared,
                    evidence(env, "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"), hints);
        }
        if (env.containsKey("OMPI_COMM_WORLD_RANK")) {
            return new Place(Launcher.OPENMPI, num(env, "OMPI_COMM_WORLD_RANK"), num(env, "OMPI_COMM_WORLD_SIZE"),
                    optNum(env, "OMPI_COMM_WORLD_LOCAL_RANK"), optNum(env, "OMPI_COMM_WORLD_LOCAL_SIZE"),
                    job.id, job.shared, evidence(env, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                            "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"), List.of());
        }
        boolean inStep = env.containsKey("SLURM_STEP_ID") && env.containsKey("SLURM_PROCID");
        if (env.containsKey("PMI_RANK")) {
            int localRank = optNum(env, "MPI_LOCALRANKID");
            int localSize = optNum(env, "MPI_LOCALNRANKS");
            String evidence = evidence(env, "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS");
            if (localRank < 0 && inStep) { // srun --mpi=pmi2 sets PMI_RANK but no local rank; Slurm knows it
                localRank = optNum(env, "SLURM_LOCALID");
                localSize = slurmLocalSize(env);
                evidence += " " + evidence(env, "SLURM_LOCALID");
            }
            return new Place(Launcher.PMI, num(env, "PMI_RANK"), num(env, "PMI_SIZE"), localRank, localSize,
                    job.id, job.shared, evidence, List.of());
        }
        if (inStep) {
            return new Place(Launcher.SLURM, num(env, "SLURM_PROCID"), num(env, "SLURM_NTASKS"),
                    optNum(env, "SLURM_LOCALID"), slurmLocalSize(env), job.id, job.shared,
                    evidence(env, "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_STEP_ID"), List.of());
        }
        List<String> hints = new ArrayList<>();
        int tasks = env.containsKey("SLURM_NTASKS") ? num(env, "SLURM_NTASKS") : 1;
        if (tasks > 1) {
            hints.add("Slurm allocated " + tasks + " tasks but this process runs outside a job step"
                    + " (no SLURM_STEP_ID): start it with 'srun java -jar harness.jar ...' to run " + tasks
                    + " ranks");
        }
        return new Place(Launcher.SINGLE, 0, 1, 0, 1, "single", false, "no launcher variables", hints);
    }

    /**
     * Whether {@code jobId} is one this class made up because neither a launcher nor {@code HARNESS_JOB_ID}
     * names the job (started by hand): two such jobs on one port get the same id.
     */
    static boolean namedByNobody(String jobId) {
        return jobId.equals(MANUAL) || jobId.startsWith(ENV_PREFIX);
    }

    private static final String MANUAL = "manual";
    private static final String ENV_PREFIX = "env-";

    private record JobId(String id, boolean shared) {
    }

    /** The launcher's job id (docs/launch.md's table), the same on every rank where the launcher has one. */
    private static JobId jobId(Map<String, String> env, long parentPid) {
        // The user's own name for the job beats every guess: two jobs started by hand on one MASTER_PORT
        // would otherwise share the token "env-ADDR:PORT" and could take each other's ranks
        if (env.containsKey("HARNESS_JOB_ID") && !env.get("HARNESS_JOB_ID").isBlank()) {
            return new JobId("job-" + env.get("HARNESS_JOB_ID").strip(), true);
        }
        if (env.containsKey("TORCHELASTIC_RUN_ID") && env.containsKey("MASTER_ADDR")) {
            return new JobId("torchrun-" + env.get("TORCHELASTIC_RUN_ID") + "@" + env.get("MASTER_ADDR") + ":"
                    + env.getOrDefault("MASTER_PORT", ""), true);
        }
        if (env.containsKey("RANK") && env.containsKey("MASTER_ADDR") && env.containsKey("MASTER_PORT")) {
            return new JobId(ENV_PREFIX + env.get("MASTER_ADDR") + ":" + env.get("MASTER_PORT"), true);
        }
        if (env.containsKey("OMPI_MCA_ess_base_jobid")) {
            return new JobId("ompi-" + env.get("OMPI_MCA_ess_base_jobid"), true);
        }
        if (env.containsKey("PMIX_NAMESPACE")) {
            return new JobId("pmix-" + env.get("PMIX_NAMESPACE"), true);
        }
        if (env.containsKey("PMI_JOBID")) {
            return new JobId("pmi-" + env.get("PMI_JOBID"), true);
        }
        if (env.containsKey("SLURM_JOB_ID") && env.containsKey("SLURM_STEP_ID")) {
            return new JobId("slurm-" + env.get("SLURM_JOB_ID") + "." + env.get("SLURM_STEP_ID"), true);
        }
        if (env.containsKey("PMI_RANK")) {
            return new JobId("hydra-" + parentPid, false);
        }
        return new JobId(MANUAL, false);
    }

    /** Ranks on this node from {@code SLURM_STEP_TASKS_PER_NODE} ("2(x3),1") and {@code SLURM_NODEID}. */
    static int slurmLocalSize(Map<String, String> env) {
        String perNode = env.get("SLURM_STEP_TASKS_PER_NODE");
        if (perNode == null) {
            perNode = env.get("SLURM_TASKS_PER_NODE");
        }
        if (perNode == null || !env.containsKey("SLURM_NODEID")) {
            return -1;
        }
        List<Integer> counts = expandTasksPerNode(perNode);
        int node = num(env, "SLURM_NODEID");
        return node < counts.size() ? counts.get(node) : -1;
    }

    /** Slurm's compressed task counts: {@code "2(x3),1"} is nodes of 2, 2, 2 and 1 tasks. */
    static List<Integer> expandTasksPerNode(String perNode) {
        List<Integer> counts = new ArrayList<>();
        for (String part : perNode.split(",")) {
            String p = part.trim();
            int paren = p.indexOf("(x");
            try {
                if (paren < 0) {
                    counts.add(Integer.parseInt(p));
                } else {
                    int n = Integer.parseInt(p.substring(0, paren));
                    int times = Integer.parseInt(p.substring(paren + 2, p.length() - 1));
                    for (int i = 0; i < times; i++) {
                        counts.add(n);
                    }
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new HarnessException(ExitCode.USAGE, "SLURM_STEP_TASKS_PER_NODE=" + perNode
                        + ": expected counts like 2(x3),1");
            }
        }
        return counts;
    }

    private static void validate(Place p) {
        if (p.worldSize() < 1 || p.rank() < 0 || p.rank() >= p.worldSize()) {
            throw new HarnessException(ExitCode.USAGE, "rank " + p.rank() + " of world size " + p.worldSize()
                    + " (from " + p.evidence() + "): the rank must be in 0.." + (p.worldSize() - 1));
        }
        if (p.localSize() > 0 && p.localRank() >= p.localSize()) {
            throw new HarnessException(ExitCode.USAGE, "local rank " + p.localRank() + " of local size "
                    + p.localSize() + " (from " + p.evidence() + "): the local rank must be below the local size");
        }
        if (p.localSize() > p.worldSize()) {
            throw new HarnessException(ExitCode.USAGE, "local size " + p.localSize() + " exceeds world size "
                    + p.worldSize() + " (from " + p.evidence() + ")");
        }
    }

    private static int num(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null) {
            throw new HarnessException(ExitCode.USAGE, name + " is not set, but the launcher variables around it"
                    + " are: start the harness through the launcher, or give --rank and --world-size");
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new HarnessException(ExitCode.USAGE, name + "=" + v + ": expected a whole number");
        }
    }

    private static int optNum(Map<String, String> env, String name) {
        return env.containsKey(name) ? num(env, name) : -1;
    }

    private static String evidence(Map<String, String> env, String... names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (env.containsKey(n)) {
                sb.append(sb.length() == 0 ? "" : " ").append(n).append('=').append(env.get(n));
            }
        }
        return sb.toString();
    }
}
