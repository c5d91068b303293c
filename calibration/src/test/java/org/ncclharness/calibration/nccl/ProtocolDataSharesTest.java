package org.ncclharness.calibration.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolDataSharesTest {

    @Test
    void theBundledSharesAreTheLineFormatsOwn() {
        ProtocolDataShares s = ProtocolDataShares.bundled();
        // LL: two 4-byte data words and two 4-byte flags per 16-byte line; LL128: 15 of 16 8-byte words
        assertThat(s.of(Protocol.LL)).isEqualTo(8.0 / 16);
        assertThat(s.of(Protocol.LL128)).isEqualTo(15.0 / 16);
        assertThat(s.of(Protocol.SIMPLE)).isEqualTo(1.0);
        assertThat(s.protocols()).allSatisfy(p -> assertThat(p.source()).contains("NCCL src/"));
    }

    @Test
    void aFileWithoutEveryProtocolIsRefused() {
        assertThatThrownBy(() -> new ProtocolDataShares("", List.of(new ProtocolDataShares.Share("LL", 0.5, ""))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("LL128");
    }
}
