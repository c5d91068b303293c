package org.ncclharness.calibration.read;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host count a launch line states, for a log whose device list does not show every rank (nccl-tests prints
 * only its own process's devices when each rank is a process of its own, so a 4-host run can list 8 ranks on one
 * host). Read from the flags of the launchers that run nccl-tests: Open MPI's {@code mpirun -np N -N P}
 * ({@code -npernode P}, {@code --map-by ppr:P:node}) and {@code --host a:8,b:8}; MPICH's {@code -ppn P}
 * ({@code -perhost}) and {@code -hosts a,b}; Slurm's {@code -N K} / {@code --nodes=K} and
 * {@code --ntasks-per-node=P}. {@code -N} means processes per node to Open MPI and nodes to Slurm, so the
 * launcher's name decides which.
 *
 * @param hosts  the host count the flags give, null where they do not
 * @param ranks  the rank count: processes ({@code -np}) times the benchmark's GPUs ({@code -g}) and threads
 *               ({@code -t}) per process, null where the line gives no process count
 * @param source the launcher and the flags it came from, for a note
 */
public record LaunchLine(Integer hosts, Integer ranks, String source) {

    private static final Pattern LAUNCHER = Pattern.compile("(?:^|[\\s/;&|(])"
            + "(mpirun|mpiexec(?:\\.hydra)?|orterun|prterun|srun|salloc|sbatch)(?=\\s)");
    private static final Pattern TOKEN = Pattern.compile("\\S+");
    private static final Pattern PPR = Pattern.compile("ppr:(\\d+):node");

    /**
     * The host and rank counts the line's launcher flags state, empty where they state neither (or where it is no
     * launch line).
     */
    public static Optional<LaunchLine> of(String line) {
        Matcher l = LAUNCHER.matcher(line);
        if (!l.find()) {
            return Optional.empty();
        }
        boolean slurm = l.group(1).startsWith("s");
        List<String> t = TOKEN.matcher(line.substring(l.end())).results().map(r -> r.group()).toList();
        Integer ranks = null;
        Integer perNode = null;
        Integer nodes = null;
        Set<String> hostList = new LinkedHashSet<>();
        int perProcess = 1;
        for (int i = 0; i < t.size(); i++) {
            String name = name(t, i);
            String value = value(t, i);
            if (!name.startsWith("-")) {
                if (name.endsWith("_perf") || name.endsWith("_perf_mpi")) {
                    perProcess = perProcess(t.subList(i + 1, t.size()));
                    break; // the benchmark's own flags follow (its -n is iterations)
                }
                continue;
            }
            switch (name) {
                case "-np", "--np", "-n", "--ntasks" -> ranks = count(value).orElse(ranks);
                case "-N" -> {
                    if (slurm) {
                        nodes = count(value).orElse(nodes);
                    } else {
                        perNode = count(value).orElse(perNode);
                    }
                }
                case "--nodes" -> nodes = count(value).orElse(nodes);
                case "-npernode", "--npernode", "-ppn", "-perhost", "--ntasks-per-node" ->
                        perNode = count(value).orElse(perNode);
                case "--map-by", "-map-by" -> {
                    Matcher p = PPR.matcher(value);
                    if (p.find()) {
                        perNode = Integer.valueOf(p.group(1));
                    }
                }
                case "-H", "--host", "-host", "-hosts", "--hosts" -> {
                    for (String h : value.split(",")) {
                        if (!h.isBlank()) {
                            hostList.add(h.replaceFirst(":\\d+$", ""));
                        }
                    }
                }
                default -> { }
            }
        }
        String launcher = l.group(1);
        Integer n = ranks == null ? null : ranks * perProcess;
        String np = ranks == null ? "" : ", " + ranks + " processes" + (perProcess == 1 ? "" : " of " + perProcess
                + " GPUs");
        if (nodes != null) {
            return Optional.of(new LaunchLine(nodes, n, launcher + " --nodes/-N " + nodes + np));
        }
        if (ranks != null && perNode != null && perNode > 0 && ranks % perNode == 0) {
            return Optional.of(new LaunchLine(ranks / perNode, n, launcher + " " + ranks + " ranks, " + perNode
                    + " per node"));
        }
        if (!hostList.isEmpty()) {
            return Optional.of(new LaunchLine(hostList.size(), n, launcher + " hosts " + String.join(",", hostList)
                    + np));
        }
        return n == null ? Optional.empty() : Optional.of(new LaunchLine(null, n, launcher + np.substring(1)));
    }

    /** GPUs per process of the benchmark's flags: {@code -g}/{@code --ngpus} times {@code -t}/{@code --nthreads}. */
    private static int perProcess(List<String> flags) {
        int gpus = 1;
        int threads = 1;
        for (int i = 0; i < flags.size(); i++) {
            String value = value(flags, i);
            switch (name(flags, i)) {
                case "-g", "--ngpus" -> gpus = count(value).orElse(gpus);
                case "-t", "--nthreads" -> threads = count(value).orElse(threads);
                default -> { }
            }
        }
        return gpus * threads;
    }

    /** Token i's flag name: {@code --nodes} of {@code --nodes=4}, or the token itself. */
    private static String name(List<String> t, int i) {
        int eq = t.get(i).indexOf('=');
        return eq > 0 ? t.get(i).substring(0, eq) : t.get(i);
    }

    /** Token i's value: after its {@code =}, else the next token (empty at the end). */
    private static String value(List<String> t, int i) {
        int eq = t.get(i).indexOf('=');
        return eq > 0 ? t.get(i).substring(eq + 1) : i + 1 < t.size() ? t.get(i + 1) : "";
    }

    /** A positive whole count; a range ({@code 2-4}) or a name is none. */
    private static Optional<Integer> count(String v) {
        return v.matches("\\d{1,7}") && Integer.parseInt(v) > 0 ? Optional.of(Integer.valueOf(v)) : Optional.empty();
    }
}
