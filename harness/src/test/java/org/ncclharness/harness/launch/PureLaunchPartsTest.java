package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Host ids, local ranks from host ids, GPU choice and the duplicate-GPU refusal. */
class PureLaunchPartsTest {

    private static Member m(int rank, String hostId, int localRank, int localSize, String... gpus) {
        return new Member(rank, "h-" + hostId, hostId, 100 + rank, localRank, localSize, 8, List.of(gpus));
    }

    @Test
    void hostIdIsHostNamePlusBootIdUnlessOverridden() {
        HostId d = HostId.resolve(null, Map.of(), "node07.cluster", Optional.of("b00t\n"));
        assertThat(d).isEqualTo(new HostId("node07b00t", "host name + boot id", false));
        assertThat(d.ncclEnvironment()).isEmpty();
        assertThat(HostId.resolve(null, Map.of(), "node07", Optional.empty()).value()).isEqualTo("node07");
        HostId env = HostId.resolve(null, Map.of("HARNESS_HOST_ID", "c1", "NCCL_HOSTID", "n"), "x",
                Optional.of("b"));
        assertThat(env).isEqualTo(new HostId("c1", "HARNESS_HOST_ID", true));
        assertThat(env.ncclEnvironment()).isEqualTo(Map.of("NCCL_HOSTID", "c1"));
        assertThat(HostId.resolve("flag", Map.of("HARNESS_HOST_ID", "c1"), "x", Optional.empty()).value())
                .isEqualTo("flag");
        assertThat(HostId.resolve(null, Map.of("NCCL_HOSTID", "n"), "x", Optional.empty()).source())
                .isEqualTo("NCCL_HOSTID");
    }

    @Test
    void theLaunchSessionIsTheSixthStatFieldEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
        assertThat(LaunchSession.parseStat("4242 (java) S 4200 4242 4100 34816 4242 4194560 1 0")).contains(4100L);
        assertThat(LaunchSession.parseStat("77 (a b) c) R 1 77 55 0 -1")).contains(55L);
        assertThat(LaunchSession.parseStat("garbage")).isEmpty();
        assertThat(LaunchSession.parseStat("1 (x) S 2")).isEmpty();
        assertThat(LaunchSession.current()).matches("session \\d+");
    }

    @Test
    void onlyAJobNobodyNamedCarriesItsLaunchSession() {
        RendezvousSpec tcp = new RendezvousSpec.Tcp("127.0.0.1", 29600, "test");
        Place byHand = new Place(Launcher.TORCHRUN, 1, 2, -1, -1, "env-127.0.0.1:29600", true, "test", List.of());
        Place named = new Place(Launcher.TORCHRUN, 1, 2, -1, -1, "job-mine", true, "test", List.of());
        Place flags = new Place(Launcher.FLAGS, 1, 2, -1, -1, "manual", false, "test", List.of());
        assertThat(JobIdentity.of(byHand, tcp, "1", "h", "session 7").launchSession()).isEqualTo("session 7");
        assertThat(JobIdentity.of(flags, tcp, "1", "h", "session 7"))
                .isEqualTo(new JobIdentity("tcp://127.0.0.1:29600", "1", "h", "session 7"));
        assertThat(JobIdentity.of(named, tcp, "1", "h", "session 7"))
                .isEqualTo(new JobIdentity("job-mine", "1", "h", ""));
    }

    @Test
    void localRanksAreCountedPerHostIdInRankOrder() {
        List<Member> declared = List.of(m(0, "a", 0, 2), m(1, "b", 0, 2), m(2, "a", 1, 2), m(3, "b", -1, -1));
        List<Member> r = LocalRanks.recompute(declared);
        assertThat(r).extracting(Member::localRank).containsExactly(0, 0, 1, 1);
        assertThat(r).extracting(Member::localSize).containsExactly(2, 2, 2, 2);
        assertThat(LocalRanks.mismatch(declared, r)).isEmpty();
    }

    @Test
    void launcherLocalRanksThatHostIdsContradictAreRefused() {
        // Two containers sharing a boot id: the launcher says two hosts, the host ids say one.
        List<Member> declared = List.of(m(0, "a", 0, 1), m(1, "a", 0, 1));
        Optional<String> bad = LocalRanks.mismatch(declared, LocalRanks.recompute(declared));
        assertThat(bad).get().asString()
                .startsWith("local ranks from the launcher disagree with host ids: rank 0 (host=h-a, pid=100) is"
                        + " local 0/1 by the launcher but 0/2 by host id 'a'")
                .contains("rank 1 (host=h-a, pid=101) is local 0/1 by the launcher but 1/2")
                .contains("distinct --host-id or HARNESS_HOST_ID");
    }

    @Property
    void deviceIsLocalRankModuloVisible(@ForAll @IntRange(min = 0, max = 512) int local,
            @ForAll @IntRange(min = 1, max = 16) int visible) {
        int d = DeviceChoice.device(local, visible);
        assertThat(d).isBetween(0, visible - 1);
        assertThat(d).isEqualTo(local % visible);
    }

    @Test
    void noVisibleDeviceIsNoDevice() {
        assertThat(DeviceChoice.device(3, 0)).isEqualTo(-1);
        assertThat(DeviceChoice.duplicates(LocalRanks.recompute(List.of(m(0, "a", 0, 2), m(1, "a", 1, 2)))))
                .isEmpty();
    }

    @Test
    void oneGpuPerTaskAndAllGpusVisibleAreBothFine() {
        // srun --gpus-per-task=1: each rank sees only its own GPU, as device 0
        List<Member> perTask = LocalRanks.recompute(List.of(m(0, "a", 0, 2, "0000:3b:00.0"),
                m(1, "a", 1, 2, "0000:5e:00.0")));
        assertThat(DeviceChoice.duplicates(perTask)).isEmpty();
        List<Member> all = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
            all.add(m(r, "a", r, 8, "b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7"));
        }
        assertThat(DeviceChoice.duplicates(LocalRanks.recompute(all))).isEmpty();
    }

    @Test
    void twoRanksOnOneGpuAreRefusedNamingThem() {
        // two ranks on a host with one visible GPU (the one-H200 machine), and a second host that is fine
        List<Member> ms = LocalRanks.recompute(List.of(m(0, "a", 0, 2, "0000:19:00.0"),
                m(1, "a", 1, 2, "0000:19:00.0"), m(2, "b", 0, 1, "0000:19:00.0")));
        DeviceChoice.Clash c = DeviceChoice.duplicates(ms).orElseThrow();
        assertThat(c.what()).isEqualTo("two or more ranks would drive one GPU (device = local rank % visible GPUs):"
                + " ranks [0, 1] on host h-a all map to GPU 0000:19:00.0");
        assertThat(c.message()).isEqualTo(c.what() + ": start at most as many ranks per host as it has GPUs"
                + " (mpirun -npernode N, srun --gpus-per-task=1)");
    }
}
