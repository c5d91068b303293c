package org.ncclharness.harness.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.harness.cli.Main;

/**
 * A test program, not part of harness.jar: runs several {@code harness.jar} command lines one after another in one
 * JVM, each through {@link Main#execute(String...)} as {@code Main.main} runs its one, so a test whose subject is
 * what a command does (a sweep with its flags, a command's reads of its input), not the JVM's start, starts one JVM
 * (per rank) for all of them. The lines are
 * separated by {@link #NEXT}; after each, {@code end of run K: exit N} on stdout and stderr. Exits with the first
 * run's non-zero code, else 0, having run every line (a failed one says which it was and does not hide the rest).
 * {@link #twoRanks} starts it under mpirun, {@link #part} reads one run's share of the output back.
 */
public final class CommandsMain {

    /** The argument that ends one command line and starts the next. */
    public static final String NEXT = "--next-run--";

    private CommandsMain() {
    }

    /** The marker that ends run {@code k}'s output, as printed. */
    public static String end(int k, int code) {
        return "end of run " + k + ": exit " + code;
    }

    /**
     * The command {@code lines} run one after another by this program on {@code jar}, on two ranks under mpirun;
     * {@code env} from {@link StandIns#environment}. The native libraries are loaded once per process, so only the
     * first line may say {@code --nccl-lib}.
     */
    static Processes.Result twoRanks(Path jar, Map<String, String> env, List<List<String>> lines, Path dir)
            throws Exception {
        List<String> args = new ArrayList<>();
        for (List<String> line : lines) {
            if (!args.isEmpty()) {
                args.add(NEXT);
            }
            args.addAll(line);
        }
        return Processes.runMpirun(Processes.mpirun(2, StandIns.exports(env), Processes.testMain(jar,
                CommandsMain.class, args.toArray(String[]::new))), env, dir, "runs", Processes.HANG_S);
    }

    /** Rank {@code rank}'s standard output of run {@code k} of a {@link #twoRanks} job, with that run's exit. */
    static Processes.Result part(Processes.Result job, int k, int rank) {
        return part(job, k, "[1," + rank + "]<stdout>:");
    }

    /** The standard output of run {@code k} of this program started without a launcher, with that run's exit. */
    static Processes.Result part(Processes.Result job, int k) {
        return part(job, k, "");
    }

    private static Processes.Result part(Processes.Result job, int k, String tag) {
        List<String> mine = job.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length()))
                .toList();
        int start = k == 0 ? 0 : endOf(mine, k - 1) + 1;
        int end = endOf(mine, k);
        if (start == 0 && k > 0 || end < 0) {
            throw new AssertionError(tag + " did not end run " + (start == 0 && k > 0 ? k - 1 : k) + ":\n"
                    + job.out() + job.err());
        }
        int rc = Integer.parseInt(mine.get(end).substring(prefix(k).length()));
        List<String> out = mine.subList(start, end).stream().map(l -> tag + l).toList();
        return new Processes.Result(rc, String.join("\n", out), job.err(), job.seconds());
    }

    private static String prefix(int k) {
        String end = end(k, 0);
        return end.substring(0, end.length() - 1);
    }

    private static int endOf(List<String> lines, int k) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix(k))) {
                return i;
            }
        }
        return -1;
    }

    public static void main(String[] args) {
        List<List<String>> runs = new ArrayList<>(List.of(new ArrayList<>()));
        for (String a : args) {
            if (a.equals(NEXT)) {
                runs.add(new ArrayList<>());
            } else {
                runs.get(runs.size() - 1).add(a);
            }
        }
        int first = 0;
        for (int k = 0; k < runs.size(); k++) {
            int code = Main.execute(runs.get(k).toArray(String[]::new));
            System.out.println(end(k, code));
            System.out.flush();
            System.err.println(end(k, code));
            System.err.flush();
            first = first == 0 ? code : first;
        }
        System.exit(first);
    }
}
