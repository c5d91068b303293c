package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The reduction operators of nccl-tests' {@code -o}. {@code mulsum} is NCCL's PreMulSum, created as nccl-tests
 * creates it: around every launch, per communicator ({@code ncclRedOpCreatePreMulSum} with a host-immediate
 * scalar, then {@code ncclRedOpDestroy}), the scalar 1 on even ranks and 2 on odd ones ({@link #preMulScalar}).
 */
public enum ReduceOp {
    SUM("sum", 0, null),
    PROD("prod", 1, null),
    MAX("max", 2, null),
    MIN("min", 3, null),
    AVG("avg", 4, NcclFeature.AVG_OP),
    /** Not an {@code ncclRedOp_t} constant: created per launch ({@link #ncclCode} is -1). */
    MULSUM("mulsum", -1, NcclFeature.PREMUL_SUM);

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

    /**
     * nccl-tests' PreMulSum scalar of a rank ({@code ncclVerifiablePremulScalar}): 1 on even ranks, 2 on odd.
     */
    public static int preMulScalar(int rank) {
        return rank % 2 == 0 ? 1 : 2;
    }

    /** {@code ncclRedOp_t} value; -1 for {@link #MULSUM}, which is created per launch. */
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
