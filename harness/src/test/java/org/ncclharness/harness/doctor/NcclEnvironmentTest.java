package org.ncclharness.harness.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The NCCL_* settings doctor warns about, the causes diagnose names when a log shows the slow path. */
class NcclEnvironmentTest {

    @Test
    void settingsThatSwitchAFastPathOffAreWarningsWithTheirFix() {
        assertThat(NcclEnvironment.warnings(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_IB_DISABLE", "1",
                "NCCL_SOCKET_IFNAME", "lo", "NCCL_NET_GDR_LEVEL", "LOC", "NCCL_ALGO", "Ring")))
                .allMatch(Problem::warning).extracting(Problem::what)
                .anyMatch(w -> w.startsWith("NCCL_P2P_DISABLE=1: P2P"))
                .anyMatch(w -> w.startsWith("NCCL_IB_DISABLE=1: InfiniBand/RoCE is off"))
                .anyMatch(w -> w.contains("names lo, a loopback interface"))
                .anyMatch(w -> w.startsWith("NCCL_NET_GDR_LEVEL=LOC turns GPUDirect RDMA off"))
                .anyMatch(w -> w.startsWith("NCCL_ALGO=Ring forces NCCL's choice"));
    }

    @Test
    void healthySettingsAndExclusionsSayNothing() {
        assertThat(NcclEnvironment.warnings(Map.of("NCCL_SOCKET_IFNAME", "^docker,lo", "NCCL_P2P_DISABLE", "0",
                "NCCL_IB_HCA", "mlx5_0,mlx5_1", "NCCL_DEBUG", "INFO"))).isEmpty();
        assertThat(NcclEnvironment.warnings(Map.of("NCCL_SOCKET_IFNAME", "eth0,ib0"))).isEmpty();
    }
}
