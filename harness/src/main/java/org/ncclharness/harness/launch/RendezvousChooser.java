package org.ncclharness.harness.launch;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * Picks the rendezvous (docs/launch.md, "Rendezvous"), a pure function: {@code --rendezvous} (or
 * {@code HARNESS_RENDEZVOUS}); MASTER_ADDR/MASTER_PORT, +1 under torchrun's agent store, which already owns
 * MASTER_PORT (measured: "Address already in use"); a file named by the job id in TMPDIR when every rank is on
 * this host; the first node of the Slurm step, port derived from the job and step id; otherwise a clear error
 * with the command that fixes it.
 */
public final class RendezvousChooser {

    public static final String ENV = "HARNESS_RENDEZVOUS";

    private RendezvousChooser() {
    }

    public static RendezvousSpec choose(String flag, Map<String, String> env, Place place) {
        if (place.worldSize() == 1) {
            return new RendezvousSpec.None();
        }
        if (flag != null && !flag.isBlank()) {
            return parse(flag, "--rendezvous");
        }
        if (env.containsKey(ENV) && !env.get(ENV).isBlank()) {
            return parse(env.get(ENV), ENV);
        }
        if (env.containsKey("MASTER_ADDR") && env.containsKey("MASTER_PORT")) {
            int port = port(env.get("MASTER_PORT"), "MASTER_PORT");
            if ("true".equalsIgnoreCase(env.getOrDefault("TORCHELASTIC_USE_AGENT_STORE", ""))) {
                return new RendezvousSpec.Tcp(env.get("MASTER_ADDR"), port + 1,
                        "MASTER_ADDR, MASTER_PORT+1: torchrun's agent store holds MASTER_PORT");
            }
            return new RendezvousSpec.Tcp(env.get("MASTER_ADDR"), port, "MASTER_ADDR/MASTER_PORT");
        }
        boolean oneHost = place.localSize() == place.worldSize();
        if (oneHost && !"manual".equals(place.jobId())) {
            String tmp = env.getOrDefault("TMPDIR", "/tmp");
            return new RendezvousSpec.File(Path.of(tmp.isBlank() ? "/tmp" : tmp,
                    "harness-rdzv-" + place.jobId().replaceAll("[^A-Za-z0-9._-]", "_")), true,
                    "all " + place.worldSize() + " ranks on this host, job " + place.jobId());
        }
        if (place.launcher() == Launcher.SLURM || (env.containsKey("SLURM_STEP_ID")
                && env.containsKey("SLURM_STEP_NODELIST"))) {
            String nodes = env.get("SLURM_STEP_NODELIST");
            if (nodes != null && env.containsKey("SLURM_JOB_ID")) {
                String host = SlurmHostlist.first(nodes);
                if (env.containsKey("HARNESS_PORT")) {
                    return new RendezvousSpec.Tcp(host, port(env.get("HARNESS_PORT"), "HARNESS_PORT"),
                            "first node of SLURM_STEP_NODELIST, HARNESS_PORT");
                }
                long job = Long.parseLong(env.get("SLURM_JOB_ID").trim());
                long step = Long.parseLong(env.getOrDefault("SLURM_STEP_ID", "0").trim());
                int port = (int) (20000 + Math.floorMod(job * 16 + step, 20000L));
                return new RendezvousSpec.Tcp(host, port,
                        "first node of SLURM_STEP_NODELIST, port 20000+(job*16+step)%20000; set HARNESS_PORT if taken");
            }
        }
        String why = place.localSize() > 0
                ? "ranks span several hosts (local size " + place.localSize() + " < world size "
                        + place.worldSize() + ")"
                : "the launcher (" + place.launcher().label() + ") does not say whether all " + place.worldSize()
                        + " ranks are on one host";
        throw new HarnessException(ExitCode.USAGE, place.label() + ": " + why + " and no rendezvous is set: pass"
                + " -x MASTER_ADDR=$(hostname -i) -x MASTER_PORT=29600 to mpirun (srun --export=ALL,MASTER_ADDR=...,"
                + "MASTER_PORT=29600), or --rendezvous tcp://HOST:PORT, or --rendezvous file:<path on a shared"
                + " filesystem>");
    }

    static RendezvousSpec parse(String value, String from) {
        String v = value.trim();
        String usage = from + " '" + value + "': expected tcp://HOST:PORT or file:PATH";
        if (v.toLowerCase(Locale.ROOT).startsWith("file:")) {
            String path = v.substring("file:".length());
            if (path.isBlank()) {
                throw new HarnessException(ExitCode.USAGE, usage);
            }
            return new RendezvousSpec.File(Path.of(path), false, from);
        }
        if (v.toLowerCase(Locale.ROOT).startsWith("tcp://")) {
            try {
                URI uri = new URI(v);
                if (uri.getHost() == null || uri.getPort() < 0) {
                    throw new HarnessException(ExitCode.USAGE, usage);
                }
                String host = uri.getHost().startsWith("[")
                        ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
                return new RendezvousSpec.Tcp(host, port(Integer.toString(uri.getPort()), from), from);
            } catch (URISyntaxException e) {
                throw new HarnessException(ExitCode.USAGE, usage);
            }
        }
        throw new HarnessException(ExitCode.USAGE, usage);
    }

    private static int port(String value, String name) {
        try {
            int p = Integer.parseInt(value.trim());
            if (p >= 1 && p <= 65534) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new HarnessException(ExitCode.USAGE, name + "=" + value + ": expected a TCP port, 1..65534");
    }
}
