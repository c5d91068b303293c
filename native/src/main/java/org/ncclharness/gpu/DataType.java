package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The datatypes nccl-tests' {@code -d} accepts, with NCCL's enum value, the element size and how an element's
 * bits map to a number on the host (for the data check, which compares bit patterns).
 */
public enum DataType {
    INT8("int8", 0, 1, Kind.SIGNED, null, null),
    UINT8("uint8", 1, 1, Kind.UNSIGNED, null, null),
    INT32("int32", 2, 4, Kind.SIGNED, null, null),
    UINT32("uint32", 3, 4, Kind.UNSIGNED, null, null),
    INT64("int64", 4, 8, Kind.SIGNED, null, null),
    UINT64("uint64", 5, 8, Kind.UNSIGNED, null, null),
    HALF("half", 6, 2, Kind.MINIFLOAT, MiniFloat.HALF, null),
    FLOAT("float", 7, 4, Kind.FLOAT32, null, null),
    DOUBLE("double", 8, 8, Kind.FLOAT64, null, null),
    BFLOAT16("bfloat16", 9, 2, Kind.MINIFLOAT, MiniFloat.BFLOAT16, NcclFeature.BFLOAT16),
    F8E4M3("f8e4m3", 10, 1, Kind.MINIFLOAT, MiniFloat.E4M3, NcclFeature.FLOAT8),
    F8E5M2("f8e5m2", 11, 1, Kind.MINIFLOAT, MiniFloat.E5M2, NcclFeature.FLOAT8);

    enum Kind { SIGNED, UNSIGNED, MINIFLOAT, FLOAT32, FLOAT64 }

    private final String testName;
    private final int ncclCode;
    private final int bytes;
    private final Kind kind;
    private final MiniFloat mini;
    private final NcclFeature needs;

    DataType(String testName, int ncclCode, int bytes, Kind kind, MiniFloat mini, NcclFeature needs) {
        this.testName = testName;
        this.ncclCode = ncclCode;
        this.bytes = bytes;
        this.kind = kind;
        this.mini = mini;
        this.needs = needs;
    }

    /** The name nccl-tests prints in its {@code type} column. */
    public String testName() {
        return testName;
    }

    /** {@code ncclDataType_t} value. */
    public int ncclCode() {
        return ncclCode;
    }

    public int bytes() {
        return bytes;
    }

    /** The NCCL feature that introduced the type, empty for the types every supported NCCL has. */
    public Optional<NcclFeature> needs() {
        return Optional.ofNullable(needs);
    }

    public boolean isFloatingPoint() {
        return kind == Kind.MINIFLOAT || kind == Kind.FLOAT32 || kind == Kind.FLOAT64;
    }

    /** nccl-tests' spellings, plus NCCL's own aliases (char, int, float16, float32, float64, bf16). */
    public static Optional<DataType> byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        String canonical = switch (n) {
            case "char" -> "int8";
            case "int" -> "int32";
            case "float16" -> "half";
            case "float32" -> "float";
            case "float64" -> "double";
            case "bf16" -> "bfloat16";
            default -> n;
        };
        return Arrays.stream(values()).filter(t -> t.testName.equals(canonical)).findFirst();
    }

    /**
     * The largest integer V such that every integer 0..V is exactly representable and, for signed types,
     * positive. The data check keeps every value and every exact result within it.
     */
    long exactIntegerLimit() {
        return switch (this) {
            case INT8 -> 127;
            case UINT8 -> 255;
            case INT32 -> Integer.MAX_VALUE;
            case UINT32 -> 0xFFFF_FFFFL;
            case INT64, UINT64 -> Long.MAX_VALUE;
            case HALF -> 2048;
            case BFLOAT16 -> 256;
            case FLOAT -> 1L << 24;
            case DOUBLE -> 1L << 53;
            case F8E4M3 -> 16;
            case F8E5M2 -> 8;
        };
    }

    /** True for integer types, whose sums and products wrap identically on the host and on the GPU. */
    boolean wraps() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
    }

    /** The element's bit pattern (low {@code 8*bytes} bits) for an integer value; integer types wrap. */
    long encodeInteger(long v) {
        return isFloatingPoint() ? encode((double) v) : v & mask();
    }

    /** The element's bit pattern for a number. */
    long encode(double v) {
        return switch (kind) {
            case SIGNED, UNSIGNED -> ((long) v) & mask();
            case MINIFLOAT -> mini.encode(v);
            case FLOAT32 -> Float.floatToRawIntBits((float) v) & 0xFFFF_FFFFL;
            case FLOAT64 -> Double.doubleToRawLongBits(v);
        };
    }

    /** The number an element's bits stand for (unsigned 64-bit values above 2^63 lose precision). */
    double decode(long bits) {
        return switch (kind) {
            case SIGNED -> (double) signExtend(bits);
            case UNSIGNED -> bytes == 8 && bits < 0 ? (double) (bits >>> 1) * 2.0 : (double) (bits & mask());
            case MINIFLOAT -> mini.decode(bits);
            case FLOAT32 -> Float.intBitsToFloat((int) bits);
            case FLOAT64 -> Double.longBitsToDouble(bits);
        };
    }

    /** An integer element's value as a Java long (sign-extended for signed types). */
    long decodeInteger(long bits) {
        return kind == Kind.SIGNED ? signExtend(bits) : bits & mask();
    }

    long mask() {
        return bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
    }

    private long signExtend(long bits) {
        int shift = 64 - 8 * bytes;
        return (bits << shift) >> shift;
    }
}
