package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.Echo;
import org.ncclharness.calibration.format.PredictedScale;
import org.ncclharness.calibration.measure.InputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.TimeAlgbwAgreement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Trailer;

/**
 * Reads nccl-tests and rccl-tests stdout of every generation (nccl-tests src/util.cu prints it): preambles,
 * {@code # Using devices} lines, any number of result tables (one run after another, as scripts that run several
 * {@code *_perf} binaries write them), NCCL INFO and launcher noise between them, and launcher labels in front of
 * every line ({@link LogLine}). Each table, and within it each datatype and op, becomes one {@link Sweep} with its own
 * collective, layout and trailer.
 *
 * <p>A result row is a non-comment line whose first two tokens are numbers and whose third is a datatype name.
 * Outside a table anything else is prose and skipped, so excerpts pasted into issues and documents read too.
 * Inside a table a line that starts like a row but is not one is a damaged row and an error naming its line;
 * a row broken over two lines is joined when the pieces make one. Only the last row of the text, with nothing
 * after it, may be cut short: it is kept with the columns it has and a note.
 */
public final class NcclTestsLogReader {

    private static final String PREDICTED_BY = NcclTestsTableWriter.PREDICTED_BY;
    private static final String RECOMPUTED = NcclTestsTableWriter.RECOMPUTED;

    private static final Set<String> TYPES = org.ncclharness.calibration.measure.RowNames.TYPES;
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    /** What C's printf prints for a value that is not finite. */
    private static final Pattern NOT_FINITE = Pattern.compile("[-+]?(?:inf|nan)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBER_START = Pattern.compile("[-+]?\\.?\\d.*");
    // Compiled once: String.split and String.matches compile their pattern on every call, on every row.
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern TIME_OF_DAY = Pattern.compile("\\d{2}:\\d{2}:\\d{2}");
    private static final Pattern VERSION = Pattern.compile(
            "nccl-tests version (\\S+)(?: nccl-headers=(\\d+))?(?: nccl-library=(\\d+))?");
    private static final Pattern PROGRAM = Pattern.compile("Collective test starting: (\\S+)");
    /**
     * A {@code *_perf} program on a command line ({@code ./build/all_gather_perf -b 8}, {@code mpirun ...
     * alltoall_perf}) or a script's banner ({@code ===begin all_gather_perf test===}): a word of its own, at the
     * end of the line or before a flag, a shell separator or "test", so that prose ("yesterday's
     * all_reduce_perf run crashed") names nothing. A name the rows contradict is overruled by them anyway.
     */
    private static final Pattern PERF_BINARY = Pattern.compile(
            "(?:^|[\\s/=])([a-z_]+)_perf(?:_mpi)?(?=\\s*$|\\s+-|\\s*[|;&>]|\\s*\\\\$|\\s+test\\b)");
    private static final Pattern RCCL_VERSION = Pattern.compile("^RCCL version\\s*:\\s*(\\S+)");
    private static final Pattern RCCL_TESTS = Pattern.compile("^rccl-tests: Version (\\S+)");
    private static final Pattern OUT_OF_BOUNDS = Pattern.compile("^Out of bounds values\\s*:\\s*(.*?)\\s*$");
    private static final Pattern AVERAGE = Pattern.compile("^Avg bus bandwidth\\s*:\\s*(\\S+)\\s*(.*?)\\s*$");
    private static final Pattern ALGO_SET = Pattern.compile("\\bNCCL_ALGO set by environment to ([^\\s,;]+)");
    private static final Pattern ALGO_ASSIGN = Pattern.compile("(?:^|[\\s\"'])NCCL_ALGO=[\"']?([^\\s\"',;]+)");
    /** nccl-tests lowers maxBytes to what the GPU's memory holds, and says so before its table. */
    private static final Pattern REDUCED_MAX_BYTES = Pattern.compile("^Reducing maxBytes to (\\d{1,18})");
    private static final Pattern N_THREAD = Pattern.compile(
            "nThread (\\d{1,9}) nGpus (\\d{1,9}) minBytes (\\d{1,18}) maxBytes (\\d{1,18}) step: (\\S+)"
            + "(?: warmup iters: (\\d{1,9}))? iters: (\\d{1,9})(?: agg iters: (\\d{1,9}))? validation: (\\d{1,9})"
            + "(?: graph: (\\d{1,9}))?");

    /** The -I 1 columns after each half's four, as the header names them. */
    private static final List<String> PER_ITERATION = List.of("i_min", "i_max", "i_p99", "i_cv%");

    private final String file;
    private final Collective given;

    /**
     * @param file  the file name used in messages and provenance
     * @param given the collective the user or a dataset's metadata states, for tables whose log does not name
     *              its program; null to decide from the rows ({@link CollectiveEvidence})
     */
    public NcclTestsLogReader(String file, Collective given) {
        this.file = file;
        this.given = given;
    }

    /** Parses the whole log; throws {@link InputException} naming the first bad line. */
    public List<Sweep> read(List<String> lines) {
        return read(lines.iterator());
    }

    /** Parses a log line by line, keeping only what it needs (rows, devices): memory bounded by the rows. */
    public List<Sweep> read(java.util.Iterator<String> lines) {
        State s = new State();
        java.util.Set<String> hosts = new java.util.HashSet<>();
        int commentedRows = 0;
        int firstCommentedRow = 0;
        int ncclLines = 0;
        for (int i = 0; lines.hasNext(); i++) {
            LogLine line = LogLine.of(i + 1, lines.next(), hosts);
            if (line.isNcclDebug()) {
                ncclLines++;
                forcedAlgo(s, line, ALGO_SET);
                s.afterNccl = true;
                continue;
            }
            if (line.isComment() || bareComment(line)) {
                if (line.isComment() && isRow(line.commentBody().strip().split("\\s+"))) {
                    commentedRows++;
                    firstCommentedRow = firstCommentedRow == 0 ? line.number() : firstCommentedRow;
                }
                comment(s, line);
            } else {
                other(s, line);
            }
            s.afterNccl &= line.text().isBlank();
        }
        s.endOfText();
        if (s.sweeps.isEmpty()) {
            // a log pasted with every line behind '#' (a notes file, a Makefile) has its rows as comments
            throw new NoTableException(file, firstCommentedRow, "no nccl-tests result table found (expected rows such as "
                    + "'   1048576   262144   float   sum   -1   21.87   47.95   83.91   0 ...')" + (commentedRows == 0
                    ? "" : "; " + commentedRows + " line" + (commentedRows == 1 ? " is" : "s are") + " shaped like"
                    + " result rows behind a '#': remove the '#' in front of them to read them")
                    // a job that hung or failed before its first size still says why in NCCL's own lines
                    + (ncclLines == 0 ? "" : "; its " + ncclLines + " NCCL INFO/WARN line" + (ncclLines == 1 ? "" : "s")
                    + " may say why the run stopped before its first size: run diagnose on the file"));
        }
        return List.copyOf(s.sweeps);
    }

    /**
     * One of nccl-tests' own comment lines printed without its {@code #}: a column header, the program line or the
     * trailer, as some consoles and docs render them (dstack's {@code dstack apply} output drops every leading
     * {@code #}). Read as the comment it is; without this its table had no stated trailer.
     */
    private static boolean bareComment(LogLine line) {
        String t = line.text().strip();
        return !t.startsWith("#") && (TableLayout.isColumnHeader(t) || PROGRAM.matcher(t).lookingAt()
                || OUT_OF_BOUNDS.matcher(t).find() || AVERAGE.matcher(t).find());
    }

    /**
     * The trailer a text states when it holds one table's (one {@code Out of bounds} line, at most one average),
     * found by scanning its comment lines alone: what a bundled dataset's raw text says of itself, without
     * reading its rows again.
     */
    public static Trailer statedTrailer(List<String> lines) {
        String oob = null;
        String avg = null;
        String status = null;
        int oobLines = 0;
        int avgLines = 0;
        java.util.Set<String> hosts = new java.util.HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            LogLine l = LogLine.of(i + 1, lines.get(i), hosts);
            if (!l.isComment() && !bareComment(l)) {
                continue;
            }
            String body = l.commentBody().strip();
            Matcher m;
            if ((m = OUT_OF_BOUNDS.matcher(body)).find()) {
                oob = m.group(1);
                oobLines++;
            } else if ((m = AVERAGE.matcher(body)).find() && NUMBER.matcher(m.group(1)).matches()) {
                avg = m.group(1);
                status = m.group(2).isEmpty() ? null : m.group(2);
                avgLines++;
            }
        }
        if (oobLines > 1 || avgLines > 1 || oobLines + avgLines == 0) {
            return Trailer.NONE;
        }
        return new Trailer(oob, avg == null ? null : Double.valueOf(avg), status);
    }

    private void comment(State s, LogLine line) {
        String body = line.commentBody();
        String trimmed = body.strip();
        Matcher m;
        Optional<Device> device;
        if (TableLayout.isColumnHeader(body)) {
            s.flushTable();
            s.layout = TableLayout.fromHeader(body, line.number());
            s.adaptedFrom = null;
            if (s.layout == null) {
                throw bad(line, "column header not understood: expected size count type [redop] [root], then "
                        + "time algbw busbw and #wrong or error, for out-of-place and in-place");
            }
            s.inTable = true;
        } else if ((m = VERSION.matcher(trimmed)).find()) {
            s.newRunIfRowsSeen();
            s.testsVersion = m.group(1);
            s.libraryVersion = m.group(3);
        } else if ((m = PROGRAM.matcher(trimmed)).find()) {
            s.newRunIfRowsSeen();
            s.program = m.group(1);
        } else if ((m = N_THREAD.matcher(trimmed)).find()) {
            s.newRunIfRowsSeen();
            s.nThread = m;
        } else if ((m = REDUCED_MAX_BYTES.matcher(trimmed)).find()) {
            s.reducedMaxBytes = Long.valueOf(m.group(1));
        } else if (trimmed.equals("Using devices")) {
            s.newRunIfRowsSeen();
            s.devices.clear();
        } else if ((device = DeviceLine.parse(trimmed)).isPresent()) {
            s.devices.add(device.get());
        } else if (trimmed.startsWith(PREDICTED_BY) || trimmed.startsWith(Provenance.REPLAY_LABEL)
                || trimmed.startsWith(Provenance.TEST_CLOCK_LABEL)) {
            // the heading our writers print before a table that was not measured: it stays what it is
            s.newRunIfRowsSeen();
            s.stated = new Provenance(trimmed.startsWith(PREDICTED_BY) ? SourceKind.PREDICTED
                    : trimmed.startsWith(Provenance.REPLAY_LABEL) ? SourceKind.REPLAY : SourceKind.TEST_CLOCK,
                    file, null, trimmed);
        } else if ((m = OUT_OF_BOUNDS.matcher(trimmed)).find()) {
            s.rejectPendingCut("the trailer");
            s.inTable = false;
            s.outOfBounds = m.group(1);
        } else if ((m = AVERAGE.matcher(trimmed)).find()) {
            s.rejectPendingCut("the trailer");
            s.inTable = false;
            s.averageLine = line;
            s.average = m.group(1);
            s.averageStatus = m.group(2);
            s.flushTable();
        }
    }

    private void other(State s, LogLine line) {
        String text = line.text().strip();
        // a launch line's continuation lines (mpirun ... \ then -x NCCL_ALGO=Ring ...) set its environment too
        boolean setsEnvironment = s.launchGoesOn || LogFacts.setsEnvironment(text);
        s.launchGoesOn = setsEnvironment && text.endsWith("\\");
        Matcher m;
        if ((m = RCCL_TESTS.matcher(text)).find()) {
            s.library = "rccl-tests";
            s.testsVersion = m.group(1);
            return;
        }
        if ((m = RCCL_VERSION.matcher(text)).find()) {
            s.library = "rccl-tests";
            s.libraryVersion = m.group(1);
            return;
        }
        if (text.isEmpty()) {
            return;
        }
        String[] t = WHITESPACE.split(text);
        if (s.pendingCut != null) {
            if (s.tryJoin(line, t)) {
                return;
            }
            if (!startsLikeRow(t)) {
                return; // prose after a short row: it may still be the last row of the text
            }
            s.rejectPendingCut("another row");
        }
        if (!isRow(t)) {
            if (!s.rows.isEmpty() && s.textAfterRow == null) {
                s.textAfterRow = line;
            }
            if (setsEnvironment) {
                forcedAlgo(s, line, ALGO_ASSIGN);
            }
            if (s.inTable && s.afterNccl && measuredHalves(t, s.layout)) {
                // NCCL prints its INFO lines on the same stream while the row is half written: a row's size,
                // count and type went before them (or into them), its times after; nothing says which size it was
                s.notes.add("line " + line.number() + ": " + Echo.quote(text) + " is the measured part of a row whose"
                        + " size, count and type are not in the text (NCCL's INFO lines above it were printed where"
                        + " they stood); not read");
                return;
            }
            if (s.inTable && fragment(t)) {
                throw bad(line, "a piece of a row (" + Echo.quote(text) + ") inside the table: a row broken "
                        + "inside a number? expected whole rows of " + s.layout.fullRow() + " columns");
            }
            if (!s.inTable && pieceOfARow(t)) {
                // the tail of a row whose start is not in the text (an excerpt cut inside a row): nothing to join
                // it with, so it is named rather than read or silently passed over
                s.notes.add("line " + line.number() + ": " + Echo.quote(text) + " is a piece of a row outside any"
                        + " table (an excerpt that starts inside a row?); not read");
                return;
            }
            if (s.inTable && (startsLikeRow(t) || mostlyNumbers(t))) {
                s.pendingCut = line; // a row's first part, or a damaged row: the next line tells
                s.pendingTokens = t;
                return;
            }
            if ((m = PERF_BINARY.matcher(text)).find() && Collective.byName(m.group(1)).isPresent()) {
                s.newRunIfRowsSeen();
                s.binaryHint = m.group(1);
                s.launch = LaunchLine.of(text).orElse(null);
            }
            return;
        }
        if (s.layout == null) {
            s.layout = TableLayout.guess(t);
            if (s.layout == null) {
                throw damaged(line, t, null);
            }
        } else if (s.rows.isEmpty() && t.length != s.layout.fullRow() && t.length >= s.layout.fullRow() - 1) {
            adaptToFirstRow(s, line, t);
        }
        s.inTable = true;
        if (t.length < s.layout.fullRow()) {
            // Only the last row of the text may be cut short; that is known when something else arrives.
            s.pendingCut = line;
            s.pendingTokens = t;
            return;
        }
        if (t.length != s.layout.fullRow()) {
            if (s.adaptedFrom != null && t.length == s.adaptedFrom.fullRow()) {
                // the header was right after all: it was the first row that lacked a column
                throw damaged(s.adaptedAt, s.adaptedAt.text().strip().split("\\s+"), s.adaptedFrom);
            }
            throw damaged(line, t, s.layout);
        }
        Measurement row = row(line, s.layout, t);
        s.add(row, line);
        if (s.layout.tuning()) {
            int at = s.layout.halvesEnd();
            s.tuning.add(row.sizeBytes(), t[at], t[at + 1], t[at + 2]);
        }
    }

    /**
     * Some versions print a redop column header over rows that leave it blank (superbench's alltoall): the
     * first row shows which, and every later row must then agree.
     */
    private void adaptToFirstRow(State s, LogLine line, String[] t) {
        TableLayout rowShape = TableLayout.guess(t);
        // Only a blank redop is adapted to, and only where the program prints none (hypercube, old alltoall):
        // a row that shows its op but lacks another column, or an all_reduce without its op, is damaged
        Collective named = s.named();
        if (rowShape != null && rowShape.fullRow() == t.length && rowShape.perHalf() == s.layout.perHalf()
                && s.layout.hasRedop() && !rowShape.hasRedop() && rowShape.hasRoot() == s.layout.hasRoot()
                && (named == null || !named.printsOp())) {
            s.adaptedFrom = s.layout;
            s.adaptedAt = line;
            s.notes.add("line " + line.number() + ": the rows have " + t.length + " columns where the header at "
                    + "line " + s.layout.headerLine() + " names " + s.layout.fullRow() + "; read as "
                    + rowShape.describe());
            s.layout = new TableLayout(rowShape.hasRedop(), rowShape.hasRoot(), s.layout.errorColumn(),
                    rowShape.perHalf(), rowShape.tuning(), rowShape.timestamp(), s.layout.headerLine());
        }
    }

    /** Tokens that are all pieces of numbers ({@code e-07}, {@code 5}), not words: the tail of a broken row. */
    private static boolean fragment(String[] t) {
        return java.util.Arrays.stream(t).allMatch(x -> x.matches("[-+.0-9eE]*\\d[-+.0-9eE]*|N?/?A?"))
                && java.util.Arrays.stream(t).anyMatch(x -> x.matches(".*\\d.*")) && !startsLikeRow(t);
    }

    /**
     * Two or more number-shaped tokens and nothing else ({@code 21.87  47.95  83.91  0}), or a {@link #fragment}:
     * outside a table, the rest of a row cut before it.
     */
    private static boolean pieceOfARow(String[] t) {
        return fragment(t) || t.length >= 2 && java.util.Arrays.stream(t).allMatch(x -> NUMBER.matcher(x).matches()
                || x.equals("N/A"));
    }

    /** Exactly the columns after a row's leading ones (both halves and the rest), every one a number or N/A. */
    private static boolean measuredHalves(String[] t, TableLayout l) {
        return t.length == l.fullRow() - l.leading() && java.util.Arrays.stream(t)
                .allMatch(x -> NUMBER.matcher(x).matches() || x.equals("N/A"));
    }

    /** A line of numbers whose first token is damaged ({@code O048 ...}): inside a table, a damaged row. */
    private static boolean mostlyNumbers(String[] t) {
        long numbers = java.util.Arrays.stream(t).filter(x -> NUMBER_START.matcher(x).matches()).count();
        return t.length >= 5 && numbers * 2 >= t.length;
    }

    /** A line whose first token is a number: a result row, whole or damaged. */
    private static boolean startsLikeRow(String[] t) {
        return NUMBER_START.matcher(t[0]).matches();
    }

    private static boolean isRow(String[] t) {
        return t.length >= 3 && NUMBER_START.matcher(t[0]).matches() && NUMBER_START.matcher(t[1]).matches()
                && TYPES.contains(t[2]);
    }

    /** A last row cut inside its type name ({@code flo}). */
    private static boolean isTypePrefix(String[] t) {
        return t.length == 3 && TYPES.stream().anyMatch(type -> type.startsWith(t[2]));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = new String[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** A line naming the forced NCCL_ALGO ({@code NCCL_ALGO} first: most lines are rows and pay one search). */
    private static void forcedAlgo(State s, LogLine line, Pattern p) {
        if (line.text().contains("NCCL_ALGO")) {
            Matcher m = p.matcher(line.text());
            if (m.find()) {
                s.forcedAlgo = m.group(1);
            }
        }
    }

    private InputException damaged(LogLine line, String[] t, TableLayout l) {
        String expected = l == null ? "a result row (size count type [redop] [root], then time algbw busbw "
                + "#wrong|error out-of-place and in-place)"
                : l.fullRow() + " columns (" + l.describe() + (l.headerLine() > 0
                        ? ", as the column header at line " + l.headerLine() + " says" : "") + ")";
        if (t.length >= 3 && !TYPES.contains(t[2]) && NUMBER_START.matcher(t[0]).matches()) {
            return bad(line, "damaged result row: type " + Echo.quote(t[2]) + " is not a datatype nccl-tests "
                    + "prints; expected " + expected);
        }
        return bad(line, "damaged result row: expected " + expected + ", found " + t.length);
    }

    /** A row with at least its leading columns; halves beyond the tokens present stay empty. */
    private Measurement row(LogLine line, TableLayout l, String[] t) {
        long size = integer(line, t[0], "size", 0, Long.MAX_VALUE);
        long count = integer(line, t[1], "count", 0, Long.MAX_VALUE);
        String redop = l.hasRedop() && t.length > 3 ? t[3] : "none";
        if (l.hasRedop() && t.length > 3 && !TableLayout.OPS.contains(redop)) {
            throw bad(line, "redop " + Echo.quote(redop) + " is not an op nccl-tests prints (" + String.join(", ",
                    new java.util.TreeSet<>(TableLayout.OPS)) + ")");
        }
        // Every column is checked, the ones no model uses too (-I statistics, -S timestamps): a damaged token
        // anywhere means the row is not as measured
        int halves = l.halvesEnd();
        for (int i = l.leading(); i < Math.min(t.length, halves); i++) {
            int inHalf = (i - l.leading()) % l.perHalf();
            if (inHalf >= 4) {
                number(line, t[i], PER_ITERATION.get(inHalf - 4));
            }
        }
        if (l.tuning() && t.length > halves) {
            if (!TableLayout.tuningColumns(t, halves)) {
                throw bad(line, String.join(" ", TableLayout.TUNING) + " " + Echo.quote(String.join(" ",
                        java.util.Arrays.copyOfRange(t, halves, Math.min(t.length, halves + 3)))) + " is not an"
                        + " algorithm, a protocol and a channel count (N/A where RCCL planned none)");
            }
            halves += TableLayout.TUNING.size();
        }
        if (t.length > halves && !DATE.matcher(t[halves]).matches()
                || t.length > halves + 1 && !TIME_OF_DAY.matcher(t[halves + 1]).matches()) {
            throw bad(line, "timestamp " + Echo.quote(String.join(" ", java.util.Arrays.copyOfRange(t, halves,
                    t.length))) + " is not a date and time (YYYY-MM-DD HH:MM:SS)");
        }
        int root = l.rootIndex() >= 0 && t.length > l.rootIndex()
                ? (int) integer(line, t[l.rootIndex()], "root", -1, Integer.MAX_VALUE) : -1;
        Half oop = half(line, t, l.leading(), l);
        Half ip = half(line, t, l.leading() + l.perHalf(), l);
        return new Measurement(size, count, t[2], redop, root, oop, ip);
    }

    private Half half(LogLine line, String[] t, int at, TableLayout l) {
        Double time = at < t.length ? number(line, t[at], "time") : null;
        Double alg = at + 1 < t.length ? number(line, t[at + 1], "algbw") : null;
        Double bus = at + 2 < t.length ? number(line, t[at + 2], "busbw") : null;
        Double check = at + 3 < t.length ? number(line, t[at + 3], l.errorColumn() ? "error" : "#wrong") : null;
        if (check != null && !l.errorColumn() && check != Math.rint(check)) {
            throw bad(line, "#wrong " + Echo.quote(t[at + 3]) + " is not a count of elements (a column header "
                    + "naming 'error' marks the older maximum-error column)");
        }
        return new Half(time, alg, bus, l.errorColumn() ? null : check, l.errorColumn() ? check : null);
    }

    private long integer(LogLine line, String token, String column, long min, long max) {
        if (!INTEGER.matcher(token).matches()) {
            throw bad(line, column + " " + Echo.quote(token) + " is not an integer");
        }
        long v;
        try {
            v = Long.parseLong(token);
        } catch (NumberFormatException e) {
            throw bad(line, column + " " + Echo.quote(token) + " is larger than " + Long.MAX_VALUE);
        }
        if (v < min || v > max) {
            throw bad(line, column + " " + token + " is out of range (expected " + min + " to " + max + ")");
        }
        return v;
    }

    /** A finite non-negative number, or null for {@code N/A} (unchecked #wrong; our tables' absent values). */
    private Double number(LogLine line, String token, String column) {
        if (token.equals("N/A")) {
            return null;
        }
        if (!NUMBER.matcher(token).matches()) {
            throw bad(line, column + " " + Echo.quote(token) + " is not a number");
        }
        double v = Double.parseDouble(token);
        if (Double.isInfinite(v)) {
            throw bad(line, column + " " + Echo.quote(token) + " is too large to be a measurement");
        }
        if (v < 0) {
            throw bad(line, column + " " + token + " is negative; nccl-tests prints none");
        }
        return v;
    }

    private InputException bad(LogLine line, String what) {
        return new InputException(file, line.number(), what);
    }

    /** What the reader has seen so far; one instance per file. */
    private final class State {
        final List<Sweep> sweeps = new ArrayList<>();
        final List<Device> devices = new ArrayList<>();
        final List<Measurement> rows = new ArrayList<>();
        /** Each row's line (by index in {@link #rows}), for notes that point at one. */
        final List<Integer> rowLines = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        /** The last line that was not blank was one of NCCL's own (INFO/WARN/TRACE). */
        boolean afterNccl;
        /** The table's rccl-tests algo/proto/nchannels columns, said in a note. */
        final TuningColumns tuning = new TuningColumns();
        TableLayout layout;
        /** The header's layout when the first row showed a blank redop column, and that row. */
        TableLayout adaptedFrom;
        LogLine adaptedAt;
        boolean inTable;
        String testsVersion;
        String library = "nccl-tests";
        String libraryVersion;
        String program;
        String binaryHint;
        /** The host count the run's launch line states, null where none does. */
        LaunchLine launch;
        /**
         * The provenance a heading states ({@code # predicted by ...} of a table predict wrote, {@code # replay of
         * stored measurements: ...} of a replay), null for a log of measurements.
         */
        Provenance stated;
        Matcher nThread;
        /** The maxBytes nccl-tests ran to after lowering it for memory, null where it did not. */
        Long reducedMaxBytes;
        boolean rowsSeenInRun;
        LogLine pendingCut;
        String[] pendingTokens;
        /** The NCCL_ALGO the log last said is forced: it holds for the tables after it. */
        String forcedAlgo;
        /** The last line set the environment and goes on to the next ({@code \\} at its end). */
        boolean launchGoesOn;
        String outOfBounds;
        String average;
        String averageStatus;
        LogLine averageLine;
        /** The first line of text (not a row, comment or NCCL line) since the table's last row, null where none. */
        LogLine textAfterRow;

        /**
         * Adds a row. Sizes that start again after a line of text (a script's {@code ====== 2-node ======}
         * banner over a grep of several runs) begin a table of their own: a -N cycle repeats its sweep with no
         * text between, and runs of other rank counts read as one would mix them in one fit.
         */
        void add(Measurement m, LogLine at) {
            if (textAfterRow != null && !rows.isEmpty() && m.sizeBytes() < rows.get(rows.size() - 1).sizeBytes()) {
                LogLine between = textAfterRow;
                flushTable();
                notes.add("line " + at.number() + ": the sizes start again after line " + between.number() + " ("
                        + Echo.quote(between.text().strip()) + "): read as a table of its own, not a repeated cycle of"
                        + " the one before");
            }
            textAfterRow = null;
            rows.add(m);
            rowLines.add(at.number());
        }

        /** A short row and this line make one whole row: it is added, and true returned. */
        boolean tryJoin(LogLine line, String[] t) {
            String[] joined = concat(pendingTokens, t);
            if (layout == null || joined.length != layout.fullRow() || !isRow(joined)) {
                return false;
            }
            Measurement m;
            try {
                m = row(pendingCut, layout, joined);
            } catch (InputException notOneRow) {
                return false; // the next line is prose ("[... excerpt ends here]"), not the row's rest
            }
            add(m, pendingCut);
            notes.add("lines " + pendingCut.number() + "-" + line.number() + ": one row broken over two lines; "
                    + "read joined");
            pendingCut = null;
            pendingTokens = null;
            return true;
        }

        /** A short or damaged row followed by more of the table was not the end of the text. */
        void rejectPendingCut(String followedBy) {
            if (pendingCut == null) {
                return;
            }
            String[] t = pendingTokens;
            if (layout != null && t.length == layout.fullRow()) {
                row(pendingCut, layout, t); // a whole-length row that is not a row: its first bad token says why
            }
            if (t.length >= 3 && !TYPES.contains(t[2]) || layout == null || t.length >= layout.fullRow()) {
                throw damaged(pendingCut, t, layout);
            }
            throw bad(pendingCut, "row cut short: expected " + layout.fullRow() + " columns, found " + t.length
                    + ", and " + followedBy + " follows (only the last row of a text may end early)");
        }

        /** The text ended: a short last row is kept with what it has. */
        void endOfText() {
            if (pendingCut != null) {
                LogLine line = pendingCut;
                String[] t = pendingTokens;
                if (layout == null || t.length > layout.fullRow()
                        || t.length >= 3 && !TYPES.contains(t[2]) && !isTypePrefix(t)) {
                    throw damaged(line, t, layout);
                }
                pendingCut = null;
                // The text may end inside the last token (0.2 of 0.29, 3 of 3e-07): only one followed by a space
                // is known to be whole
                String[] whole = line.text().matches(".*\\s$") ? t : java.util.Arrays.copyOf(t, t.length - 1);
                if (whole.length > layout.leading() && TYPES.contains(t[2])) {
                    add(row(line, layout, whole), line);
                    notes.add("line " + line.number() + ": the last row has " + t.length + " of " + layout.fullRow()
                            + " columns (the text ends there); kept with its " + whole.length + " whole ones");
                } else {
                    integer(line, t[0], "size", 0, Long.MAX_VALUE);
                    notes.add("line " + line.number() + ": the last row ends after " + t.length + " columns (the "
                            + "text ends there), before its first measurement; not kept");
                }
            }
            flushTable();
        }

        /** A new preamble after rows means a second run in the same log: its facts start afresh. */
        void newRunIfRowsSeen() {
            rejectPendingCut("a new run's preamble");
            flushTable();
            if (rowsSeenInRun) {
                devices.clear();
                layout = null;
                inTable = false;
                rowsSeenInRun = false;
                stated = null;
                program = null;
                binaryHint = null;
                launch = null;
                nThread = null;
                reducedMaxBytes = null;
            }
        }

        void flushTable() {
            if (rows.isEmpty()) {
                clearTrailer();
                return;
            }
            rowsSeenInRun = true;
            tuning.note().ifPresent(notes::add);
            tuning.clear();
            Optional<String> jobs = SeparateJobs.inDevices(devices);
            if (jobs.isPresent()) {
                throw new InputException(file, rowLines.get(0), jobs.get());
            }
            Map<String, List<Measurement>> byTypeOp = new LinkedHashMap<>();
            Map<String, List<Integer>> linesByTypeOp = new LinkedHashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                Measurement r = rows.get(i);
                byTypeOp.computeIfAbsent(r.type() + " " + r.redop(), k -> new ArrayList<>()).add(r);
                linesByTypeOp.computeIfAbsent(r.type() + " " + r.redop(), k -> new ArrayList<>()).add(rowLines.get(i));
            }
            for (Map.Entry<String, List<Measurement>> g : byTypeOp.entrySet()) {
                List<Long> sizes = g.getValue().stream().map(Measurement::sizeBytes).toList();
                int at = SeparateJobs.interleavedAt(sizes);
                if (at >= 0) {
                    throw new InputException(file, linesByTypeOp.get(g.getKey()).get(at), SeparateJobs.rows(sizes, at));
                }
            }
            RunInfo run = runInfo();
            Integer listed = listedRanks();
            // A table predict wrote stays a prediction when read back, never a stored measurement.
            Provenance provenance = stated == null ? Provenance.stored(file) : stated;
            Optional<PredictedScale> predicted = PredictedScale.of(stated);
            Trailer trailer = trailer();
            for (List<Measurement> read : byTypeOp.values()) {
                List<Note> tableNotes = new ArrayList<>(Note.info(notes));
                // no header this reader knows (NCCL 1.x's 'bytes N type op time ... res') and times that agree with
                // algbw only as milliseconds: the old tests' unit
                boolean ms = layout.headerLine() == 0 && TimeAlgbwAgreement.inMilliseconds(read);
                List<Measurement> group = ms ? TimeAlgbwAgreement.fromMilliseconds(read) : read;
                if (ms) {
                    tableNotes.add(Note.info("time read in milliseconds, as the tests of NCCL 1.x and nccl-tests"
                            + " before 2019 printed it (with its algbw, size/time agrees only so), and converted to"
                            + " us"));
                }

                if (reducedMaxBytes != null && nThread != null) {
                    tableNotes.add(Note.info("maxBytes " + SizeText.exact(reducedMaxBytes) + ", as nccl-tests lowered"
                            + " it for the GPUs' memory (started for "
                            + SizeText.exact(Long.parseLong(nThread.group(4))) + ")"));
                }
                // N: the device list where it shows every rank, else the launch line's processes x GPUs each, else
                // what a predicted table says it was predicted for
                Integer known = listed != null ? listed : launch != null && launch.ranks() != null ? launch.ranks()
                        : predicted.map(PredictedScale::ranks).orElse(null);
                CollectiveEvidence e = CollectiveEvidence.decide(named(), given, known, group, layout.hasRedop(),
                        layout.hasRoot());
                tableNotes.addAll(e.notes());
                if (listed == null && launch != null && known != null && known.equals(launch.ranks())
                        && known.equals(e.ranks())) {
                    tableNotes.add(Note.info("N = " + known + " ranks as the launch line states (" + launch.source()
                            + ")" + (devices.isEmpty() ? "" : ": the device list shows " + devices.size())));
                }
                TimeAlgbwAgreement.find(group).ifPresent(d -> tableNotes.add(Note.info("line "
                        + rowLines.get(rows.indexOf(d.row())) + ": " + d.describe())));
                Trailer t = trailer;
                if (byTypeOp.size() > 1 && trailer != Trailer.NONE) {
                    t = Trailer.NONE;
                    tableNotes.add(Note.info("the trailer" + (averageLine == null ? "" : " at line "
                            + averageLine.number()) + " covers all " + byTypeOp.size() + " type/op groups of this"
                            + " table, not this one alone"));
                }
                Hardware hw = predicted.map(p -> p.on(hardware(e.ranks()))).orElse(hardware(e.ranks()));
                if (hw.hosts() != null && launch != null && hw.hosts().equals(launch.hosts()) && !whole(e.ranks())) {
                    tableNotes.add(Note.info(launch.hosts() + " hosts taken as the launch line states ("
                            + launch.source() + "): the device list does not show every rank"));
                }
                sweeps.add(new Sweep(provenance, e.collective(), run, hw, devices, group, tableNotes, t));
            }
            rows.clear();
            rowLines.clear();
            notes.clear();
            clearTrailer();
        }

        private void clearTrailer() {
            outOfBounds = null;
            average = null;
            averageStatus = null;
            averageLine = null;
        }

        private Trailer trailer() {
            if (outOfBounds == null && average == null) {
                return Trailer.NONE;
            }
            Double avg = null;
            String status = averageStatus == null || averageStatus.isEmpty() ? null : averageStatus;
            // C's %g of an average over a row whose busbw is infinite (a time of 0) is "inf": nccl-tests prints it,
            // and it states no usable average
            String stated = average == null || NOT_FINITE.matcher(average).matches() ? null : average;
            if (stated != null) {
                if (!NUMBER.matcher(stated).matches()) {
                    throw bad(averageLine, "average bus bandwidth " + Echo.quote(stated) + " is not a number");
                }
                avg = Double.valueOf(stated);
                if (status != null && status.startsWith(RECOMPUTED.substring(0, 12))) {
                    // our own writer's mark: the number was not the source's
                    avg = null;
                    status = null;
                }
            }
            return new Trailer(outOfBounds, avg, status);
        }

        /** The program the log names for this run, or null. */
        Collective named() {
            String name = program != null ? program : binaryHint;
            Optional<Collective> c = name == null ? Optional.empty() : Collective.byName(name);
            return c.orElse(null);
        }

        private RunInfo runInfo() {
            Matcher m = nThread;
            return new RunInfo(testsVersion, library, libraryVersion, program,
                    m == null ? null : Integer.valueOf(m.group(1)), m == null ? null : Integer.valueOf(m.group(2)),
                    m == null ? null : Long.valueOf(m.group(3)),
                    reducedMaxBytes != null ? reducedMaxBytes : m == null ? null : Long.valueOf(m.group(4)),
                    m == null ? null : m.group(5), m == null || m.group(6) == null ? null : Integer.valueOf(m.group(6)),
                    m == null ? null : Integer.valueOf(m.group(7)),
                    m == null || m.group(8) == null ? null : Integer.valueOf(m.group(8)),
                    m == null ? null : Integer.valueOf(m.group(9)),
                    m == null || m.group(10) == null ? null : Integer.valueOf(m.group(10)), forcedAlgo);
        }

        /** N when the device list is whole (ranks 0..N-1 each once), else null. */
        private Integer listedRanks() {
            if (devices.isEmpty()) {
                return null;
            }
            int maxRank = devices.stream().mapToInt(Device::rank).max().orElse(-1);
            // a list of ranks 0..k-1 is cut short where the launch line started more (a log trimmed by its poster)
            boolean launchedMore = launch != null && launch.ranks() != null && launch.ranks() > devices.size();
            return maxRank + 1 == devices.size() && !launchedMore ? devices.size() : null;
        }

        /** Whether the device list shows every one of the N ranks. */
        private boolean whole(Integer ranks) {
            Integer listed = listedRanks();
            return listed != null && listed.equals(ranks);
        }

        /**
         * What the device lines prove (GPU name; the host count when the list is whole), and N as decided; where
         * the list does not show every rank, the launch line's host count when it fits N and the hosts listed.
         */
        private Hardware hardware(Integer ranks) {
            Set<String> hosts = new LinkedHashSet<>();
            devices.forEach(d -> hosts.add(d.host()));
            Integer launched = launch != null && launch.hosts() != null && ranks != null
                    && ranks % launch.hosts() == 0 && launch.hosts() >= hosts.size() ? launch.hosts() : null;
            if (devices.isEmpty()) {
                Hardware none = ranks == null ? Hardware.unknown() : Hardware.unknown().withRanks(ranks);
                return launched == null ? none : none.withHosts(launched);
            }
            // a list whose lines end at the PCI id (rccl-tests on some builds) names no GPU: unknown, not ""
            String gpu = devices.get(0).name().isBlank() ? null : devices.get(0).name();
            return new Hardware(gpu, ranks, whole(ranks) ? Integer.valueOf(hosts.size()) : launched,
                    null, null, null, null);
        }
    }
}
