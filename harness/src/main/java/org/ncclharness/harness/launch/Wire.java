package org.ncclharness.harness.launch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The control plane's wire format: length-prefixed frames {@code [int length][byte type][body]}, bodies written
 * with {@link DataOutputStream}. No Java serialization: a stranger's bytes are parsed, never instantiated.
 */
final class Wire {

    static final long MAGIC = 0x4E4343484152_4E53L; // "NCCHARNS"
    static final int PROTOCOL = 2; // 2: the handshake carries the launch session
    static final int HANDSHAKE_LIMIT = 4096;

    static final byte HELLO = 1;
    static final byte WELCOME = 2;
    static final byte REJECT = 3;
    static final byte START = 4;
    static final byte OP = 5;
    static final byte RESULT = 6;
    static final byte PING = 7;
    static final byte ABORT = 8;
    static final byte BYE = 9;

    /** Operation kinds, sent with each OP and RESULT so diverged ranks are caught. */
    enum Kind {
        BARRIER, ALLREDUCE, BROADCAST, GATHER;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    record Frame(byte type, byte[] body) {
    }

    /** A frame whose declared length exceeds what the reader accepts. */
    static final class OversizeException extends IOException {
        private static final long serialVersionUID = 1L;

        OversizeException(int length, int limit) {
            super("a message of " + length + " bytes, over the " + limit + "-byte limit");
        }
    }

    private Wire() {
    }

    static Frame read(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 1) {
            throw new IOException("a message declaring " + length + " bytes, not a nccl-harness frame");
        }
        if (length > limit) {
            throw new OversizeException(length, limit);
        }
        byte type = in.readByte();
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new Frame(type, body);
    }

    static void write(DataOutputStream out, byte type, byte[] body) throws IOException {
        out.writeInt(body.length + 1);
        out.writeByte(type);
        out.write(body);
        out.flush();
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    static byte[] encode(Writer w) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            w.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** Decodes a whole body; trailing or missing bytes are a malformed message. */
    static <T> T decode(byte[] body, Reader<T> r) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
        T t = r.read(in);
        if (in.available() != 0) {
            throw new IOException("malformed message: " + in.available() + " unexpected trailing bytes");
        }
        return t;
    }

    static void writeMember(DataOutputStream out, Member m) throws IOException {
        out.writeInt(m.rank());
        out.writeUTF(m.host());
        out.writeUTF(m.hostId());
        out.writeLong(m.pid());
        out.writeInt(m.localRank());
        out.writeInt(m.localSize());
        out.writeInt(m.cpus());
        out.writeInt(m.gpuBusIds().size());
        for (String g : m.gpuBusIds()) {
            out.writeUTF(g);
        }
    }

    static Member readMember(DataInputStream in) throws IOException {
        int rank = in.readInt();
        String host = in.readUTF();
        String hostId = in.readUTF();
        long pid = in.readLong();
        int localRank = in.readInt();
        int localSize = in.readInt();
        int cpus = in.readInt();
        int gpus = in.readInt();
        if (gpus < 0 || gpus > 1024) {
            throw new IOException("malformed message: " + gpus + " GPUs");
        }
        List<String> ids = new ArrayList<>(gpus);
        for (int i = 0; i < gpus; i++) {
            ids.add(in.readUTF());
        }
        return new Member(rank, host, hostId, pid, localRank, localSize, cpus, ids);
    }

    /** The joining rank's handshake. */
    record Hello(long magic, int protocol, String harnessVersion, String token, String argsHash,
            String launchSession, int worldSize, Member member) {

        byte[] encode() {
            return Wire.encode(out -> {
                out.writeLong(magic);
                out.writeInt(protocol);
                out.writeUTF(harnessVersion);
                out.writeUTF(token);
                out.writeUTF(argsHash);
                out.writeUTF(launchSession);
                out.writeInt(worldSize);
                writeMember(out, member);
            });
        }

        static Hello decode(byte[] body) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
            long magic;
            try {
                magic = in.readLong();
            } catch (EOFException e) {
                throw new IOException("not a nccl-harness handshake (too short)");
            }
            if (magic != MAGIC) {
                throw new IOException("not a nccl-harness handshake (bad magic)");
            }
            int protocol = in.readInt();
            if (protocol != PROTOCOL) {
                // an older or newer jar: its fields may differ, so only the version is read and reported
                return new Hello(magic, protocol, "", "", "", "", 0, null);
            }
            return Wire.decode(body, d -> new Hello(d.readLong(), d.readInt(), d.readUTF(), d.readUTF(),
                    d.readUTF(), d.readUTF(), d.readInt(), readMember(d)));
        }
    }

    static byte[] utf(String s) {
        return encode(out -> out.writeUTF(s.length() > 2000 ? s.substring(0, 2000) : s));
    }

    static String utf(byte[] body) throws IOException {
        return decode(body, in -> in.readUTF());
    }
}
