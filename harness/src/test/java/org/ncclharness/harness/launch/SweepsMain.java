package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.harness.cli.Main;

/**
 * A test program, not part of harness.jar: runs several {@code harness.jar} command lines one after another in one
 * JVM, each through {@link Main#execute(String...)} as {@code Main.main} runs its one, so a test whose subject is
 * what a sweep does with its flags (not the JVM's start) starts one JVM per rank for all of them. The lines are
 * separated by {@link #NEXT}; after each, {@code end of run K: exit N} on stdout and stderr. Exits with the first
 * run's non-zero code, else 0, having run every line (a failed one says which it was and does not hide the rest).
 */
public final class SweepsMain {

    /** The argument that ends one command line and starts the next. */
    static final String NEXT = "--next-run--";

    private SweepsMain() {
    }

    /** The marker that ends run {@code k}'s output, as printed. */
    static String end(int k, int code) {
        return "end of run " + k + ": exit " + code;
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
