package org.ncclharness.harness.launch;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Rank 0's side: listens, admits exactly the job's ranks, refuses everyone else without disturbing the job,
 * and runs every operation as gather-to-root, reduce in rank order, send the result to all.
 */
final class RootGroup extends TcpGroup {

    private static final int MAX_CONCURRENT_HANDSHAKES = 32;

    private final JobIdentity identity;
    private final String token;
    private final String where;
    private final ServerSocket server;
    private final FileRendezvous file;
    private final Connection[] peers;
    private final Member[] declared;
    private final Object lock = new Object();
    private final Semaphore handshakeSlots = new Semaphore(MAX_CONCURRENT_HANDSHAKES);
    private final ExecutorService handshakes = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "harness-rdzv-handshake");
        t.setDaemon(true);
        return t;
    });
    private int joined = 1;
    /** Connections still in their handshake: closed, and each logged once, when the job ends before they speak. */
    private final java.util.Set<Connection> pending = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private RootGroup(Place place, RendezvousSpec spec, Member self, JobIdentity identity, JobOptions options,
            PrintStream log, String ifnamePrefixes) throws IOException {
        super(place, options, log);
        this.identity = identity;
        this.where = spec.describe();
        this.peers = new Connection[place.worldSize()];
        this.declared = new Member[place.worldSize()];
        this.declared[0] = self;
        if (spec instanceof RendezvousSpec.Tcp tcp) {
            this.server = bind(loopbackLiteral(tcp.host()) ? InetAddress.getByName(tcp.host()) : null, tcp.port());
            this.file = null;
            this.token = identity.jobToken();
        } else {
            RendezvousSpec.File f = (RendezvousSpec.File) spec;
            List<InetAddress> addrs = FileRendezvous.advertised(f.loopbackOnly(), ifnamePrefixes);
            boolean allLoopback = addrs.stream().allMatch(InetAddress::isLoopbackAddress);
            this.server = bind(allLoopback ? addrs.get(0) : null, 0);
            try {
                this.file = FileRendezvous.publish(f.path(), place.jobId(), addrs, server.getLocalPort());
            } catch (IOException e) {
                server.close();
                throw new JobFailedException(label + ": rank 0 cannot write the rendezvous file " + f.path()
                        + " (" + e.getMessage() + "): pick a writable path with --rendezvous file:PATH");
            }
            this.token = file.token();
        }
    }

    /**
     * Whether the others were told to connect to loopback ({@code 127.0.0.1}, {@code ::1}, {@code localhost}):
     * then the job is on this host and rank 0 listens there alone. A host name that merely resolves to loopback
     * here (Debian maps its own name to 127.0.1.1) gets the wildcard, or the other hosts could not connect.
     */
    static boolean loopbackLiteral(String host) {
        return host.equals("localhost") || host.equals("::1") || host.matches("127\\.\\d+\\.\\d+\\.\\d+");
    }

    private ServerSocket bind(InetAddress addr, int port) {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(addr, port), 128);
            return s;
        } catch (IOException e) {
            throw new JobFailedException(label + ": rank 0 cannot listen on "
                    + (addr == null ? "port " + port : addr.getHostAddress() + ":" + port) + " (" + e.getMessage()
                    + "): another job, or torchrun's agent store, holds it; pick another MASTER_PORT (HARNESS_PORT"
                    + " under Slurm) or --rendezvous");
        }
    }

    static RootGroup open(Place place, RendezvousSpec spec, Member self, JobIdentity identity, JobOptions options,
            PrintStream log, String ifnamePrefixes) throws IOException {
        RootGroup g = new RootGroup(place, spec, self, identity, options, log, ifnamePrefixes);
        try {
            g.awaitJoins();
            return g;
        } catch (RuntimeException e) {
            g.close();
            throw e;
        }
    }

    private void awaitJoins() {
        Thread acceptor = new Thread(this::acceptLoop, "harness-rdzv-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        startHeartbeat();
        long deadline = options.deadline(options.startupTimeout());
        synchronized (lock) {
            while (joined < place.worldSize()) {
                checkUsable();
                if (options.nanoTime() - deadline > 0) {
                    throw fail("timeout after " + seconds(options.startupTimeout()) + " waiting for ranks "
                            + missing() + " to join via " + where + ": check that every rank started (see the"
                            + " launcher's output), or raise --startup-timeout", false);
                }
                try {
                    lock.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw fail("interrupted while waiting for ranks to join", false);
                }
            }
        }
        List<Member> declaredList = Arrays.asList(declared);
        List<Member> recomputed = LocalRanks.recompute(declaredList);
        Optional<String> mismatch = LocalRanks.mismatch(declaredList, recomputed);
        if (mismatch.isPresent()) {
            throw fail(mismatch.get(), false);
        }
        members = List.copyOf(recomputed);
        byte[] table = Wire.encode(out -> {
            out.writeInt(recomputed.size());
            for (Member m : recomputed) {
                Wire.writeMember(out, m);
            }
        });
        for (int r = 1; r < peers.length; r++) {
            peers[r].peer = recomputed.get(r);
            try {
                peers[r].send(Wire.START, table);
            } catch (IOException e) {
                throw fail(recomputed.get(r).describe() + " was lost during start-up: " + e.getMessage(), false);
            }
        }
        phase = "idle after start-up";
    }

    /** The ranks not joined yet; called holding the lock. */
    private List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int r = 1; r < peers.length; r++) {
            if (peers[r] == null) {
                missing.add(r);
            }
        }
        return missing;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (!handshakeSlots.tryAcquire()) {
                closeQuietly(s); // a flood of strangers: drop without reading
                continue;
            }
            handshakes.execute(() -> {
                try {
                    handshake(s);
                } finally {
                    handshakeSlots.release();
                }
            });
        }
    }

    /**
     * A connection becomes a member only through a valid handshake within {@link JobOptions#handshakeTimeout}; a
     * silent, garbled or foreign one is refused and logged once, and never touches the job (a port scanner or a health
     * probe must not end a bring-up). A rank stopped before its handshake is left to the start-up timeout.
     */
    private void handshake(Socket s) {
        Connection c;
        try {
            s.setSoTimeout((int) options.handshakeTimeout().toMillis());
            c = new Connection(s);
        } catch (IOException e) {
            closeQuietly(s);
            return;
        }
        pending.add(c);
        if (closing) {
            refuse(c, "the job is over");
            return;
        }
        Wire.Hello hello;
        try {
            Wire.Frame f = Wire.read(c.in, Wire.HANDSHAKE_LIMIT);
            if (f.type() != Wire.HELLO) {
                refuse(c, "not a nccl-harness handshake (message type " + f.type() + ")");
                return;
            }
            hello = Wire.Hello.decode(f.body());
        } catch (Wire.OversizeException e) {
            refuse(c, "a handshake of " + e.getMessage().replace("a message of ", ""));
            return;
        } catch (SocketTimeoutException e) {
            refuse(c, "no handshake within " + seconds(options.handshakeTimeout()));
            return;
        } catch (java.io.EOFException e) {
            refuse(c, "it closed the connection before a whole handshake");
            return;
        } catch (IOException e) {
            refuse(c, e.getMessage() == null ? e.toString() : e.getMessage());
            return;
        }
        Optional<String> bad = check(hello);
        if (bad.isPresent()) {
            refuse(c, bad.get());
            return;
        }
        int r = hello.member().rank();
        synchronized (lock) {
            if (peers[r] != null) {
                refuse(c, "rank " + r + " already joined: " + declared[r].describe());
                return;
            }
            if (closing || failure().isPresent()) {
                refuse(c, "the job is over");
                return;
            }
            try {
                c.send(Wire.WELCOME, new byte[0]);
            } catch (IOException e) {
                c.close();
                return;
            }
            pending.remove(c);
            c.peer = hello.member();
            peers[r] = c;
            declared[r] = hello.member();
            joined++;
            lock.notifyAll();
        }
        c.startReader("harness-rdzv-reader-r" + r, options.maxMessageBytes() + 64, options.heartbeatTimeout(),
                listener);
    }

    private Optional<String> check(Wire.Hello h) {
        if (h.protocol() != Wire.PROTOCOL) {
            return Optional.of("control-plane protocol " + h.protocol() + " != rank 0's " + Wire.PROTOCOL
                    + ": use the same harness.jar on every node");
        }
        if (!h.harnessVersion().equals(identity.harnessVersion())) {
            return Optional.of("harness version " + h.harnessVersion() + " != rank 0's "
                    + identity.harnessVersion() + ": use the same harness.jar on every node");
        }
        if (!h.token().equals(token)) {
            if (file != null) {
                return Optional.of("wrong job token: this rendezvous belongs to another job (a stale rendezvous"
                        + " file? check --rendezvous and the job id)");
            }
            return Optional.of(secondJob(h, "job " + h.token(), "job " + token));
        }
        if (!h.argsHash().equals(identity.argsHash())) {
            return Optional.of("arguments differ from rank 0's (hash " + h.argsHash() + " != "
                    + identity.argsHash() + "): start every rank with the same arguments");
        }
        if (h.worldSize() != place.worldSize()) {
            return Optional.of("world size " + h.worldSize() + " != rank 0's " + place.worldSize());
        }
        Member self = declared[0];
        if (!h.launchSession().equals(identity.launchSession()) && h.member().hostId().equals(self.hostId())) {
            return Optional.of(secondJob(h, "job " + token + " started from " + sessionName(h.launchSession()),
                    "job " + token + " started from " + sessionName(identity.launchSession())));
        }
        int r = h.member().rank();
        if (r < 1 || r >= place.worldSize()) {
            return Optional.of("rank " + r + " is not one of ranks 1.." + (place.worldSize() - 1));
        }
        return Optional.empty();
    }

    /** The one line that names both jobs on one port: the joining rank's and the port owner's. */
    private String secondJob(Wire.Hello h, String theirs, String ours) {
        return "rank " + h.member().rank() + " (host=" + h.member().host() + ", pid=" + h.member().pid() + ") of "
                + theirs + " is not of this port's " + ours + " (rank 0 pid " + declared[0].pid() + "): give each"
                + " job its own MASTER_PORT or --rendezvous, and every rank of one job the same HARNESS_JOB_ID";
    }

    private static String sessionName(String launchSession) {
        return launchSession.isEmpty() ? "a launcher" : launchSession;
    }

    /** Refuses {@code c} and logs it, once however many ways its handshake ends. */
    private void refuse(Connection c, String reason) {
        if (!pending.remove(c)) {
            return;
        }
        log.println(label + ": refused a connection from " + c.remote() + ": " + reason);
        log.flush();
        c.sendQuietly(Wire.REJECT, Wire.utf(reason));
        try {
            c.socket.shutdownOutput();
        } catch (IOException e) {
            // it is gone already
        }
        c.close();
    }

    private final Connection.Listener listener = new Connection.Listener() {
        @Override
        public void onAbort(Connection c, String reason) {
            fail(reason, true);
        }

        @Override
        public void onLost(Connection c, String reason) {
            if (!closing) {
                fail(c.peer.describe() + " was lost during " + phase + ": " + reason, true);
            }
        }
    };

    @Override
    List<Connection> connections() {
        List<Connection> live = new ArrayList<>();
        synchronized (lock) {
            for (Connection c : peers) {
                if (c != null) {
                    live.add(c);
                }
            }
        }
        return live;
    }

    @Override
    void propagate(String cause, boolean fromPeer) {
        closeServer();
        byte[] body = Wire.utf(cause);
        for (Connection c : connections()) {
            c.sendQuietly(Wire.ABORT, body);
            try {
                c.socket.shutdownOutput();
            } catch (IOException e) {
                // that peer is gone already
            }
        }
    }

    /** Gathers every rank's contribution to operation {@code kind}, checking that all ranks are in step. */
    private byte[][] collect(Wire.Kind kind, byte[] mine) {
        checkUsable();
        checkSize(mine);
        int s = ++seq;
        String op = kind.label() + " #" + s;
        phase = op;
        byte[][] parts = new byte[peers.length][];
        parts[0] = mine;
        long deadline = options.deadline(options.opTimeout());
        for (int r = 1; r < peers.length; r++) {
            final int rr = r;
            Wire.Frame f = await(peers[r], deadline, () -> timeout(op, rr),
                    () -> members.get(rr).describe() + " left the job (closed its connection) before " + op);
            if (f.type() != Wire.OP) {
                throw fail(members.get(r).describe() + " sent message type " + f.type() + " during " + op, false);
            }
            try {
                DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(f.body()));
                int theirSeq = in.readInt();
                int theirKind = in.readByte();
                if (theirSeq != s || theirKind != kind.ordinal()) {
                    String theirs = theirKind >= 0 && theirKind < Wire.Kind.values().length
                            ? Wire.Kind.values()[theirKind].label() : "operation " + theirKind;
                    throw fail("ranks diverged: " + members.get(r).describe() + " called " + theirs + " #"
                            + theirSeq + " while rank 0 called " + op, false);
                }
                parts[r] = in.readAllBytes();
            } catch (IOException e) {
                throw fail(members.get(r).describe() + " sent a malformed message during " + op, false);
            }
        }
        return parts;
    }

    private String timeout(String op, int firstMissing) {
        List<String> missing = new ArrayList<>();
        for (int r = firstMissing; r < peers.length; r++) {
            if (r == firstMissing || peers[r].inbox.isEmpty()) {
                missing.add(members.get(r).describe());
            }
        }
        return "timeout after " + seconds(options.opTimeout()) + " in " + op + " waiting for "
                + String.join(", ", missing) + ": check that rank, or raise --op-timeout if one step takes"
                + " this long";
    }

    private void reply(Wire.Kind kind, byte[] result) {
        int s = seq;
        byte[] body = Wire.encode(out -> {
            out.writeInt(s);
            out.writeByte(kind.ordinal());
            out.write(result);
        });
        for (int r = 1; r < peers.length; r++) {
            try {
                peers[r].send(Wire.RESULT, body);
            } catch (IOException e) {
                throw fail(members.get(r).describe() + " was lost during " + phase + ": " + e.getMessage(), false);
            }
        }
        phase = "idle after " + phase;
    }

    @Override
    public void barrier() {
        collect(Wire.Kind.BARRIER, new byte[0]);
        reply(Wire.Kind.BARRIER, new byte[0]);
    }

    @Override
    public double[] allreduce(double[] values, Op op) {
        byte[][] parts = collect(Wire.Kind.ALLREDUCE, Ops.encodeReduce(values, op));
        double[] acc = values.clone();
        for (int r = 1; r < parts.length; r++) {
            Ops.Reduce theirs;
            try {
                theirs = Ops.decodeReduce(parts[r]);
            } catch (IOException e) {
                throw fail(members.get(r).describe() + " sent a malformed allreduce", false);
            }
            if (theirs.op() != op || theirs.values().length != values.length) {
                throw fail("ranks diverged: " + members.get(r).describe() + " called allreduce " + theirs.op()
                        + " of " + theirs.values().length + " values while rank 0 called " + op + " of "
                        + values.length, false);
            }
            for (int i = 0; i < acc.length; i++) {
                acc[i] = op.apply(acc[i], theirs.values()[i]);
            }
        }
        reply(Wire.Kind.ALLREDUCE, Ops.encodeValues(acc));
        return acc;
    }

    @Override
    public byte[] broadcast(byte[] data) {
        checkSize(data);
        collect(Wire.Kind.BROADCAST, new byte[0]);
        reply(Wire.Kind.BROADCAST, data.clone());
        return data.clone();
    }

    @Override
    public List<byte[]> gather(byte[] mine) {
        byte[][] parts = collect(Wire.Kind.GATHER, mine);
        reply(Wire.Kind.GATHER, Ops.encodeParts(parts));
        return List.of(parts);
    }

    @Override
    public void close() {
        synchronized (failLock) {
            if (closing) {
                return;
            }
            boolean clean = failure().isEmpty();
            closing = true;
            closeServer();
            List<Connection> live = connections();
            if (clean) {
                for (Connection c : live) {
                    c.sendQuietly(Wire.BYE, new byte[0]);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                for (Connection c : live) {
                    try {
                        c.awaitEnd(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            for (Connection c : live) {
                c.close();
            }
            for (Connection c : List.copyOf(pending)) {
                refuse(c, "the job ended before its handshake");
            }
            stopHeartbeat();
            handshakes.shutdownNow();
        }
    }

    private void closeServer() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        if (file != null) {
            file.delete();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // a stranger we drop
        }
    }

    /** The port rank 0 listens on (ephemeral in file mode); for logs and tests. */
    int port() {
        return server.getLocalPort();
    }
}
