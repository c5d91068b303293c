package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Severity;

class PeerComparisonTest {

    private static final CheckRules RULES = CheckRules.defaults();

    @Test
    void aHostFarBelowTheMedianOfItsPeersFailsByNameAndOneJustBelowWarns() {
        List<Finding> f = PeerComparison.compare("busbw at 1 GiB", List.of(new PeerComparison.Peer("node1", 360),
                new PeerComparison.Peer("node2", 355), new PeerComparison.Peer("node3", 120),
                new PeerComparison.Peer("node4", 300), new PeerComparison.Peer("node5", 362)), RULES);
        assertThat(f).extracting(Finding::severity).containsExactly(Severity.FAIL, Severity.WARN);
        assertThat(f.get(0).message()).startsWith("node3: busbw at 1 GiB 120.00 GB/s is 34 % of the median of 5"
                + " (355.00 GB/s); FAIL below 75 %");
        assertThat(f.get(1).message()).startsWith("node4:").contains("85 %").contains("WARN below 90 %");
    }

    @Test
    void healthyPeersAndTooFewPeersFindNothing() {
        assertThat(PeerComparison.compare("busbw", List.of(new PeerComparison.Peer("a", 100),
                new PeerComparison.Peer("b", 95), new PeerComparison.Peer("c", 98)), RULES)).isEmpty();
        assertThat(PeerComparison.compare("busbw", List.of(new PeerComparison.Peer("a", 100)), RULES)).isEmpty();
        assertThat(PeerComparison.compare("busbw", List.of(new PeerComparison.Peer("a", 100),
                new PeerComparison.Peer("b", Double.NaN)), RULES)).isEmpty();
    }

    @Test
    void ofTwoTheSlowerIsComparedWithTheFaster() {
        List<Finding> f = PeerComparison.compare("busbw", List.of(new PeerComparison.Peer("a", 100),
                new PeerComparison.Peer("b", 50)), RULES);
        assertThat(f).singleElement().satisfies(x -> assertThat(x.message()).startsWith("b:")
                .contains("50 % of the faster of 2"));
    }
}
