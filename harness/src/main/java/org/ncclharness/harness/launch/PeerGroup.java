package org.ncclharness.harness.launch;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The side of every rank but 0: one connection to rank 0, each operation a request and its result. */
final class PeerGroup extends TcpGroup {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final long RETRY_MS = 50;
    /** Rank 0 names the culprit of a timeout; the others wait this much longer so its message wins. */
    private static final Duration GRACE = Duration.ofSeconds(10);

    private final Connection root;

    private PeerGroup(Place place, JobOptions options, PrintStream log, Connection root) {
        super(place, options, log);
        this.root = root;
    }

    static PeerGroup open(Place place, RendezvousSpec spec, Member self, JobIdentity identity, JobOptions options,
            PrintStream log) {
        String label = place.label();
        long deadline = options.deadline(options.startupTimeout());
        String lastError = "nothing answered";
        while (options.nanoTime() - deadline < 0) {
            Optional<Target> target;
            try {
                target = target(spec, place, identity);
            } catch (IOException e) {
                target = Optional.empty();
                lastError = e.getMessage();
            }
            if (target.isEmpty() && spec instanceof RendezvousSpec.File f && lastError.equals("nothing answered")) {
                lastError = "no rendezvous file " + f.path() + " yet";
            }
            for (InetSocketAddress addr : target.map(Target::addresses).orElse(List.of())) {
                Socket s = new Socket();
                try {
                    s.connect(addr, (int) CONNECT_TIMEOUT.toMillis());
                    Connection c = new Connection(s);
                    s.setSoTimeout((int) Math.max(1000, Math.min(10_000,
                            (deadline - options.nanoTime()) / 1_000_000)));
                    Wire.Hello hello = new Wire.Hello(Wire.MAGIC, Wire.PROTOCOL, identity.harnessVersion(),
                            target.get().token(), identity.argsHash(), identity.launchSession(), place.worldSize(), self);
                    c.send(Wire.HELLO, hello.encode());
                    Wire.Frame reply = Wire.read(c.in, Wire.HANDSHAKE_LIMIT);
                    if (reply.type() == Wire.REJECT) {
                        c.close();
                        throw new JobFailedException(label + ": rank 0 at " + addr + " refused this rank: "
                                + Wire.utf(reply.body()));
                    }
                    if (reply.type() != Wire.WELCOME) {
                        throw new UnexpectedReply(reply.type());
                    }
                    PeerGroup g = new PeerGroup(place, options, log, c);
                    g.awaitStart(spec);
                    return g;
                } catch (IOException e) {
                    closeQuietly(s);
                    lastError = addr + ": " + describe(e);
                }
            }
            sleep(RETRY_MS);
        }
        throw new JobFailedException(label + ": could not reach rank 0 via " + spec.describe() + " within "
                + seconds(options.startupTimeout()) + " (last: " + lastError + "): check that rank 0 started and"
                + " that this host can reach it, or raise --startup-timeout");
    }

    private static String describe(IOException e) {
        // "reset" is the JDK's own word for a connection the other side dropped
        if (e instanceof java.io.EOFException || String.valueOf(e.getMessage()).contains("reset")
                || e instanceof Wire.OversizeException || e instanceof UnexpectedReply) {
            return "did not answer the harness handshake (" + e.getMessage()
                    + "): is another service on that port, e.g. torchrun's agent store on MASTER_PORT?";
        }
        return String.valueOf(e.getMessage());
    }

    private record Target(List<InetSocketAddress> addresses, String token) {
    }

    /** A handshake answered with a message that is not the harness's welcome. */
    private static final class UnexpectedReply extends IOException {
        private static final long serialVersionUID = 1L;

        UnexpectedReply(int type) {
            super("message type " + type);
        }
    }

    private static Optional<Target> target(RendezvousSpec spec, Place place, JobIdentity identity)
            throws IOException {
        if (spec instanceof RendezvousSpec.Tcp tcp) {
            InetSocketAddress a = new InetSocketAddress(tcp.host(), tcp.port());
            if (a.isUnresolved()) {
                throw new IOException("cannot resolve " + tcp.host());
            }
            return Optional.of(new Target(List.of(a), identity.jobToken()));
        }
        RendezvousSpec.File f = (RendezvousSpec.File) spec;
        Optional<FileRendezvous.Content> content = FileRendezvous.read(f.path());
        if (content.isEmpty()) {
            return Optional.empty();
        }
        FileRendezvous.Content c = content.get();
        if (place.jobIdShared() && !c.job().equals(place.jobId())) {
            throw new IOException(f.path() + " belongs to job " + c.job() + ", not " + place.jobId()
                    + " (a stale file): waiting for rank 0 to replace it");
        }
        return Optional.of(new Target(c.addresses(), c.token()));
    }

    private void awaitStart(RendezvousSpec spec) {
        root.peer = new Member(0, root.remote(), "?", -1, 0, -1, 0, List.of());
        root.startReader("harness-rdzv-reader", Integer.MAX_VALUE / 2, options.heartbeatTimeout(), listener);
        startHeartbeat();
        // Rank 0 ends the start-up itself (START, or ABORT after its own timeout); the deadline is a backstop.
        long deadline = options.deadline(options.startupTimeout().plus(options.startupTimeout()).plus(GRACE));
        Wire.Frame f;
        try {
            f = await(root, deadline, () -> "rank 0 via " + spec.describe() + " did not start the job within "
                    + seconds(options.startupTimeout().plus(options.startupTimeout()).plus(GRACE)),
                    () -> "rank 0 closed the job during start-up");
        } catch (JobFailedException e) {
            close();
            throw e;
        }
        if (f.type() != Wire.START) {
            close();
            throw fail("rank 0 sent message type " + f.type() + " during start-up", false);
        }
        List<Member> table;
        try {
            table = Wire.decode(f.body(), in -> {
                int n = in.readInt();
                List<Member> ms = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ms.add(Wire.readMember(in));
                }
                return ms;
            });
        } catch (IOException e) {
            close();
            throw fail("rank 0 sent a malformed member table: " + e.getMessage(), false);
        }
        if (table.size() != place.worldSize()) {
            throw fail("rank 0 sent a table of " + table.size() + " ranks for world size " + place.worldSize(),
                    false);
        }
        members = List.copyOf(table);
        root.peer = table.get(0);
        phase = "idle after start-up";
    }

    private final Connection.Listener listener = new Connection.Listener() {
        @Override
        public void onAbort(Connection c, String reason) {
            fail(reason + " (reported by rank 0)", true);
        }

        @Override
        public void onLost(Connection c, String reason) {
            if (!closing) {
                fail(c.peer.describe() + " was lost during " + phase + ": " + reason, false);
            }
        }
    };

    @Override
    List<Connection> connections() {
        return List.of(root);
    }

    @Override
    void propagate(String cause, boolean fromPeer) {
        if (!fromPeer) {
            root.sendQuietly(Wire.ABORT, Wire.utf(self().describe() + " gave up: " + cause));
        }
    }

    private byte[] exchange(Wire.Kind kind, byte[] mine) {
        checkUsable();
        checkSize(mine);
        int s = ++seq;
        String op = kind.label() + " #" + s;
        phase = op;
        try {
            root.send(Wire.OP, Wire.encode(out -> {
                out.writeInt(s);
                out.writeByte(kind.ordinal());
                out.write(mine);
            }));
        } catch (IOException e) {
            throw fail(root.peer.describe() + " was lost during " + op + ": " + e.getMessage(), false);
        }
        Duration wait = options.opTimeout().isZero() ? Duration.ZERO : options.opTimeout().plus(GRACE);
        Wire.Frame f = await(root, options.deadline(wait), () -> "timeout after " + seconds(wait)
                + " waiting for " + root.peer.describe() + " in " + op + ": check rank 0, or raise --op-timeout",
                () -> root.peer.describe() + " closed the job before " + op);
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(f.body()));
            if (f.type() != Wire.RESULT || in.readInt() != s || in.readByte() != kind.ordinal()) {
                throw fail("rank 0 answered " + op + " out of step", false);
            }
            phase = "idle after " + op;
            return in.readAllBytes();
        } catch (IOException e) {
            throw fail("rank 0 sent a malformed result for " + op, false);
        }
    }

    @Override
    public void barrier() {
        exchange(Wire.Kind.BARRIER, new byte[0]);
    }

    @Override
    public double[] allreduce(double[] values, Op op) {
        byte[] result = exchange(Wire.Kind.ALLREDUCE, Ops.encodeReduce(values, op));
        try {
            return Ops.decodeValues(result);
        } catch (IOException e) {
            throw fail("rank 0 sent a malformed allreduce result", false);
        }
    }

    @Override
    public byte[] broadcast(byte[] data) {
        return exchange(Wire.Kind.BROADCAST, new byte[0]);
    }

    @Override
    public List<byte[]> gather(byte[] mine) {
        byte[] result = exchange(Wire.Kind.GATHER, mine);
        try {
            return Ops.decodeParts(result, size());
        } catch (IOException e) {
            throw fail("rank 0 sent a malformed gather result", false);
        }
    }

    @Override
    public void close() {
        synchronized (failLock) {
            if (closing) {
                return;
            }
            boolean clean = failure().isEmpty();
            closing = true;
            if (clean) {
                root.sendQuietly(Wire.BYE, new byte[0]);
                try {
                    root.awaitEnd(Duration.ofSeconds(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            root.close();
            stopHeartbeat();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobFailedException("interrupted while joining the job");
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // retrying with a fresh socket
        }
    }
}
