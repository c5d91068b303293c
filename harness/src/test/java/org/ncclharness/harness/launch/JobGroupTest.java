package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control plane in one JVM: ranks are threads, traffic is loopback, every wait is bounded. A timeout under
 * test is made certain to fire (the rank it waits for never arrives, never speaks, or waits for the failure
 * itself); every other limit is one only a hang reaches, so a loaded machine cannot change a verdict (issue 43).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JobGroupTest {

    /** Limits that only a hang reaches: a test that needs a timeout to fire sets that one short. */
    static final JobOptions FAST = new JobOptions(Duration.ofSeconds(120), Duration.ofSeconds(120),
            Duration.ofMillis(200), Duration.ofSeconds(60), 1 << 16, null);
    /** How long a test waits for a rank's verdict: only a hang takes this long. */
    private static final long GENEROUS_S = 240;
    static final JobIdentity ID = new JobIdentity("job-token", "1.0", "args");

    @TempDir
    Path tmp;

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private Path file() {
        return tmp.resolve("rdzv");
    }

    private static Place place(int rank, int size) {
        return new Place(Launcher.FLAGS, rank, size, -1, -1, "test-job", true, "test", List.of());
    }

    private static Member member(int rank) {
        return new Member(rank, "localhost", "host-a", 1000 + rank, -1, -1, 2, List.of());
    }

    /** Waits until rank {@code rank}'s thread (recorded by its body) waits inside a barrier. */
    private static void awaitRankThread(Map<Integer, Thread> threads, int rank) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_S);
        while (!threads.containsKey(rank) && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        InBarrier.await(threads.get(rank));
    }

    private JobGroup join(int rank, int size, JobOptions options) {
        return JobGroups.join(place(rank, size), new RendezvousSpec.File(file(), true, "test"), member(rank), ID,
                options, null, log);
    }

    /** Runs {@code body} on ranks {@code ranks} of a job of {@code size}, each in its own thread. */
    private <T> List<Future<T>> run(int size, List<Integer> ranks, JobOptions options, Function<JobGroup, T> body) {
        List<Future<T>> out = new ArrayList<>();
        for (int r : ranks) {
            out.add(pool.submit(() -> {
                try (JobGroup g = join(r, size, options)) {
                    return body.apply(g);
                }
            }));
        }
        return out;
    }

    private static List<Integer> ranks(int... r) {
        return Arrays.stream(r).boxed().toList();
    }

    private static Throwable failureOf(Future<?> f) throws InterruptedException {
        try {
            f.get(GENEROUS_S, TimeUnit.SECONDS);
            throw new AssertionError("expected the rank to fail");
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the rank hung", e);
        }
    }

    private record Seen(double[] sum, double[] min, double[] max, byte[] id, List<String> gathered,
            List<Member> members) {
    }

    @Test
    void collectivesAcrossFourRanks() throws Exception {
        byte[] uniqueId = new byte[128];
        new Random(7).nextBytes(uniqueId);
        List<Future<Seen>> fs = run(4, ranks(0, 1, 2, 3), FAST, g -> {
            g.barrier();
            double[] mine = {g.rank(), g.rank() * 1.5, -g.rank()};
            double[] sum = g.allreduce(mine, JobGroup.Op.SUM);
            double[] min = g.allreduce(mine, JobGroup.Op.MIN);
            double[] max = g.allreduce(mine, JobGroup.Op.MAX);
            byte[] id = g.broadcast(g.rank() == 0 ? uniqueId : null);
            List<String> gathered = g.gather(("r" + g.rank()).getBytes(StandardCharsets.UTF_8)).stream()
                    .map(b -> new String(b, StandardCharsets.UTF_8)).toList();
            g.barrier();
            return new Seen(sum, min, max, id, gathered, g.members());
        });
        for (Future<Seen> f : fs) {
            Seen s = f.get(GENEROUS_S, TimeUnit.SECONDS);
            assertThat(s.sum()).containsExactly(6, 9, -6);
            assertThat(s.min()).containsExactly(0, 0, -3);
            assertThat(s.max()).containsExactly(3, 4.5, 0);
            assertThat(s.id()).isEqualTo(uniqueId);
            assertThat(s.gathered()).containsExactly("r0", "r1", "r2", "r3");
            assertThat(s.members()).extracting(Member::rank).containsExactly(0, 1, 2, 3);
            assertThat(s.members()).extracting(Member::localRank).containsExactly(0, 1, 2, 3);
            assertThat(s.members()).extracting(Member::pid).containsExactly(1000L, 1001L, 1002L, 1003L);
        }
        assertThat(Files.exists(file())).as("rank 0 deletes the rendezvous file").isFalse();
        assertThat(logBytes.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void overTcpWithTheJobTokenAndAWrongTokenIsRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RendezvousSpec tcp = new RendezvousSpec.Tcp("127.0.0.1", port, "test");
        Future<double[]> root = pool.submit(() -> {
            try (JobGroup g = JobGroups.join(place(0, 2), tcp, member(0), ID, FAST, null, log)) {
                return g.allreduce(new double[] {2}, JobGroup.Op.SUM);
            }
        });
        JobIdentity otherJob = new JobIdentity("other-job", "1.0", "args");
        assertThatThrownBy(() -> JobGroups.join(place(1, 2), tcp, member(1), otherJob, FAST, null, log))
                .isInstanceOf(JobFailedException.class)
                .hasMessage("rank 1/2: rank 0 at /127.0.0.1:" + port + " refused this rank: rank 1 (host=localhost,"
                        + " pid=1001) of job other-job is not of this port's job job-token (rank 0 pid 1000): give"
                        + " each job its own MASTER_PORT or --rendezvous, and every rank of one job the same"
                        + " HARNESS_JOB_ID");
        try (JobGroup g = JobGroups.join(place(1, 2), tcp, member(1), ID, FAST, null, log)) {
            assertThat(g.allreduce(new double[] {3}, JobGroup.Op.SUM)).containsExactly(5);
        }
        assertThat(root.get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(5);
    }

    @Test
    void strangersAreRefusedWithAReasonAndTheJobGoesOn() throws Exception {
        List<Future<double[]>> real = run(3, ranks(0, 1), FAST, g -> {
            g.barrier();
            return g.allreduce(new double[] {1}, JobGroup.Op.SUM);
        });
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        int port = c.addresses().get(0).getPort();
        String token = c.token();
        List<String> reasons = new ArrayList<>();
        try (RawPeer p = new RawPeer(port)) {
            reasons.add(p.rejection(p.hello("1.0", "guess", "args", 3, RawPeer.member(2))));
        }
        try (RawPeer p = new RawPeer(port)) {
            reasons.add(p.rejection(p.hello("0.9", token, "args", 3, RawPeer.member(2))));
        }
        try (RawPeer p = new RawPeer(port)) {
            reasons.add(p.rejection(p.hello("1.0", token, "other-args", 3, RawPeer.member(2))));
        }
        try (RawPeer p = new RawPeer(port)) {
            reasons.add(p.rejection(p.hello("1.0", token, "args", 4, RawPeer.member(2))));
        }
        try (RawPeer p = new RawPeer(port)) {
            reasons.add(p.rejection(p.hello("1.0", token, "args", 3, RawPeer.member(7))));
        }
        try (RawPeer p = new RawPeer(port)) { // a length prefix far over the handshake limit
            p.out.writeInt(1 << 20);
            p.out.flush();
            reasons.add(p.rejection(p.next()));
        }
        try (RawPeer p = new RawPeer(port)) {
            p.out.write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            p.out.flush();
            reasons.add(p.rejection(p.next()));
        }
        assertThat(reasons).containsExactly(
                "wrong job token: this rendezvous belongs to another job (a stale rendezvous file? check"
                        + " --rendezvous and the job id)",
                "harness version 0.9 != rank 0's 1.0: use the same harness.jar on every node",
                "arguments differ from rank 0's (hash other-args != args): start every rank with the same"
                        + " arguments",
                "world size 4 != rank 0's 3",
                "rank 7 is not one of ranks 1..2",
                "a handshake of 1048576 bytes, over the 4096-byte limit",
                "a handshake of 1195725856 bytes, over the 4096-byte limit");
        // The job's own rank 2 joins, then a second rank 2 is refused; the job completes.
        try (RawPeer two = new RawPeer(port)) {
            assertThat(two.hello("1.0", token, "args", 3, RawPeer.member(2)).type()).isEqualTo(Wire.WELCOME);
            assertThat(two.next().type()).isEqualTo(Wire.START);
            try (RawPeer dup = new RawPeer(port)) {
                assertThat(dup.rejection(dup.hello("1.0", token, "args", 3, RawPeer.member(2))))
                        .isEqualTo("rank 2 already joined: rank 2 (host=raw-host, pid=9002)");
            }
            two.op(1, Wire.Kind.BARRIER, new byte[0]);
            byte[] sum = two.op(2, Wire.Kind.ALLREDUCE, Ops.encodeReduce(new double[] {1}, JobGroup.Op.SUM));
            assertThat(Ops.decodeValues(sum)).containsExactly(3);
            // rank 0 ends the job with a BYE; this rank then leaves, as a real one does (holding the connection
            // open would make rank 0 wait out its 5 s for the peers to end before its job could complete)
            assertThat(two.next().type()).isEqualTo(Wire.BYE);
        }
        for (Future<double[]> f : real) {
            assertThat(f.get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(3);
        }
        assertThat(logBytes.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(8)
                .allMatch(l -> l.startsWith("rank 0/3: refused a connection from /127.0.0.1:"));
    }

    @Test
    void aRankThatDiesIsNamedOnEveryOtherRank() throws Exception {
        List<String> hooks = new CopyOnWriteArrayList<>();
        Map<Integer, Thread> threads = new ConcurrentHashMap<>();
        List<Future<Object>> real = run(3, ranks(0, 1), FAST, g -> {
            g.onFailure(hooks::add);
            threads.put(g.rank(), Thread.currentThread());
            g.barrier();
            return null;
        });
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        try (RawPeer two = new RawPeer(c.addresses().get(0).getPort())) {
            two.hello("1.0", c.token(), "args", 3, RawPeer.member(2));
            two.next(); // START
            // rank 0 names the phase it is in: wait until it waits in the barrier, however long that takes; and
            // rank 1 too, or on a loaded machine the loss can reach it still joining, before it set its hook
            awaitRankThread(threads, 0);
            awaitRankThread(threads, 1);
        } // closed without BYE: what the kernel does for a killed process
        // "connection closed", not a timeout (every limit here is minutes): the loss is seen when it happens
        String lost = "rank 2 (host=raw-host, pid=9002) was lost during barrier #1: connection closed (the process"
                + " died or was killed)";
        assertThat(failureOf(real.get(0))).isInstanceOf(JobFailedException.class).hasMessage("rank 0/3: " + lost);
        assertThat(failureOf(real.get(1))).hasMessage("rank 1/3: " + lost + " (reported by rank 0)");
        // the hooks run on another thread: wait for both, then check them
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_S);
        while (hooks.size() < 2 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(hooks).containsExactlyInAnyOrder(lost, lost + " (reported by rank 0)");
    }

    @Test
    void aResetConnectionIsALostRankToo() throws Exception {
        List<Future<Object>> real = run(2, ranks(0), FAST, g -> {
            g.allreduce(new double[] {1}, JobGroup.Op.MAX);
            return null;
        });
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        RawPeer one = new RawPeer(c.addresses().get(0).getPort());
        one.hello("1.0", c.token(), "args", 2, RawPeer.member(1));
        one.next();
        one.socket.setSoLinger(true, 0);
        one.close();
        // The reset may reach rank 0 during start-up, between start-up and the allreduce, or in it; each time it
        // is a lost rank, named with the phase it was lost in.
        assertThat(failureOf(real.get(0)).getMessage()).matches("rank 0/2: rank 1 \\(host=raw-host, pid=9001\\) was"
                + " lost during (start-up|idle after start-up|allreduce #1): connection .*");
    }

    @Test
    void aRankThatNeverArrivesEndsTheJobAfterTheStartupTimeout() throws Exception {
        // rank 0 counts its start-up timeout on the test's clock, which moves only once rank 1 has joined (rank 0
        // welcomes it under the lock it counts the joined ranks with) and rank 2 never starts: the timeout fires
        // naming rank 2 alone, however loaded the machine
        AtomicLong clock = new AtomicLong();
        JobOptions quick = new JobOptions(Duration.ofSeconds(5), FAST.opTimeout(), FAST.heartbeatInterval(),
                FAST.heartbeatTimeout(), FAST.maxMessageBytes(), null).withNanoClock(clock::get);
        List<Future<Object>> real = run(3, ranks(0), quick, g -> null);
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        try (RawPeer one = new RawPeer(c.addresses().get(0).getPort())) {
            assertThat(one.hello("1.0", c.token(), "args", 3, RawPeer.member(1)).type()).isEqualTo(Wire.WELCOME);
            clock.set(TimeUnit.SECONDS.toNanos(5) - 1); // not yet: 5 s are not over
            assertThat(real.get(0)).isNotDone();
            clock.set(TimeUnit.SECONDS.toNanos(5) + 1);
            String msg = "timeout after 5 s waiting for ranks [2] to join via file " + file() + " (test): check that"
                    + " every rank started (see the launcher's output), or raise --startup-timeout";
            assertThat(failureOf(real.get(0))).hasMessage("rank 0/3: " + msg);
            // rank 1 is told why (a rank's own wording of it: aRankThatDiesIsNamedOnEveryOtherRank)
            Wire.Frame abort = one.next();
            assertThat(abort.type()).isEqualTo(Wire.ABORT);
            assertThat(Wire.utf(abort.body())).isEqualTo(msg);
        }
    }

    @Test
    void withoutRankZeroTheOthersGiveUpAfterTheStartupTimeout() {
        JobOptions quick = new JobOptions(Duration.ofSeconds(1), FAST.opTimeout(), FAST.heartbeatInterval(),
                FAST.heartbeatTimeout(), FAST.maxMessageBytes(), null);
        long t0 = System.nanoTime();
        // rank 0 never starts, so the 1 s timeout is certain to fire; it cannot fire early, however fast the machine
        assertThatThrownBy(() -> join(1, 2, quick)).isInstanceOf(JobFailedException.class)
                .hasMessage("rank 1/2: could not reach rank 0 via file " + file() + " (test) within 1 s (last: no"
                        + " rendezvous file " + file() + " yet): check that rank 0 started and that this host can"
                        + " reach it, or raise --startup-timeout");
        assertThat((System.nanoTime() - t0) / 1e9).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void aRankThatStopsCallingEndsTheJobAfterTheOperationTimeout() throws Exception {
        // rank 1 never calls, and rank 0 waits for its ranks in order, so the timeout names rank 1 whenever rank 2
        // calls; rank 0 counts it on the test's clock, which moves once rank 0 waits in the barrier (its deadline
        // taken): the timeout fires then, not before, however loaded the machine
        AtomicLong clock = new AtomicLong();
        JobOptions quick = new JobOptions(FAST.startupTimeout(), Duration.ofSeconds(5), FAST.heartbeatInterval(),
                FAST.heartbeatTimeout(), FAST.maxMessageBytes(), null).withNanoClock(clock::get);
        Map<Integer, Thread> threads = new ConcurrentHashMap<>();
        Function<JobGroup, Object> body = g -> {
            threads.put(g.rank(), Thread.currentThread());
            if (g.rank() == 1) {
                // busy elsewhere (heartbeats continue) until the job has failed: the timeout is certain to fire
                CountDownLatch failed = new CountDownLatch(1);
                g.onFailure(m -> failed.countDown());
                try {
                    failed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            g.barrier();
            return null;
        };
        List<Future<Object>> real = new ArrayList<>(run(3, ranks(0), quick, body));
        real.addAll(run(3, ranks(1, 2), FAST, body));
        awaitRankThread(threads, 0);
        clock.set(TimeUnit.SECONDS.toNanos(5) - 1);
        assertThat(real.get(0)).isNotDone();
        clock.set(TimeUnit.SECONDS.toNanos(5) + 1);
        String msg = "timeout after 5 s in barrier #1 waiting for rank 1 (host=localhost, pid=1001): check that"
                + " rank, or raise --op-timeout if one step takes this long";
        assertThat(failureOf(real.get(0))).hasMessage("rank 0/3: " + msg);
        assertThat(failureOf(real.get(1))).hasMessageStartingWith("rank 1/3: " + msg);
        assertThat(failureOf(real.get(2))).hasMessage("rank 2/3: " + msg + " (reported by rank 0)");
    }

    @Test
    void aHungRankIsCaughtByTheHeartbeat() throws Exception {
        JobOptions quick = FAST.withHeartbeat(Duration.ofMillis(100), Duration.ofSeconds(2));
        Map<Integer, Thread> threads = new ConcurrentHashMap<>();
        List<Future<Object>> real = run(2, ranks(0), quick, g -> {
            threads.put(g.rank(), Thread.currentThread());
            g.barrier();
            return null;
        });
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        try (RawPeer one = new RawPeer(c.addresses().get(0).getPort())) {
            one.hello("1.0", c.token(), "args", 2, RawPeer.member(1));
            // it beats until rank 0 waits in the barrier (so the loss is named in it, however slow the machine)...
            long t0;
            do {
                t0 = System.nanoTime(); // before its last message: the silence cannot start earlier
                Wire.write(one.out, Wire.PING, new byte[0]);
                Thread.sleep(20);
            } while (!threads.containsKey(0) || !InBarrier.waiting(threads.get(0)));
            // ...then stays connected and silent, as a SIGSTOPped process whose kernel still acknowledges TCP: it
            // never speaks again, so the heartbeat timeout is certain to fire, and not before 2 s of silence
            assertThat(failureOf(real.get(0))).hasMessage("rank 0/2: rank 1 (host=raw-host, pid=9001) was lost"
                    + " during barrier #1: no message or heartbeat for 2 s (the process hung, or its host or the"
                    + " network is down)");
            assertThat((System.nanoTime() - t0) / 1e9).isGreaterThanOrEqualTo(2.0);
        }
    }

    @Test
    void aSilentOrGarbledConnectionIsRefusedAndLoggedOnceAndTheJobStillForms() throws Exception {
        // the silent one is refused after the test's 0.25 s handshake limit (5 s on the command line), not waited out
        JobOptions quick = new JobOptions(FAST.startupTimeout(), FAST.opTimeout(), Duration.ofMillis(100),
                Duration.ofSeconds(3), 1 << 16, null).withHandshakeTimeout(Duration.ofMillis(250));
        List<Future<double[]>> real = run(2, ranks(0), quick, g -> g.allreduce(new double[] {1}, JobGroup.Op.SUM));
        FileRendezvous.Content c = RawPeer.awaitFile(file());
        int port = c.addresses().get(0).getPort();
        try (RawPeer silent = new RawPeer(port); RawPeer empty = new RawPeer(port)) {
            empty.out.writeInt(0); // a zero-length frame: not over any limit, just not ours
            empty.out.flush();
            assertThat(empty.rejection(empty.next())).isEqualTo("a message declaring 0 bytes, not a nccl-harness"
                    + " frame");
            assertThat(silent.rejection(silent.next())).isEqualTo("no handshake within 0.25 s");
        }
        List<Future<double[]>> one = run(2, ranks(1), quick, g -> g.allreduce(new double[] {2}, JobGroup.Op.SUM));
        assertThat(real.get(0).get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(3);
        assertThat(one.get(0).get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(3);
        assertThat(logBytes.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(2)
                .anyMatch(l -> l.matches("rank 0/2: refused a connection from /127\\.0\\.0\\.1:\\d+: no handshake"
                        + " within 0\\.25 s"))
                .anyMatch(l -> l.endsWith(": a message declaring 0 bytes, not a nccl-harness frame"));
    }

    @Test
    void aRankOfASecondHandLaunchedJobOnRankZerosHostIsRefusedNamingBothJobs() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RendezvousSpec tcp = new RendezvousSpec.Tcp("127.0.0.1", port, "test");
        JobIdentity mine = new JobIdentity("env-127.0.0.1:" + port, "1.0", "args", "session 100");
        JobIdentity second = new JobIdentity("env-127.0.0.1:" + port, "1.0", "args", "session 200");
        Future<double[]> root = pool.submit(() -> {
            try (JobGroup g = JobGroups.join(place(0, 2), tcp, member(0), mine, FAST, null, log)) {
                return g.allreduce(new double[] {2}, JobGroup.Op.SUM);
            }
        });
        String why = "rank 1 (host=localhost, pid=1001) of job env-127.0.0.1:" + port + " started from session 200"
                + " is not of this port's job env-127.0.0.1:" + port + " started from session 100 (rank 0 pid 1000):"
                + " give each job its own MASTER_PORT or --rendezvous, and every rank of one job the same"
                + " HARNESS_JOB_ID";
        assertThatThrownBy(() -> JobGroups.join(place(1, 2), tcp, member(1), second, FAST, null, log))
                .hasMessage("rank 1/2: rank 0 at /127.0.0.1:" + port + " refused this rank: " + why);
        // the same session on another host is not compared: only rank 0's own host can tell
        Member elsewhere = new Member(1, "node2", "host-b", 1001, -1, -1, 2, List.of());
        try (JobGroup g = JobGroups.join(place(1, 2), tcp, elsewhere, second, FAST, null, log)) {
            assertThat(g.allreduce(new double[] {3}, JobGroup.Op.SUM)).containsExactly(5);
        }
        assertThat(root.get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(5);
        assertThat(logBytes.toString(StandardCharsets.UTF_8).lines().toList())
                .singleElement().asString().matches("rank 0/2: refused a connection from /127\\.0\\.0\\.1:\\d+: .*")
                .endsWith(why);
    }

    @Test
    void ranksThatCallDifferentOperationsAreStopped() throws Exception {
        List<Future<Object>> real = run(3, ranks(0, 1, 2), FAST, g -> {
            if (g.rank() == 1) {
                g.allreduce(new double[] {1}, JobGroup.Op.SUM);
            } else {
                g.barrier();
            }
            return null;
        });
        String msg = "ranks diverged: rank 1 (host=localhost, pid=1001) called allreduce #1 while rank 0 called"
                + " barrier #1";
        assertThat(failureOf(real.get(0))).hasMessage("rank 0/3: " + msg);
        assertThat(failureOf(real.get(1))).hasMessage("rank 1/3: " + msg + " (reported by rank 0)");
        assertThat(failureOf(real.get(2))).hasMessage("rank 2/3: " + msg + " (reported by rank 0)");
    }

    @Test
    void aRankThatAbortsTakesTheOthersDownNamingItself() throws Exception {
        List<Future<Object>> real = run(3, ranks(0, 1, 2), FAST, g -> {
            if (g.rank() == 2) {
                g.abort("ncclCommInitRank failed: unhandled system error");
            }
            g.barrier();
            return null;
        });
        String msg = "rank 2 (host=localhost, pid=1002) aborted the job: ncclCommInitRank failed: unhandled system"
                + " error";
        assertThat(failureOf(real.get(2))).hasMessage("rank 2/3: " + msg);
        assertThat(failureOf(real.get(0))).hasMessage("rank 0/3: rank 2 (host=localhost, pid=1002) gave up: " + msg);
        assertThat(failureOf(real.get(1))).hasMessage("rank 1/3: rank 2 (host=localhost, pid=1002) gave up: " + msg
                + " (reported by rank 0)");
    }

    @Test
    void anOversizeMessageFromAMemberEndsTheJobNamingIt() throws Exception {
        JobOptions big = FAST.withMaxMessageBytes(1 << 20);
        Future<Object> root = run(2, ranks(0), FAST, g -> {
            g.gather(new byte[1]);
            return null;
        }).get(0);
        Future<Object> peer = run(2, ranks(1), big, g -> {
            g.gather(new byte[200_000]);
            return null;
        }).get(0);
        assertThat(failureOf(root)).hasMessage("rank 0/2: rank 1 (host=localhost, pid=1001) was lost during"
                + " gather #1: it sent a message of 200006 bytes, over the 65600-byte limit");
        assertThat(failureOf(peer)).hasMessageStartingWith("rank 1/2: rank 1 (host=localhost, pid=1001) was lost");
        try (JobGroup solo = JobGroups.join(place(0, 1), new RendezvousSpec.None(), member(0), ID, FAST, null,
                log)) {
            assertThat(solo.gather(new byte[3])).hasSize(1);
        }
        assertThatThrownBy(() -> run(2, ranks(0, 1), FAST, g -> g.broadcast(new byte[1 << 17])).get(0)
                .get(GENEROUS_S, TimeUnit.SECONDS)).hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasRootCauseMessage("a control-plane message of 131072 bytes exceeds the 65536-byte limit");
    }

    @Test
    void aStaleFileOfAnotherJobIsIgnored() throws Exception {
        Files.writeString(file(), "job=old-job\ntoken=0000\naddr=127.0.0.1 9\n");
        Future<double[]> peer = run(2, ranks(1), FAST, g -> g.allreduce(new double[] {1}, JobGroup.Op.SUM)).get(0);
        Thread.sleep(300);
        Future<double[]> root = run(2, ranks(0), FAST, g -> g.allreduce(new double[] {1}, JobGroup.Op.SUM)).get(0);
        assertThat(peer.get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(2);
        assertThat(root.get(GENEROUS_S, TimeUnit.SECONDS)).containsExactly(2);
    }

    @Test
    void launcherLocalRanksThatHostIdsContradictStopTheJob() throws Exception {
        List<Future<Object>> fs = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int rank = r;
            // each says it is alone on its host (local 0/1), but both have host id host-a
            Member m = new Member(rank, "localhost", "host-a", 1000 + rank, 0, 1, 2, List.of());
            fs.add(pool.submit(() -> {
                try (JobGroup g = JobGroups.join(place(rank, 2), new RendezvousSpec.File(file(), true, "test"), m,
                        ID, FAST, null, log)) {
                    return null;
                }
            }));
        }
        assertThat(failureOf(fs.get(0))).hasMessageStartingWith("rank 0/2: local ranks from the launcher disagree"
                + " with host ids: rank 0 (host=localhost, pid=1000) is local 0/1 by the launcher but 0/2");
        assertThat(failureOf(fs.get(1))).hasMessageEndingWith("(reported by rank 0)");
    }

    /** Options that give up on a rendezvous after a second. */
    private static final JobOptions QUICK = new JobOptions(Duration.ofSeconds(1), FAST.opTimeout(),
            FAST.heartbeatInterval(), FAST.heartbeatTimeout(), FAST.maxMessageBytes(), null);

    /** What a service on the rendezvous port does with each connection. */
    private interface Answer {
        void to(java.net.Socket s) throws java.io.IOException;
    }

    /** Answers every connection to the socket, on a daemon thread, until the socket closes. */
    private static void answerEvery(ServerSocket server, Answer answer) {
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                java.net.Socket s;
                try {
                    s = server.accept();
                } catch (java.io.IOException e) {
                    return;
                }
                try (s) {
                    answer.to(s);
                } catch (java.io.IOException e) {
                    // that client went away: answer the next
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    @Test
    void anotherServiceOnThePortIsNamedAndAPortInUseStopsRankZero() throws Exception {
        try (ServerSocket store = new ServerSocket(0)) { // like torchrun's agent store on MASTER_PORT
            answerEvery(store, s -> { });
            RendezvousSpec tcp = new RendezvousSpec.Tcp("127.0.0.1", store.getLocalPort(), "test");
            assertThatThrownBy(() -> JobGroups.join(place(1, 2), tcp, member(1), ID, QUICK, null, log))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("did not answer the harness handshake")
                    .hasMessageContaining("e.g. torchrun's agent store on MASTER_PORT?");
            assertThatThrownBy(() -> JobGroups.join(place(0, 2), tcp, member(0), ID, QUICK, null, log))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageStartingWith("rank 0/2: rank 0 cannot listen on 127.0.0.1:" + store.getLocalPort()
                            + " (");
        }
    }

    @Test
    void aServiceThatAnswersTheHelloWithAnotherMessageIsNamedAsNotTheHarness() throws Exception {
        try (ServerSocket other = new ServerSocket(0)) { // speaks frames, but answers a hello with a ping
            answerEvery(other, s -> {
                Wire.read(new java.io.DataInputStream(s.getInputStream()), Wire.HANDSHAKE_LIMIT);
                Wire.write(new java.io.DataOutputStream(s.getOutputStream()), Wire.PING, new byte[0]);
            });
            RendezvousSpec tcp = new RendezvousSpec.Tcp("127.0.0.1", other.getLocalPort(), "test");
            assertThatThrownBy(() -> JobGroups.join(place(1, 2), tcp, member(1), ID, QUICK, null, log))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining(": did not answer the harness handshake (message type " + Wire.PING
                            + "): is another service on that port");
        }
    }
}
