package org.ncclharness.calibration.resolve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.resolve.RunResolver.UnstatedHosts;

/** The one resolution of a run's facts, on real logs and bundled runs. */
class RunResolverTest {

    private static final Path REAL = Path.of("src/test/resources/logs/real");
    private static final Path NCCLINFO = Path.of("src/test/resources/logs/ncclinfo");
    private final RunResolver resolver = RunResolver.bundled();

    private static RunDocument log(Path dir, String name) {
        return Inputs.document(dir.resolve(name + ".txt").toString(), null);
    }

    private ResolvedRun only(RunDocument doc, Hints hints, UnstatedHosts unstated) {
        List<ResolvedRun> runs = resolver.resolve(doc, hints, unstated);
        assertThat(runs).hasSize(1);
        return runs.get(0);
    }

    @Test
    void aNetworkTheLogsNcclLinesNameIsTheNetworkBetweenHostsAndTheGpuNameTheFabricInside() {
        // aws-ofi-nccl's 'Selected Provider is efa' on a 2 x 8 A100 p4d job
        ResolvedRun run = only(log(REAL, "prefix_mpitag_eks_efa_p4d_interleaved_errorcol"), Hints.NONE,
                UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware()).isEqualTo(new Hardware("A100-SXM4-40GB", 16, 2, 8, 2, "NVLink3", "EFA"));
        assertThat(run.complete()).isTrue();
        assertThat(run.notes()).singleElement().isInstanceOfSatisfying(ResolveNote.NetworkBetweenHosts.class,
                n -> assertThat(n.network().fromLog()).isTrue());
    }

    @Test
    void aStatedInterconnectWinsOverTheLogsAndSaysWhichItOverrode() {
        ResolvedRun run = only(log(REAL, "prefix_mpitag_eks_efa_p4d_interleaved_errorcol"),
                new Hints(null, null, "IB-HDR", null, null, null, Nics.UNKNOWN), UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware().inter()).isEqualTo("IB-HDR");
        assertThat(run.notes()).hasSize(2).last().isInstanceOfSatisfying(ResolveNote.LogNetworkOverridden.class,
                o -> assertThat(o.log().interconnect()).isEqualTo("EFA"));
    }

    @Test
    void acrossHostsWithoutANamedNetworkNoTierIsTakenAndTheNetworkIsMissingWithTheNicsTheLogLists() {
        // nccl-tests#319: 2 x 8 H100 over 8 IB HCAs whose speed NCCL 2.26's lines do not print
        ResolvedRun run = only(log(NCCLINFO, "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319"), Hints.NONE,
                UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware().intra()).isNull();
        assertThat(run.hardware().inter()).isNull();
        assertThat(run.missing()).singleElement().isInstanceOfSatisfying(Missing.Network.class, n -> {
            assertThat(n.intra()).isEqualTo("NVLink4");
            assertThat(n.nicDevices()).hasSize(8);
        });
        assertThat(run.nics().perHost()).as("NCCL's NET/IB lines give the count, not the speed").isEqualTo(8);
    }

    @Test
    void oneHostTakesItsGpuNamesFabricAndSaysSo() {
        ResolvedRun run = only(log(REAL, "old_dgx2_v100_all_gather"), Hints.NONE, UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware().intra()).isEqualTo("NVLink2-Switch");
        assertThat(run.notes()).singleElement().isInstanceOf(ResolveNote.FabricFromGpuName.class);
    }

    @Test
    void aNetworkStatedForOneHostLeavesItTheGpuNamesFabric() {
        ResolvedRun run = only(log(REAL, "old_dgx2_v100_all_gather"),
                new Hints(null, null, "IB-NDR", null, null, null, Nics.UNKNOWN), UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware().intra()).isEqualTo("NVLink2-Switch");
        assertThat(run.notes()).singleElement().isInstanceOf(ResolveNote.NetworkOnOneHost.class);
    }

    @Test
    void unstatedHostsAreAssumedOneOnlyWhereTheCommandSaysSoAndNothingNamesANetwork() {
        String text = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n"
                + "     1048576        262144     float     sum      -1    30.00   34.95   61.17      0    30.00"
                + "   34.95   61.17      0\n";
        RunDocument doc = Inputs.parseDocument("rows.txt", text, null);
        Hints eight = new Hints(8, null, null, null, null, null, Nics.UNKNOWN);
        assertThat(only(doc, eight, UnstatedHosts.ASSUME_ONE).notes()).singleElement()
                .isInstanceOf(ResolveNote.HostsAssumedOne.class);
        assertThat(only(doc, eight, UnstatedHosts.LEAVE_UNKNOWN).missing()).first()
                .isInstanceOfSatisfying(Missing.HostCount.class,
                        h -> assertThat(h.why()).isEqualTo(Missing.HostCount.Why.UNSTATED));
        Hints network = new Hints(8, null, "IB-NDR", null, null, null, Nics.UNKNOWN);
        assertThat(only(doc, network, UnstatedHosts.ASSUME_ONE).missing()).first()
                .isInstanceOfSatisfying(Missing.HostCount.class,
                        h -> assertThat(h.why()).isEqualTo(Missing.HostCount.Why.NETWORK_NAMED));
    }

    @Test
    void aHintNeverOverridesACountTheInputStates() {
        RunDocument doc = log(REAL, "prefix_mpitag_eks_efa_p4d_interleaved_errorcol");
        assertThatThrownBy(() -> resolver.resolve(doc, new Hints(8, null, null, null, null, null, Nics.UNKNOWN),
                UnstatedHosts.LEAVE_UNKNOWN)).isInstanceOfSatisfying(ResolveException.class,
                e -> assertThat(e.contradiction()).isEqualTo(new Contradiction.CountsDiffer(Setting.GPU_COUNT, 16, 8)));
        assertThatThrownBy(() -> resolver.resolve(doc, new Hints(null, null, null, "NVLink3", "EFA", 6, Nics.UNKNOWN),
                UnstatedHosts.LEAVE_UNKNOWN)).isInstanceOfSatisfying(ResolveException.class,
                e -> assertThat(e.contradiction()).isEqualTo(new Contradiction.UnevenDomains(16, 6)));
    }

    @Test
    void aBundledRunKeepsWhatItsMetadataStatesItsNicsAndItsForcedAlgorithm() {
        RunDocument doc = DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce").document();
        ResolvedRun run = only(doc, Hints.NONE, UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware()).isEqualTo(DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce")
                .hardware());
        assertThat(run.nics().perHost()).isEqualTo(16);
        assertThat(run.notes()).isEmpty();
        // a flag that says what the metadata says is no contradiction; one that says otherwise is, as a count is
        ResolvedRun same = only(doc, nicHint(new Nics(16, null)), UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(same.nics()).isEqualTo(run.nics());
        assertThatThrownBy(() -> resolver.resolve(doc, nicHint(new Nics(4, null)), UnstatedHosts.LEAVE_UNKNOWN))
                .isInstanceOfSatisfying(ResolveException.class, e -> assertThat(e.contradiction())
                        .isEqualTo(new Contradiction.CountsDiffer(Setting.NICS_PER_HOST, 16, 4)));
        assertThatThrownBy(() -> resolver.resolve(doc, nicHint(Nics.ofGbps(null, 400.0)),
                UnstatedHosts.LEAVE_UNKNOWN)).isInstanceOfSatisfying(ResolveException.class,
                e -> assertThat(e.contradiction())
                        .isEqualTo(new Contradiction.RatesDiffer(Setting.NIC_SPEED, 12.5, 50)));
    }

    @Test
    void theNicFlagsFillWhatABundledRunsMetadataLeavesOpen() {
        // AWS p5 on EKS: the source states neither the EFA NIC count nor their speed
        RunDocument doc = DatasetCatalog.bundled().get("h100_allreduce_16gpu_2node_aws_p5_efa_eks").document();
        assertThat(only(doc, Hints.NONE, UnstatedHosts.LEAVE_UNKNOWN).nics()).isEqualTo(Nics.UNKNOWN);
        assertThat(only(doc, nicHint(Nics.ofGbps(32, 100.0)), UnstatedHosts.LEAVE_UNKNOWN).nics())
                .isEqualTo(new Nics(32, 12.5));
    }

    private static Hints nicHint(Nics nics) {
        return new Hints(null, null, null, null, null, null, nics);
    }

    @Test
    void aDeviceListOfSomeRanksIsNoGpuCount() {
        // a public excerpt of a 1440-GPU run keeps the device line of rank 1439 only
        RunDocument doc = Inputs.document("../datasets/raw/gb200_allreduce_1440gpu_20rack_coreweave.txt", null);
        ResolvedRun run = only(doc, Hints.NONE, UnstatedHosts.LEAVE_UNKNOWN);
        assertThat(run.hardware().ranks()).isNull();
        assertThat(run.missing()).first().isInstanceOf(Missing.GpuCount.class);
    }
}
