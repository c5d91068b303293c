package org.ncclharness.harness.launch;

import java.time.Duration;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import picocli.CommandLine.Option;

/**
 * The launch flags every multi-rank command shares ({@code @Mixin LaunchOptions launch;}): none is needed under
 * mpirun, srun or torchrun, which say everything through the environment.
 */
public final class LaunchOptions {

    @Option(names = "--rank", paramLabel = "K",
            description = "This process's rank, for a manual launch (with --world-size); overrides the launcher.")
    Integer rank;

    @Option(names = "--world-size", paramLabel = "N", description = "Number of ranks, for a manual launch.")
    Integer worldSize;

    @Option(names = "--local-rank", paramLabel = "L",
            description = "Rank among the ranks on this host; default: the launcher's, else from host ids.")
    Integer localRank;

    @Option(names = "--rendezvous", paramLabel = "tcp://HOST:PORT|file:PATH",
            description = "Where rank 0 listens (also HARNESS_RENDEZVOUS). Default: MASTER_ADDR/MASTER_PORT"
                    + " (+1 under torchrun's agent store); a file in TMPDIR named by the job id when all ranks"
                    + " are on one host; the first node of the Slurm step; otherwise an error saying what to set.")
    String rendezvous;

    @Option(names = "--host-id", paramLabel = "ID",
            description = "What makes ranks share a host (also HARNESS_HOST_ID); default: host name + boot id,"
                    + " as nccl-tests. Give containers on one machine distinct ids; NCCL gets it as NCCL_HOSTID.")
    String hostId;

    @Option(names = "--startup-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "How long ranks wait for each other to join (default: ${DEFAULT-VALUE}).")
    double startupTimeoutS;

    @Option(names = "--op-timeout", paramLabel = "SECONDS", defaultValue = "600",
            description = "How long one control operation (barrier, reduction of timings) may wait; 0 = no"
                    + " limit, a dead or hung rank is still caught by heartbeats (default: ${DEFAULT-VALUE}).")
    double opTimeoutS;

    public PlaceFlags placeFlags() {
        return new PlaceFlags(rank, worldSize, localRank);
    }

    public String rendezvous() {
        return rendezvous;
    }

    public String hostId() {
        return hostId;
    }

    /** The timeouts; a bad value is a usage error (exit 2). */
    public JobOptions jobOptions() {
        return JobOptions.cli(seconds(startupTimeoutS, "--startup-timeout", false),
                seconds(opTimeoutS, "--op-timeout", true));
    }

    private static Duration seconds(double s, String flag, boolean zeroAllowed) {
        if (!(s > 0 || (zeroAllowed && s == 0)) || Double.isInfinite(s)) {
            throw new HarnessException(ExitCode.USAGE, flag + " " + s + ": expected a number of seconds "
                    + (zeroAllowed ? ">= 0" : "> 0"));
        }
        return Duration.ofMillis(Math.round(s * 1000));
    }
}
