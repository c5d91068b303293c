package org.ncclharness.harness.launch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;

/**
 * A test's hand-driven control-plane client: a stranger with wrong credentials, or a member that dies, hangs or
 * misbehaves in ways a real rank cannot be made to in one JVM.
 */
final class RawPeer implements AutoCloseable {

    final Socket socket;
    final DataInputStream in;
    final DataOutputStream out;

    RawPeer(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 60_000);
        socket.setSoTimeout(120_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    static FileRendezvous.Content awaitFile(Path file) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L; // only a hang takes this long
        while (System.nanoTime() < deadline) {
            var c = FileRendezvous.read(file);
            if (c.isPresent()) {
                return c.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no rendezvous file " + file);
    }

    static Member member(int rank) {
        return new Member(rank, "raw-host", "host-a", 9000 + rank, -1, -1, 1, List.of());
    }

    /** Sends a handshake; returns the reply frame. */
    Wire.Frame hello(String version, String token, String args, int worldSize, Member m) throws IOException {
        Wire.write(out, Wire.HELLO, new Wire.Hello(Wire.MAGIC, Wire.PROTOCOL, version, token, args, "", worldSize,
                m)
                .encode());
        return next();
    }

    /** The next frame that is not a heartbeat. */
    Wire.Frame next() throws IOException {
        while (true) {
            Wire.Frame f = Wire.read(in, 1 << 24);
            if (f.type() != Wire.PING) {
                return f;
            }
        }
    }

    String rejection(Wire.Frame f) throws IOException {
        if (f.type() != Wire.REJECT) {
            throw new AssertionError("expected REJECT, got type " + f.type());
        }
        return Wire.utf(f.body());
    }

    /** Takes part in operation {@code seq} and returns rank 0's result payload. */
    byte[] op(int seq, Wire.Kind kind, byte[] payload) throws IOException {
        Wire.write(out, Wire.OP, Wire.encode(o -> {
            o.writeInt(seq);
            o.writeByte(kind.ordinal());
            o.write(payload);
        }));
        Wire.Frame f = next();
        if (f.type() != Wire.RESULT) {
            throw new AssertionError("expected RESULT, got type " + f.type());
        }
        byte[] body = f.body();
        return java.util.Arrays.copyOfRange(body, 5, body.length);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
