package org.ncclharness.calibration.read;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a log with every launcher label in front of it taken off, in any order and any number: each
 * tool that relays a rank's output adds its own (a Ray/SkyPilot worker inside a pod read with
 * {@code kubectl logs --prefix --timestamps} carries three).
 *
 * @param number 1-based line number in the file
 * @param text   the line without its labels
 */
record LogLine(int number, String text) {

    /**
     * pdsh / clush: {@code host: } — only where nccl-tests output follows, so prose such as "Warning: ..." and
     * rccl-tests' "rccl-tests: Version ..." keep their words.
     */
    private static final Pattern PDSH = Pattern.compile("^[A-Za-z][\\w.-]*:\\s+(?=#|\\d|\\[|\\(|$)");
    /** A host label already seen: taken off before anything. */
    private static final Pattern HOST = Pattern.compile("^([A-Za-z][\\w.-]*):(?:\\s+|$)");

    /** ctime's first word, which Open MPI's --timestamp-output puts in front of every line. */
    private static final java.util.Set<String> WEEKDAYS = java.util.Set.of("Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
            "Sun");
    /** ctime's words: {@code Thu Jul 18 15:41:05 2024}. */
    private static final String CTIME = "(?:" + String.join("|", WEEKDAYS) + ") [A-Z][a-z]{2} [ \\d]?\\d"
            + " \\d{2}:\\d{2}:\\d{2} \\d{4}";
    /** Open MPI --timestamp-output: {@code Thu Jul 18 15:41:05 2024<stdout>:} (before any tag). */
    private static final Pattern OPEN_MPI_TIME = Pattern.compile("^" + CTIME
            + "(?:<std(?:out|err)>:\\s?|\\s+|$|(?=\\[))");
    /** Open MPI --tag-output: {@code [1,0]<stdout>:}. */
    private static final Pattern OPEN_MPI_TAG = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:\\s?");
    /**
     * Open MPI's label inside a line: it labels every write, and nccl-tests writes a row in several, so a row
     * reads {@code 8  2  float  sum  -1[1,0]<stdout>:  85.70 ...}.
     */
    private static final Pattern OPEN_MPI_INSIDE = Pattern.compile("(?:" + CTIME
            + ")?(?:\\[\\d+,\\d+\\])?<std(?:out|err)>:");

    /**
     * The labels, each anchored at the start of what is left. A label must be followed by a space (or end the
     * line) so that a data row's first number is never mistaken for one.
     */
    private static final List<Pattern> LABELS = List.of(
            // ISO 8601 timestamps: kubectl logs --timestamps, CI runners, journald exports
            Pattern.compile("^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?(?:\\s+|$)"),
            // kubectl logs --prefix: [pod/NAME/CONTAINER]
            Pattern.compile("^\\[pod/[^\\]\\s]+\\](?:\\s|$)"),
            // Ray / SkyPilot: (head, rank=0, pid=3808), (worker1, rank=1, pid=2345, ip=10.0.0.2), (pid=123)
            Pattern.compile("^\\([^()]*\\bpid=\\d+[^()]*\\)(?:\\s|$)"),
            OPEN_MPI_TIME,
            OPEN_MPI_TAG,
            // srun -l: 0:
            Pattern.compile("^\\d+:(?:\\s|$)"),
            PDSH,
            // markdown or e-mail quoting
            Pattern.compile("^>(?:\\s|$)"));
    /** MPICH/Intel MPI Hydra's {@code -prepend-rank}: {@code [0] }, repeated wherever the rank wrote. */
    private static final Pattern HYDRA_RANK = Pattern.compile("^\\[\\d+\\] ");
    private static final Pattern LEADING_SPACE = Pattern.compile("^\\s+");

    /**
     * @param hosts pdsh host labels seen so far in this log: once a host's label has been seen in front of
     *              nccl-tests text, it is taken off whatever follows it (a row broken over two lines)
     */
    static LogLine of(int number, String raw, java.util.Set<String> hosts) {
        String s = raw;
        boolean stripped = true;
        boolean openMpi = false;
        while (stripped && !s.isEmpty()) {
            stripped = false;
            String t = Character.isWhitespace(s.charAt(0)) ? LEADING_SPACE.matcher(s).replaceFirst("") : s;
            if (!mayBeLabelled(t)) {
                break; // a row or prose: most lines of a log, which then pay no pattern
            }
            Matcher host = HOST.matcher(t);
            if (host.find() && hosts.contains(host.group(1))) {
                s = t.substring(host.end());
                stripped = true;
                continue;
            }
            for (Pattern p : LABELS) {
                Matcher m = p.matcher(t);
                if (m.find() && m.end() > 0) {
                    if (p == PDSH) {
                        hosts.add(t.substring(0, t.indexOf(':')));
                    }
                    openMpi |= p == OPEN_MPI_TAG || p == OPEN_MPI_TIME;
                    s = t.substring(m.end());
                    stripped = true;
                    break;
                }
            }
        }
        if (openMpi && s.indexOf("<std") >= 0) {
            s = OPEN_MPI_INSIDE.matcher(s).replaceAll("");
        }
        Matcher rank = HYDRA_RANK.matcher(s);
        if (rank.find()) {
            // mpiexec -prepend-rank labels every write, so the label recurs inside the line as well
            s = s.substring(rank.end()).replace(rank.group(), "");
        }
        return new LogLine(number, s);
    }

    /**
     * Whether any label could start {@code t}: every one begins with {@code [}, {@code (} or {@code >}, or has a
     * colon in its first word (a host's {@code name:}, Slurm's {@code 0:}, a timestamp's time), or is an ISO date
     * ({@code 2024-05-01 10:00:00}) or ctime's weekday ({@code Thu Jul 18 15:41:05 2024}). A result row's first
     * word is a plain number, so rows skip every pattern.
     */
    private static boolean mayBeLabelled(String t) {
        if (t.isEmpty()) {
            return false;
        }
        char c = t.charAt(0);
        if (c == '[' || c == '(' || c == '>') {
            return true;
        }
        int end = 0;
        while (end < t.length() && !Character.isWhitespace(t.charAt(end))) {
            end++;
        }
        String first = t.substring(0, end);
        return first.indexOf(':') >= 0 || Character.isDigit(c) && first.indexOf('-') >= 0
                || first.length() == 3 && WEEKDAYS.contains(first);
    }

    /** A {@code #} comment line of nccl-tests (header, preamble, trailer). */
    boolean isComment() {
        return text.stripLeading().startsWith("#");
    }

    /** The text after the leading {@code #}, for comment lines. */
    String commentBody() {
        String s = text.stripLeading();
        return s.startsWith("#") ? s.substring(1) : s;
    }

    /** NCCL's own debug output, which nccl-tests lets through to stdout (NCCL src/debug.cc). */
    boolean isNcclDebug() {
        return text.contains(" NCCL INFO ") || text.contains(" NCCL WARN ") || text.contains(" NCCL TRACE ");
    }
}
