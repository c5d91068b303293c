package org.ncclharness.harness.launch;

import java.time.Duration;
import java.util.function.LongSupplier;

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
 * @param nanoClock         what the start-up and operation timeouts are counted on, in nanoseconds: {@link
 *                          System#nanoTime}, or a test's clock, so that a test decides when a timeout passes instead
 *                          of racing it (heartbeats keep the real clock: they watch the peers, not the test)
 * @param handshakeTimeout  how long rank 0 waits for a new connection's handshake before refusing it (a port
 *                          scanner, a silent probe); a socket read timeout, so on the real clock: a test that
 *                          refuses a silent connection shortens it instead of waiting it out
 */
public record JobOptions(Duration startupTimeout, Duration opTimeout, Duration heartbeatInterval,
        Duration heartbeatTimeout, int maxMessageBytes, Duration haltAfterFailure, LongSupplier nanoClock,
        Duration handshakeTimeout) {

    public static final Duration DEFAULT_STARTUP = Duration.ofSeconds(120);
    public static final Duration DEFAULT_OP = Duration.ofSeconds(600);
    public static final Duration DEFAULT_HANDSHAKE = Duration.ofSeconds(5);

    /** Timeouts on the real clock. */
    public JobOptions(Duration startupTimeout, Duration opTimeout, Duration heartbeatInterval,
            Duration heartbeatTimeout, int maxMessageBytes, Duration haltAfterFailure) {
        this(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, maxMessageBytes, haltAfterFailure,
                System::nanoTime, DEFAULT_HANDSHAKE);
    }

    /** The command line's: halts a stuck process 5 s after a failure. */
    public static JobOptions cli(Duration startupTimeout, Duration opTimeout) {
        return new JobOptions(startupTimeout, opTimeout, Duration.ofSeconds(1), Duration.ofSeconds(10),
                1 << 20, Duration.ofSeconds(5));
    }

    public JobOptions withHeartbeat(Duration interval, Duration timeout) {
        return new JobOptions(startupTimeout, opTimeout, interval, timeout, maxMessageBytes, haltAfterFailure,
                nanoClock, handshakeTimeout);
    }

    public JobOptions withoutHalt() {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, maxMessageBytes,
                null, nanoClock, handshakeTimeout);
    }

    public JobOptions withMaxMessageBytes(int bytes) {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, bytes,
                haltAfterFailure, nanoClock, handshakeTimeout);
    }

    public JobOptions withNanoClock(LongSupplier clock) {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, maxMessageBytes,
                haltAfterFailure, clock, handshakeTimeout);
    }

    public JobOptions withHandshakeTimeout(Duration timeout) {
        return new JobOptions(startupTimeout, opTimeout, heartbeatInterval, heartbeatTimeout, maxMessageBytes,
                haltAfterFailure, nanoClock, timeout);
    }

    /** Now on {@link #nanoClock}. */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    /** {@code d} from now on {@link #nanoClock}; {@link Duration#ZERO}: never. */
    long deadline(Duration d) {
        long now = nanoTime();
        return d.isZero() ? now + Long.MAX_VALUE / 2 : now + d.toNanos();
    }
}
