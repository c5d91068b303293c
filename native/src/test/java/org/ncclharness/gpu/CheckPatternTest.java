package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CheckPatternTest {
    /** The closed forms agree with reducing the per-rank values one by one. */
    @Test
    void closedFormsEqualTheDirectReduction() {
        for (DataType t : DataType.values()) {
            for (ReduceOp op : ReduceOp.values()) {
                for (int n : new int[] {1, 2, 5, 8}) {
                    CheckPattern p;
                    try {
                        p = new CheckPattern(t, op, n, 7);
                    } catch (IllegalArgumentException tooManyRanks) {
                        continue;
                    }
                    for (long j = 0; j < 200; j++) {
                        double acc = op == ReduceOp.PROD ? 1 : op == ReduceOp.MAX ? Double.NEGATIVE_INFINITY
                                : op == ReduceOp.MIN ? Double.POSITIVE_INFINITY : 0;
                        long iacc = op == ReduceOp.PROD ? 1 : 0;
                        for (int r = 0; r < n; r++) {
                            double v = t.isFloatingPoint() ? t.decode(p.input(r, j)) : t.decodeInteger(p.input(r, j));
                            acc = switch (op) {
                                case SUM, AVG -> acc + v;
                                case MULSUM -> acc + ReduceOp.preMulScalar(r) * v;
                                case PROD -> acc * v;
                                case MAX -> Math.max(acc, v);
                                case MIN -> Math.min(acc, v);
                            };
                            iacc = op == ReduceOp.PROD ? iacc * (long) v
                                    : iacc + (op == ReduceOp.MULSUM ? ReduceOp.preMulScalar(r) : 1) * (long) v;
                        }
                        long want = switch (op) {
                            case AVG -> t.isFloatingPoint() ? t.encode(acc / n) : t.encodeInteger(iacc / n);
                            case SUM, MULSUM -> t.isFloatingPoint() ? t.encode(acc) : t.encodeInteger(iacc);
                            case PROD -> t.isFloatingPoint() ? t.encode(acc) : t.encodeInteger(iacc);
                            default -> t.isFloatingPoint() ? t.encode(acc) : t.encodeInteger((long) acc);
                        };
                        assertThat(p.reduced(j)).as(t + " " + op + " n=" + n + " j=" + j).isEqualTo(want);
                    }
                }
            }
        }
    }

    @Test
    void valuesDifferAcrossIndicesAndRanksSoMisplacedDataIsSeen() {
        CheckPattern p = new CheckPattern(DataType.FLOAT, ReduceOp.SUM, 8, 1);
        assertThat(java.util.stream.LongStream.range(0, 64).map(j -> p.input(0, j)).distinct().count()).isGreaterThan(10);
        assertThat(java.util.stream.IntStream.range(0, 8).mapToLong(r -> p.input(r, 3)).distinct().count()).isEqualTo(8);
    }

    @Test
    void refusesAChecksThatCannotBeExact() {
        assertThatThrownBy(() -> new CheckPattern(DataType.BFLOAT16, ReduceOp.SUM, 257, 0))
                .hasMessage("the data check (-c) of bfloat16 sum cannot be exact over 257 ranks; run with -c 0");
        new CheckPattern(DataType.INT8, ReduceOp.SUM, 4096, 0); // integer sums wrap identically: always exact
    }

    @Test
    void floatAveragesAllowRoundingOfThePremultipliedSum() {
        CheckPattern p = new CheckPattern(DataType.HALF, ReduceOp.AVG, 3, 0);
        long want = DataType.HALF.encode(5.0 / 3);
        assertThat(p.matches(want + 1, want, true)).isTrue();
        assertThat(p.matches(want + 1, want, false)).isFalse();
        assertThat(p.matches(want + 40, want, true)).isFalse();
    }
}
