package org.ncclharness.harness.launch;

import java.time.Duration;

/**
 * Timeouts and limits of the control plane.
 *
 * @param startupTimeout    joining: rank 0 waits this long for everyone, the others for rank 0
 * @param opTimeout         one operation (barrier, allreduce, ...); {@link Duration#ZERO} waits without limit
 *                          (heartbeats still catch a dead or hung rank)
 * @param heartbeatInterval how often each connection sends a heartbeat
 * @param heartbeatTimeout  silence after which a peer counts as lost (a hung host: its kernel still acks TCP,
 *                          so only a heartbeat tells)
 * @param maxMessageBytes   the largest contribution one rank may send to one operation
 * @param haltAfterFailure  after a failure, halt the process with exit code 4 if it is still alive this much
 *                          later (its main thread stuck in native code); null never halts (tests in one JVM)
 */
public record JobOptions(Duration startupTimeout, Duration opTimeout, Duration heartbeatInterval,
        Duration heartbeatTimeout, int maxMessageBytes, Duration haltAfterFailure) {

    public static final Duration DEFAULT_STARTUP = Duration.ofSeconds(120);
    public static final Duration DEFAULT_OP = Duration.ofSeconds(600);

    /** The command line's: halts a stuck process 5 s after a failure. */
    public static JobOptions cli(Duration startupTimeout, Duration opTimeout) {
        return new JobOptions(startupTimeout, opTimeout, Duration.ofSeconds(1), Duration.ofSeconds(10),
                1 << 20, Duration.ofSeconds(5));
    }

    public JobOptions withHeartbeat(Duration interval, Duration timeout) {
        return new JobOptions(startupTimeout, opTimeout, interval, timeout, maxMessageBytes, haltAfterFailure);
    }

    public JobOptions withoutHalt() {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, maxMessageBytes,
                null);
    }

    public JobOptions withMaxMessageBytes(int bytes) {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, bytes,
                haltAfterFailure);
    }
}
