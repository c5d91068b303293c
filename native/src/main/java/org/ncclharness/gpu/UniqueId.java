package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * NCCL's 128-byte {@code ncclUniqueId} as plain bytes, so the launch layer can carry it from rank 0 to every
 * rank over its own rendezvous. It holds a random magic and the bootstrap root's socket address; the process
 * that created it runs the root listener and must stay alive until every rank has initialised.
 */
public record UniqueId(byte[] bytes) {
    /** {@code NCCL_UNIQUE_ID_BYTES}. */
    public static final int BYTES = 128;

    public UniqueId {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("an NCCL unique id has " + BYTES + " bytes, got " + bytes.length);
        }
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }

    public static UniqueId fromHex(String hex) {
        return new UniqueId(HexFormat.of().parseHex(hex.trim()));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UniqueId u && Arrays.equals(bytes, u.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "UniqueId[" + toHex().substring(0, 16) + "...]";
    }
}
