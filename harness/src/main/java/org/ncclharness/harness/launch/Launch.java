package org.ncclharness.harness.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command's way into the job, in two steps so it can print where it stands before it waits for anyone:
 * {@link #resolve} (pure: place, host id, rendezvous) and {@link #join}.
 *
 * @param place      where this rank is
 * @param hostId     what makes ranks share a host
 * @param rendezvous where rank 0 listens
 * @param env        the environment it was resolved from
 */
public record Launch(Place place, HostId hostId, RendezvousSpec rendezvous, Map<String, String> env) {

    /** From the flags and this process's environment, host name and boot id. */
    public static Launch resolve(LaunchOptions options) {
        Map<String, String> env = System.getenv();
        // a child started for NCCL's debug output names the launcher's process, not the JVM that started it
        long ppid = env.containsKey("HARNESS_PARENT_PID") ? Long.parseLong(env.get("HARNESS_PARENT_PID"))
                : ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        Place place = PlaceDetector.detect(env, options.placeFlags(), ppid);
        HostId hostId = HostId.resolve(options.hostId(), env, hostName(), bootId());
        RendezvousSpec spec = RendezvousChooser.choose(options.rendezvous(), env, place);
        return new Launch(place, hostId, spec, env);
    }

    /** This rank as the others will see it. */
    public Member self(List<String> gpuBusIds) {
        return new Member(place.rank(), hostName(), hostId.value(), ProcessHandle.current().pid(),
                place.localRank(), place.localSize(), Runtime.getRuntime().availableProcessors(), gpuBusIds);
    }

    /**
     * Joins the job.
     *
     * @param argsHash {@link JobIdentity#hashArguments} of the arguments all ranks must share
     */
    public JobGroup join(List<String> gpuBusIds, String argsHash, String harnessVersion, JobOptions options,
            PrintStream log) {
        JobIdentity identity = JobIdentity.of(place, rendezvous, harnessVersion, argsHash, LaunchSession.current());
        return JobGroups.join(place, rendezvous, self(gpuBusIds), identity, options,
                env.get(FileRendezvous.IFNAME_ENV), log);
    }

    static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                return "unknown-host";
            }
        }
    }

    static Optional<String> bootId() {
        try {
            return Optional.of(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
