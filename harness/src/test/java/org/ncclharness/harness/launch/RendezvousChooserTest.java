package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RendezvousChooserTest {

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Place place(int rank, int size, int localSize, String job) {
        return new Place(Launcher.OPENMPI, rank, size, 0, localSize, job, true, "", List.of());
    }

    @Test
    void singleProcessNeedsNone() {
        assertThat(RendezvousChooser.choose("tcp://h:1", env(), place(0, 1, 1, "j")))
                .isInstanceOf(RendezvousSpec.None.class);
    }

    @Test
    void theFlagWinsThenTheEnvironmentVariable() {
        Map<String, String> e = env("MASTER_ADDR", "m", "MASTER_PORT", "29500", "HARNESS_RENDEZVOUS",
                "file:/shared/rdzv");
        assertThat(RendezvousChooser.choose("tcp://node01:29600", e, place(0, 4, 4, "j")))
                .isEqualTo(new RendezvousSpec.Tcp("node01", 29600, "--rendezvous"));
        assertThat(RendezvousChooser.choose(null, e, place(0, 4, 4, "j")))
                .isEqualTo(new RendezvousSpec.File(Path.of("/shared/rdzv"), false, "HARNESS_RENDEZVOUS"));
        assertThat(RendezvousChooser.choose("tcp://[::1]:29600", e, place(0, 4, 4, "j")))
                .isEqualTo(new RendezvousSpec.Tcp("::1", 29600, "--rendezvous"));
    }

    @Test
    void malformedRendezvousSaysWhatIsExpected() {
        for (String bad : List.of("node01:29600", "tcp://node01", "file:", "tcp://node01:99999")) {
            assertThatThrownBy(() -> RendezvousChooser.choose(bad, env(), place(0, 2, 2, "j")))
                    .hasMessageContaining(bad.equals("tcp://node01:99999") ? "expected a TCP port"
                            : "expected tcp://HOST:PORT or file:PATH");
        }
    }

    @Test
    void masterAddrAndPortPlusOneUnderTorchrunsAgentStore() {
        assertThat(RendezvousChooser.choose(null, env("MASTER_ADDR", "10.0.0.1", "MASTER_PORT", "29500"),
                place(1, 4, 4, "j"))).isEqualTo(new RendezvousSpec.Tcp("10.0.0.1", 29500,
                        "MASTER_ADDR/MASTER_PORT"));
        RendezvousSpec torch = RendezvousChooser.choose(null, env("MASTER_ADDR", "127.0.0.1", "MASTER_PORT",
                "29500", "TORCHELASTIC_USE_AGENT_STORE", "True"), place(1, 4, 4, "j"));
        assertThat(((RendezvousSpec.Tcp) torch).port()).isEqualTo(29501);
    }

    @Test
    void oneHostUsesAFileInTmpdirNamedByTheJob() {
        assertThat(RendezvousChooser.choose(null, env("TMPDIR", "/scratch"), place(2, 4, 4, "ompi-7/4")))
                .isEqualTo(new RendezvousSpec.File(Path.of("/scratch/harness-rdzv-ompi-7_4"), true,
                        "all 4 ranks on this host, job ompi-7/4"));
        assertThat(((RendezvousSpec.File) RendezvousChooser.choose(null, env(), place(2, 4, 4, "j"))).path())
                .isEqualTo(Path.of("/tmp/harness-rdzv-j"));
    }

    @Test
    void slurmAcrossNodesUsesTheFirstNodeOfTheStep() {
        Map<String, String> e = env("SLURM_STEP_ID", "2", "SLURM_JOB_ID", "117", "SLURM_STEP_NODELIST",
                "gpu[007-010,012],login1");
        Place p = new Place(Launcher.SLURM, 3, 8, 1, 2, "slurm-117.2", true, "", List.of());
        RendezvousSpec.Tcp t = (RendezvousSpec.Tcp) RendezvousChooser.choose(null, e, p);
        assertThat(t.host()).isEqualTo("gpu007");
        assertThat(t.port()).isEqualTo(20000 + (117 * 16 + 2) % 20000);
        e.put("HARNESS_PORT", "31000");
        assertThat(((RendezvousSpec.Tcp) RendezvousChooser.choose(null, e, p)).port()).isEqualTo(31000);
    }

    @Test
    void severalHostsWithoutARendezvousStopWithTheFix() {
        assertThatThrownBy(() -> RendezvousChooser.choose(null, env(), place(3, 4, 2, "ompi-1")))
                .hasMessageStartingWith("rank 3/4: ranks span several hosts (local size 2 < world size 4) and no"
                        + " rendezvous is set: pass -x MASTER_ADDR=$(hostname -i) -x MASTER_PORT=29600 to mpirun")
                .hasMessageContaining("--rendezvous file:<path on a shared filesystem>");
        Place manual = new Place(Launcher.FLAGS, 1, 2, -1, -1, "manual", false, "", List.of());
        assertThatThrownBy(() -> RendezvousChooser.choose(null, env(), manual))
                .hasMessageContaining("does not say whether all 2 ranks are on one host");
    }

    @Test
    void slurmHostlists() {
        assertThat(SlurmHostlist.first("node01")).isEqualTo("node01");
        assertThat(SlurmHostlist.first("a,b")).isEqualTo("a");
        assertThat(SlurmHostlist.first("node[01-04]")).isEqualTo("node01");
        assertThat(SlurmHostlist.first("login1,node[3-4]")).isEqualTo("login1");
        assertThat(SlurmHostlist.first("rack[5,7]-gpu")).isEqualTo("rack5-gpu");
        assertThatThrownBy(() -> SlurmHostlist.first("node[x-y]")).hasMessageContaining("Slurm hostlist");
    }
}
