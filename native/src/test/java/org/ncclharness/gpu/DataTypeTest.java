package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DataTypeTest {
    @Test
    void encodesKnownBitPatterns() {
        assertThat(DataType.HALF.encode(1.0)).isEqualTo(0x3C00);
        assertThat(DataType.HALF.encode(-2.0)).isEqualTo(0xC000);
        assertThat(DataType.HALF.encode(65504.0)).isEqualTo(0x7BFF);
        assertThat(DataType.HALF.encode(1e6)).isEqualTo(0x7C00); // overflow → +Inf
        assertThat(DataType.HALF.encode(Math.scalb(1.0, -24))).isEqualTo(0x0001); // smallest subnormal
        assertThat(DataType.BFLOAT16.encode(1.0)).isEqualTo(0x3F80);
        assertThat(DataType.BFLOAT16.encode(257.0)).isEqualTo(DataType.BFLOAT16.encode(256.0)); // ties to even
        assertThat(DataType.F8E4M3.encode(448.0)).isEqualTo(0x7E);
        assertThat(DataType.F8E4M3.encode(1.0)).isEqualTo(0x38);
        assertThat(DataType.F8E5M2.encode(1.0)).isEqualTo(0x3C);
        assertThat(DataType.INT8.encodeInteger(-1)).isEqualTo(0xFF);
        assertThat(DataType.INT8.encodeInteger(128)).isEqualTo(0x80); // wraps like the GPU
        assertThat(DataType.INT8.decodeInteger(0x80)).isEqualTo(-128);
        assertThat(DataType.FLOAT.encode(1.0)).isEqualTo(0x3F80_0000L);
    }

    @Property
    void everyExactIntegerRoundTrips(@ForAll @IntRange(min = 0, max = 2048) int v) {
        for (DataType t : DataType.values()) {
            if (v <= t.exactIntegerLimit()) {
                assertThat(t.decode(t.encodeInteger(v))).as(t.name()).isEqualTo(v);
            }
        }
    }

    @Test
    void namesFollowNcclTests() {
        assertThat(DataType.byName("float")).contains(DataType.FLOAT);
        assertThat(DataType.byName("bf16")).contains(DataType.BFLOAT16);
        assertThat(DataType.byName("f8e5m2")).contains(DataType.F8E5M2);
        assertThat(DataType.byName("quad")).isEmpty();
        assertThat(ReduceOp.byName("avg")).contains(ReduceOp.AVG);
        assertThat(ReduceOp.byName("mulsum")).contains(ReduceOp.MULSUM);
        assertThat(ReduceOp.byName("premulsum")).isEmpty(); // NCCL's name; nccl-tests' -o says mulsum
    }
}
