package org.ncclharness.harness.launch;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.ncclharness.harness.exit.ExitCode;

/** What rank 0's and the other ranks' side of the control plane share: failure handling and heartbeats. */
abstract class TcpGroup implements JobGroup {

    final Place place;
    final JobOptions options;
    final PrintStream log;
    final String label;
    private final AtomicReference<String> failure = new AtomicReference<>();
    /** Held while failing and while closing, so the two never interleave. */
    final Object failLock = new Object();
    private final List<Consumer<String>> hooks = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService heartbeat;
    volatile boolean closing;
    /** What the job is doing, for messages: "start-up", "allreduce #4", "idle after barrier #2". */
    volatile String phase = "start-up";
    int seq;
    volatile List<Member> members = List.of();

    TcpGroup(Place place, JobOptions options, PrintStream log) {
        this.place = place;
        this.options = options;
        this.log = log;
        this.label = place.label();
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "harness-heartbeat-r" + place.rank());
            t.setDaemon(true);
            return t;
        });
    }

    /** Every live connection of this side. */
    abstract List<Connection> connections();

    /** Tells the other side(s) the job is over; {@code fromPeer}: the failure came in over the wire. */
    abstract void propagate(String cause, boolean fromPeer);

    void startHeartbeat() {
        long ms = options.heartbeatInterval().toMillis();
        heartbeat.scheduleAtFixedRate(() -> {
            for (Connection c : connections()) {
                c.sendQuietly(Wire.PING, new byte[0]);
            }
        }, ms, ms, TimeUnit.MILLISECONDS);
    }

    void stopHeartbeat() {
        heartbeat.shutdownNow();
    }

    @Override
    public int rank() {
        return place.rank();
    }

    @Override
    public int size() {
        return place.worldSize();
    }

    @Override
    public List<Member> members() {
        return members;
    }

    @Override
    public Optional<String> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void onFailure(Consumer<String> hook) {
        hooks.add(hook);
        String f = failure.get();
        if (f != null && hooks.remove(hook)) {
            hook.accept(f);
        }
    }

    @Override
    public void abort(String reason) {
        fail(self().describe() + " aborted the job: " + reason, false);
    }

    Member self() {
        List<Member> m = members;
        return m.isEmpty()
                ? new Member(place.rank(), "?", "?", ProcessHandle.current().pid(), -1, -1, 0, List.of())
                : m.get(place.rank());
    }

    /**
     * Marks the job failed (the first cause wins), tells the others, and starts the watchdog that runs the
     * hooks and, if the process outlives {@link JobOptions#haltAfterFailure()}, halts it with exit code 4.
     * Returns the exception the calling operation throws.
     */
    JobFailedException fail(String cause, boolean fromPeer) {
        if (!closing) {
            // The others are told before anyone here sees the failure: an operation that throws on it closes
            // the sockets, and a peer that met end-of-stream before the ABORT would blame the wrong rank.
            synchronized (failLock) {
                if (!closing && failure.get() == null) {
                    propagate(cause, fromPeer);
                    failure.set(cause);
                    Thread t = new Thread(() -> watchdog(cause), "harness-job-watchdog");
                    t.setDaemon(true);
                    t.start();
                }
            }
        }
        return failedException();
    }

    private void watchdog(String cause) {
        for (Consumer<String> hook : hooks) {
            if (hooks.remove(hook)) {
                try {
                    hook.accept(cause);
                } catch (RuntimeException e) {
                    log.println(label + ": a failure hook failed: " + e);
                }
            }
        }
        Duration halt = options.haltAfterFailure();
        if (halt == null) {
            return;
        }
        try {
            Thread.sleep(halt.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.println(label + ": " + cause + "; still running " + halt.toSeconds()
                + " s after the failure, halting with exit code " + ExitCode.JOB);
        log.flush();
        Runtime.getRuntime().halt(ExitCode.JOB);
    }

    JobFailedException failedException() {
        String f = failure.get();
        return new JobFailedException(label + ": " + (f == null ? "the job was closed" : f));
    }

    void checkUsable() {
        if (failure.get() != null || closing) {
            throw failedException();
        }
    }

    /**
     * The next frame from {@code c}, or a failure: the job failed meanwhile, the peer left ({@code left}), or
     * the deadline passed ({@code timedOut}).
     */
    Wire.Frame await(Connection c, long deadlineNanos, Supplier<String> timedOut, Supplier<String> left) {
        while (true) {
            if (failure.get() != null) {
                throw failedException();
            }
            Wire.Frame f;
            try {
                f = c.inbox.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw fail("interrupted during " + phase, false);
            }
            if (f != null) {
                return f;
            }
            if (c.byeReceived() && c.inbox.isEmpty()) {
                throw fail(left.get(), false);
            }
            if (options.nanoTime() - deadlineNanos > 0) {
                throw fail(timedOut.get(), false);
            }
        }
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : (ms / 1000.0) + " s";
    }

    void checkSize(byte[] payload) {
        if (payload.length > options.maxMessageBytes()) {
            throw new IllegalArgumentException("a control-plane message of " + payload.length
                    + " bytes exceeds the " + options.maxMessageBytes() + "-byte limit");
        }
    }
}
