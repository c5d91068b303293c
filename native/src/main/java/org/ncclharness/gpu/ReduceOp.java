package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The reduction operators of nccl-tests' {@code -o}. {@code mulsum} (a PreMulSum operator created per
 * communicator) is not offered: its scalar semantics differ per datatype and nccl-tests' own check for it
 * relies on its GPU generator.
 */
public enum ReduceOp {
    SUM("sum", 0, null),
    PROD("prod", 1, null),
    MAX("max", 2, null),
    MIN("min", 3, null),
    AVG("avg", 4, NcclFeature.AVG_OP);

    private final String testName;
    private final int ncclCode;
    private final NcclFeature needs;

    ReduceOp(String testName, int ncclCode, NcclFeature needs) {
        this.testName = testName;
        this.ncclCode = ncclCode;
        this.needs = needs;
    }

    /** The name nccl-tests prints in its {@code redop} column. */
    public String testName() {
        return testName;
    }

    /** {@code ncclRedOp_t} value. */
    public int ncclCode() {
        return ncclCode;
    }

    public Optional<NcclFeature> needs() {
        return Optional.ofNullable(needs);
    }

    public static Optional<ReduceOp> byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(o -> o.testName.equals(n)).findFirst();
    }
}
