package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.hardware.HardwareFacts;

class LogNetworkTest {

    private static final HardwareFacts FACTS = HardwareFacts.bundled();

    private static List<String> real(String path) throws IOException {
        return Files.readAllLines(Path.of("src/test/resources/logs/" + path));
    }

    @Test
    void awsOfiNcclsProviderAndNcclsSocketsNameTheNetwork() throws IOException {
        // AWS DLAMI p3dn, 2 hosts: aws-ofi-nccl chose the efa provider
        assertThat(LogNetwork.of(real("real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt"), FACTS))
                .hasValueSatisfying(n -> {
                    assertThat(n.interconnect()).isEqualTo("EFA");
                    assertThat(n.evidence()).isEqualTo("NET/OFI Selected Provider is efa");
                });
        // NCCL 2.27 on sockets
        assertThat(LogNetwork.of(real("ncclinfo/socket_shm_2gpu_workstation_nccl2275.txt"), FACTS))
                .hasValueSatisfying(n -> assertThat(n.interconnect()).isEqualTo("TCP"));
        // HPE Slingshot through aws-ofi-nccl's cxi provider; NCCL 2.3's sockets line
        assertThat(LogNetwork.of(List.of("nid001:1:1 [0] NCCL INFO NET/OFI Selected Provider is cxi (found 4 nics)"), FACTS))
                .hasValueSatisfying(n -> assertThat(n.interconnect()).isEqualTo("Slingshot11"));
        assertThat(LogNetwork.of(List.of("h:1:1 [0] NCCL INFO Using internal Network Socket"), FACTS))
                .hasValueSatisfying(n -> assertThat(n.interconnect()).isEqualTo("TCP"));
    }

    /**
     * NCCL from about 2.20 states each NIC's speed: used for IB, it names the fabric of that line rate (the DGX
     * Spark notes' RoCE port at 200000 Mb/s; an IB port at 400000); probed but not used (NCCL fell back to
     * sockets), it names nothing.
     */
    @Test
    void aNicThatStatesItsSpeedNamesTheNetworkWhereNcclUsedIt() {
        assertThat(LogNetwork.of(List.of("spark-4440:24302:24302 [0] NCCL INFO NET/IB: [1] rocep1s0f1:uverbs1:1/RoCE"
                + " provider=Mlx5 speed=200000 context=0xc53b90db27f0 ar=0",
                "spark-4440:24302:24302 [0] NCCL INFO Using network IB"), FACTS)).map(LogNetwork.Named::interconnect)
                .hasValue("RoCE-200G");
        assertThat(LogNetwork.of(List.of("NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000",
                "NCCL INFO Using network IB"), FACTS)).map(LogNetwork.Named::interconnect).hasValue("IB-NDR");
        assertThat(LogNetwork.of(List.of("NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000",
                "h:1:1 [0] NCCL INFO Using network Socket"), FACTS)).map(LogNetwork.Named::interconnect)
                .hasValue("TCP");
        // no fabric of that rate (EDR, 100 Gb/s IB): nothing named
        assertThat(LogNetwork.of(List.of("NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=100000",
                "NCCL INFO Using network IB"), FACTS)).isEmpty();
    }

    @Test
    void infinibandLinesDoNotNameASpeedSoNothingIsTaken() throws IOException {
        assertThat(LogNetwork.of(List.of("h:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB"
                + " eth0:10.0.0.1<0>", "h:1:1 [0] NCCL INFO Using network IB"), FACTS)).isEmpty();
        assertThat(LogNetwork.of(List.of("NET/OFI Selected Provider is tcp"), FACTS)).isEmpty();
    }

    @Test
    void aJobsEnvironmentNamesTheNetworkWhereNcclPrintsNothing() {
        // the Alps series' Slurm shell trace (datasets/raw/gh200_*_alps_tunedcxi.txt), NCCL_DEBUG unset
        List<String> alps = List.of("+ export MPICH_GPU_SUPPORT_ENABLED=0", "+ export FI_CXI_DEFAULT_CQ_SIZE=131072",
                "+ export 'NCCL_NET=AWS Libfabric'");
        assertThat(LogNetwork.of(alps, FACTS)).hasValueSatisfying(n -> {
            assertThat(n.interconnect()).isEqualTo("Slingshot11");
            assertThat(n.evidence()).isEqualTo("FI_CXI_DEFAULT_CQ_SIZE=131072");
            assertThat(n.where()).isEqualTo("the job's environment in the log");
        });
        assertThat(LogNetwork.of(List.of("export FI_PROVIDER='efa'"), FACTS)).map(LogNetwork.Named::interconnect)
                .hasValue("EFA");
        // NCCL's own line outranks what the environment configured, wherever it stands
        assertThat(LogNetwork.of(List.of("FI_PROVIDER=cxi", "h:1:1 [0] NCCL INFO NET/OFI Selected Provider is efa"), FACTS))
                .map(LogNetwork.Named::interconnect).hasValue("EFA");
        // a path or a word that merely contains the name, and other providers, say nothing
        assertThat(LogNetwork.of(List.of("directory results/FI_CXI_DEFAULT_CQ_SIZE_131072_nccl-tests/",
                "FI_PROVIDER=tcp", "MY_FI_CXI_X=1"), FACTS)).isEmpty();
    }
}
