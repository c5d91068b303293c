package org.ncclharness.gpu;

/**
 * An NCCL version as {@code ncclGetVersion} reports it at run time. NCCL changed the encoding of the code at
 * 2.9: before it, {@code major*1000 + minor*100 + patch} (2.8.4 is 2804); from it,
 * {@code major*10000 + minor*100 + patch} (2.30.7 is 23007). Compile-time constants such as
 * {@code NCCL_VERSION_CODE} are inlined by javac and say nothing about the loaded library.
 */
public record NcclVersion(int major, int minor, int patch) implements Comparable<NcclVersion> {

    public NcclVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("negative NCCL version component: " + major + "." + minor + "." + patch);
        }
    }

    /** Decodes a run-time version code in either encoding. */
    public static NcclVersion fromCode(int code) {
        if (code <= 0) {
            throw new IllegalArgumentException("not an NCCL version code: " + code);
        }
        if (code >= 10000) {
            return new NcclVersion(code / 10000, (code % 10000) / 100, code % 100);
        }
        return new NcclVersion(code / 1000, (code % 1000) / 100, code % 100);
    }

    /** Parses {@code 2.23.4} (a suffix such as {@code +cuda12.6} is ignored). */
    public static NcclVersion parse(String text) {
        String core = text.trim().split("[+\\s]", 2)[0];
        String[] parts = core.split("\\.");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not an NCCL version (expected MAJOR.MINOR.PATCH): " + text);
        }
        try {
            return new NcclVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an NCCL version (expected MAJOR.MINOR.PATCH): " + text, e);
        }
    }

    /** The code in the 2.9+ encoding, as nccl-tests prints it ({@code nccl-library=23007}). */
    public int code() {
        return major * 10000 + minor * 100 + patch;
    }

    public boolean atLeast(NcclVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(NcclVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
