package org.ncclharness.harness.launch;

/** Who told this process its place in the job, in the order {@link PlaceDetector} trusts them. */
public enum Launcher {
    /** {@code --rank/--world-size} on the command line (a manual launch). */
    FLAGS("flags"),
    /** torchrun, or any env:// launcher (Kubernetes PyTorchJob): RANK, WORLD_SIZE, LOCAL_RANK. */
    TORCHRUN("torchrun/env"),
    /** Open MPI's mpirun: OMPI_COMM_WORLD_*. */
    OPENMPI("openmpi"),
    /** A PMI launcher: MPICH/Intel MPI Hydra, srun --mpi=pmi2: PMI_RANK, MPI_LOCALRANKID. */
    PMI("pmi"),
    /** Slurm's srun, trusted only inside a job step (SLURM_STEP_ID set). */
    SLURM("slurm"),
    /** No launcher: one process. */
    SINGLE("single");

    private final String label;

    Launcher(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
