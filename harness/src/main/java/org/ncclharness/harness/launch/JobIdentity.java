package org.ncclharness.harness.launch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What a rank must match to join: a per-job token, the harness version and a hash of the sweep arguments, so a
 * rank of another job on the same port, an older jar on one node or a node started with other flags is refused.
 *
 * @param jobToken       for a tcp rendezvous: the launcher's job id where every rank sees the same one, else the
 *                       rendezvous address (tcp://HOST:PORT); a file rendezvous uses the random token rank 0
 *                       writes into the file instead
 * @param harnessVersion {@code VersionInfo.projectVersion()}
 * @param argsHash       {@link #hashArguments} of the arguments every rank must share (not --rank, --host-id)
 * @param launchSession  for a job nobody named (started by hand, no launcher job id, no HARNESS_JOB_ID): the
 *                       {@link LaunchSession} this rank was started from, which rank 0 compares for ranks on its
 *                       own host, where two such jobs on one port would otherwise share every other field;
 *                       empty when a launcher or the user names the job
 */
public record JobIdentity(String jobToken, String harnessVersion, String argsHash, String launchSession) {

    /** A job named by its launcher or the user: no launch session to compare. */
    public JobIdentity(String jobToken, String harnessVersion, String argsHash) {
        this(jobToken, harnessVersion, argsHash, "");
    }

    public static JobIdentity of(Place place, RendezvousSpec spec, String harnessVersion, String argsHash,
            String launchSession) {
        String token = place.jobIdShared() || !(spec instanceof RendezvousSpec.Tcp tcp) ? place.jobId()
                : "tcp://" + tcp.host() + ":" + tcp.port();
        return new JobIdentity(token, harnessVersion, argsHash,
                PlaceDetector.namedByNobody(place.jobId()) ? launchSession : "");
    }

    /** The arguments every rank must share: all but the per-rank launch flags. */
    public static List<String> sharedArguments(List<String> args) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (List.of("--rank", "--local-rank", "--host-id").contains(name)) {
                if (!a.contains("=")) {
                    i++;
                }
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /** A short, stable hash of the arguments (SHA-256, first 16 hex digits). */
    public static String hashArguments(List<String> args) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String a : args) {
                d.update(a.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
