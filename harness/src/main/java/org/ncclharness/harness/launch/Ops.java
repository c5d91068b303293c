package org.ncclharness.harness.launch;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Payload encodings of the operations, shared by both sides. */
final class Ops {

    private Ops() {
    }

    record Reduce(JobGroup.Op op, double[] values) {
    }

    static byte[] encodeReduce(double[] values, JobGroup.Op op) {
        return Wire.encode(out -> {
            out.writeByte(op.ordinal());
            out.write(encodeValues(values));
        });
    }

    static Reduce decodeReduce(byte[] body) throws IOException {
        return Wire.decode(body, in -> {
            int op = in.readByte();
            if (op < 0 || op >= JobGroup.Op.values().length) {
                throw new IOException("unknown reduction " + op);
            }
            return new Reduce(JobGroup.Op.values()[op], readValues(in));
        });
    }

    static byte[] encodeValues(double[] values) {
        return Wire.encode(out -> {
            out.writeInt(values.length);
            for (double v : values) {
                out.writeDouble(v);
            }
        });
    }

    static double[] decodeValues(byte[] body) throws IOException {
        return Wire.decode(body, Ops::readValues);
    }

    private static double[] readValues(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available() / Double.BYTES) {
            throw new IOException("malformed message: " + n + " values");
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = in.readDouble();
        }
        return v;
    }

    static byte[] encodeParts(byte[][] parts) {
        return Wire.encode(out -> {
            out.writeInt(parts.length);
            for (byte[] p : parts) {
                out.writeInt(p.length);
                out.write(p);
            }
        });
    }

    static List<byte[]> decodeParts(byte[] body, int expected) throws IOException {
        return Wire.decode(body, in -> {
            int n = in.readInt();
            if (n != expected) {
                throw new IOException("malformed message: " + n + " parts for " + expected + " ranks");
            }
            List<byte[]> parts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = in.readInt();
                if (len < 0 || len > in.available()) {
                    throw new IOException("malformed message: part of " + len + " bytes");
                }
                byte[] p = new byte[len];
                in.readFully(p);
                parts.add(p);
            }
            return List.copyOf(parts);
        });
    }
}
