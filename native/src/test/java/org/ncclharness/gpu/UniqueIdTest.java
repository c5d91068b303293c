package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

class UniqueIdTest {
    @Test
    void roundTripsThroughHexAndRefusesAnotherLength() {
        byte[] b = new byte[128];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 7);
        }
        UniqueId id = new UniqueId(b);
        assertThat(UniqueId.fromHex(id.toHex())).isEqualTo(id);
        b[0] = 1;
        assertThat(id.bytes()[0]).isZero(); // defensive copy
        assertThatThrownBy(() -> new UniqueId(new byte[64])).hasMessageContaining("128 bytes, got 64");
    }

    @Test
    void inPlaceOffsetsFollowNcclTests() {
        SizeSetup ag = SizeSetup.of(Collective.ALL_GATHER, DataType.FLOAT, 1024, 4);
        assertThat(ag.sendBytes()).isEqualTo(256);
        assertThat(ag.sendInPlaceOffset(3)).isEqualTo(768);
        assertThat(ag.recvInPlaceOffset(3)).isZero();
        SizeSetup rs = SizeSetup.of(Collective.REDUCE_SCATTER, DataType.FLOAT, 1024, 4);
        assertThat(rs.recvInPlaceOffset(2)).isEqualTo(512);
        assertThat(rs.strideBytes()).isEqualTo(1024);
        SizeSetup ar = SizeSetup.of(Collective.ALL_REDUCE, DataType.HALF, 1000, 4);
        assertThat(ar.counts().paramCount()).isEqualTo(500);
        assertThat(ar.sendInPlaceOffset(1)).isZero();
    }
}
