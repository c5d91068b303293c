package org.ncclharness.calibration.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NicsTest {

    private static final HardwareFacts FACTS = HardwareFacts.bundled();

    @Test
    void aStatedRateWinsOverTheFabricsFigureAndANetworkWithNoFigureHasOnlyTheStatedOne() {
        Interconnect ndr = FACTS.interconnect("IB-NDR").orElseThrow();
        Interconnect efa = FACTS.interconnect("EFA").orElseThrow();
        assertThat(Nics.UNKNOWN.rateGBps(ndr)).isEqualTo(50.0);
        assertThat(Nics.UNKNOWN.rateGBps(efa)).isNull();
        assertThat(Nics.UNKNOWN.rateGBps(null)).isNull();
        // NDR200 ports: the user knows better than the fabric's usual 400 Gb/s
        assertThat(Nics.ofGbps(8, 200.0).rateGBps(ndr)).isEqualTo(25.0);
        assertThat(Nics.ofGbps(32, 100.0).rateGBps(efa)).isEqualTo(12.5);
        assertThat(new Nics(null, 12.5).rateGBps(null)).isEqualTo(12.5);
    }

    @Test
    void eachPartNotStatedComesFromTheNextSource() {
        Nics flags = new Nics(4, null);
        Nics metadata = Nics.ofGbps(32, 100.0);
        assertThat(flags.orElse(metadata)).isEqualTo(new Nics(4, 12.5));
        assertThat(Nics.UNKNOWN.orElse(metadata)).isEqualTo(metadata);
        assertThat(metadata.orElse(flags)).isEqualTo(metadata);
    }

    @Test
    void aCountBelowOneOrARateNotAboveZeroIsRefused() {
        assertThatThrownBy(() -> new Nics(0, null)).hasMessageContaining("at least 1, got 0");
        assertThatThrownBy(() -> new Nics(null, 0.0)).hasMessageContaining("above 0");
        assertThatThrownBy(() -> new Nics(null, Double.NaN)).hasMessageContaining("above 0");
    }
}
