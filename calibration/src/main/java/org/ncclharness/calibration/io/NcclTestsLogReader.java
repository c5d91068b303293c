package org.ncclharness.calibration.io;

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
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Reads nccl-tests and rccl-tests stdout of every generation (reference B): the preamble, the
 * {@code # Using devices} lines, one or more result tables, NCCL INFO and launcher noise between them, and
 * launcher labels in front of every line. Each table (one run, one datatype and op) becomes one {@link Sweep}.
 *
 * <p>What counts as a result row: a non-comment line whose first two tokens are numbers and whose third is a
 * datatype name. Anything else is prose and skipped, so excerpts pasted into issues and documents read too. A
 * row that is recognisably a row but malformed is an error naming its line.
 */
public final class NcclTestsLogReader {

    /** How predict heads its tables ({@code # predicted by <model> from <source>}). */
    public static final String PREDICTED_BY = "predicted by ";

    private static final Set<String> TYPES = Set.of("int8", "uint8", "int32", "uint32", "int64", "uint64",
            "half", "float", "double", "bfloat16", "bf16", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2", "char",
            "int", "uint");
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final Pattern NUMBER_START = Pattern.compile("[-+]?\\.?\\d.*");
    private static final Pattern DEVICE = Pattern.compile(
            "Rank\\s+(\\d{1,9})\\s+(?:Group\\s+(\\d{1,9})\\s+)?Pid\\s+(\\d{1,18})\\s+on\\s+(\\S+)\\s+device\\s+(\\d{1,9})\\s+"
            + "\\[([^\\]]*)\\]\\s*(.*)");
    private static final Pattern VERSION = Pattern.compile(
            "nccl-tests version (\\S+)(?: nccl-headers=(\\d+))?(?: nccl-library=(\\d+))?");
    private static final Pattern PROGRAM = Pattern.compile("Collective test starting: (\\S+)");
    private static final Pattern PERF_BINARY = Pattern.compile("\\b([a-z_]+)_perf(?:_mpi)?\\b");
    private static final Pattern RCCL_VERSION = Pattern.compile("^RCCL version\\s*:\\s*(\\S+)");
    private static final Pattern RCCL_TESTS = Pattern.compile("^rccl-tests: Version (\\S+)");
    private static final Pattern N_THREAD = Pattern.compile(
            "nThread (\\d{1,9}) nGpus (\\d{1,9}) minBytes (\\d{1,18}) maxBytes (\\d{1,18}) step: (\\S+)"
            + "(?: warmup iters: (\\d{1,9}))? iters: (\\d{1,9})(?: agg iters: (\\d{1,9}))? validation: (\\d{1,9})"
            + "(?: graph: (\\d{1,9}))?");

    private final String file;
    private final Collective fallbackCollective;

    /**
     * @param file               the file name used in messages and provenance
     * @param fallbackCollective the collective to assume when the log never names its program (e.g. a bare
     *                           excerpt); null means all_reduce, with a note saying it was assumed
     */
    public NcclTestsLogReader(String file, Collective fallbackCollective) {
        this.file = file;
        this.fallbackCollective = fallbackCollective;
    }

    /** Parses the whole log; throws {@link InputException} naming the first bad line. */
    public List<Sweep> read(List<String> lines) {
        State s = new State();
        for (int i = 0; i < lines.size(); i++) {
            LogLine line = LogLine.of(i + 1, lines.get(i));
            if (line.isNcclDebug()) {
                continue;
            }
            if (line.isComment()) {
                comment(s, line);
            } else {
                other(s, line);
            }
        }
        s.flushTable();
        if (s.sweeps.isEmpty()) {
            throw new InputException(file, 0, "no nccl-tests result table found (expected rows such as "
                    + "'   1048576   262144   float   sum   -1   21.87   47.95   83.91   0 ...')");
        }
        return List.copyOf(s.sweeps);
    }

    private void comment(State s, LogLine line) {
        String body = line.commentBody();
        String trimmed = body.trim();
        Matcher m;
        if (TableLayout.isColumnHeader(body)) {
            s.flushTable();
            s.layout = TableLayout.fromHeader(body);
            s.headerLine = line.number();
        } else if ((m = VERSION.matcher(trimmed)).find()) {
            s.newRunIfRowsSeen();
            s.testsVersion = m.group(1);
            s.libraryVersion = m.group(3);
        } else if ((m = PROGRAM.matcher(trimmed)).find()) {
            s.program = m.group(1);
        } else if ((m = N_THREAD.matcher(trimmed)).find()) {
            s.newRunIfRowsSeen();
            s.nThread = m;
        } else if (trimmed.equals("Using devices")) {
            s.newRunIfRowsSeen();
            s.devices.clear();
        } else if ((m = DEVICE.matcher(trimmed)).find()) {
            s.devices.add(new Device(Integer.parseInt(m.group(1)),
                    m.group(2) == null ? null : Integer.valueOf(m.group(2)), Long.parseLong(m.group(3)),
                    m.group(4), Integer.parseInt(m.group(5)), m.group(6), m.group(7).trim()));
        } else if (trimmed.startsWith(PREDICTED_BY)) {
            s.newRunIfRowsSeen();
            s.predictedBy = trimmed;
        } else if (trimmed.startsWith("Out of bounds values")) {
            s.flushTable();
        }
    }

    private void other(State s, LogLine line) {
        String text = line.text().trim();
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
        if ((m = PERF_BINARY.matcher(text)).find() && s.program == null) {
            s.binaryHint = m.group(1);
        }
        String[] t = text.split("\\s+");
        if (t.length < 3 || !NUMBER_START.matcher(t[0]).matches() || !NUMBER_START.matcher(t[1]).matches()
                || !TYPES.contains(t[2])) {
            return;
        }
        if (s.layout == null) {
            s.layout = TableLayout.guess(t.length, t.length > 4 ? t[4] : null);
            s.headerLine = 0;
        }
        s.rejectPendingCut();
        if (t.length < s.layout.fullRow()) {
            // Only the last row of a log or excerpt may be cut short (the text ends there); that is decided
            // when the next row or the end of the table arrives.
            s.pendingCut = line;
            s.pendingTokens = t;
            return;
        }
        if (t.length != s.layout.fullRow()) {
            throw bad(line, "expected " + s.layout.fullRow() + " columns (size count type "
                    + (s.layout.hasRoot() ? "redop root" : "redop") + ", then time algbw busbw "
                    + (s.layout.errorColumn() ? "error" : "#wrong") + " out-of-place and in-place"
                    + (s.headerLine > 0 ? ", as the column header at line " + s.headerLine + " says" : "")
                    + "), found " + t.length);
        }
        s.rows.add(row(line, s.layout, t, false));
    }

    private Measurement row(LogLine line, TableLayout l, String[] t, boolean cut) {
        long size = integer(line, t[0], "size");
        long count = integer(line, t[1], "count");
        String redop = l.rootNotOp() ? "none" : t[3];
        int root = l.hasRoot() || l.rootNotOp() ? (int) integer(line, t[l.rootNotOp() ? 3 : 4], "root") : -1;
        Half oop = half(line, t, l.leading());
        Half ip = cut ? Half.empty() : half(line, t, l.leading() + l.perHalf());
        return new Measurement(size, count, t[2], redop, root, oop, ip);
    }

    private Half half(LogLine line, String[] t, int at) {
        return new Half(number(line, t[at], "time"), number(line, t[at + 1], "algbw"),
                number(line, t[at + 2], "busbw"), number(line, t[at + 3], "#wrong"));
    }

    private long integer(LogLine line, String token, String column) {
        if (!token.matches("-?\\d{1,18}")) {
            throw bad(line, column + " '" + token + "' is not an integer");
        }
        return Long.parseLong(token);
    }

    /** A number, or null for {@code N/A} (nccl-tests' #wrong without checking; our tables' absent values). */
    private Double number(LogLine line, String token, String column) {
        if (token.equals("N/A")) {
            return null;
        }
        if (!NUMBER.matcher(token).matches()) {
            throw bad(line, column + " '" + token + "' is not a number");
        }
        return Double.parseDouble(token);
    }

    private InputException bad(LogLine line, String what) {
        return new InputException(file, line.number(), what);
    }

    /** What the reader has seen so far; one instance per file. */
    private final class State {
        final List<Sweep> sweeps = new ArrayList<>();
        final List<Device> devices = new ArrayList<>();
        final List<Measurement> rows = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        TableLayout layout;
        String testsVersion;
        String library = "nccl-tests";
        String libraryVersion;
        String program;
        String binaryHint;
        /** The {@code # predicted by ...} heading of a table our predict command wrote, null for measurements. */
        String predictedBy;
        Matcher nThread;
        boolean rowsSeenInRun;
        int headerLine;
        LogLine pendingCut;
        String[] pendingTokens;

        /** A short row followed by another row was not the end of the text: it is malformed. */
        void rejectPendingCut() {
            if (pendingCut != null) {
                throw bad(pendingCut, "row cut short: expected " + layout.fullRow() + " columns, found "
                        + pendingTokens.length + " (only the last row of a log may end early)");
            }
        }

        /** The table ended after a short row: keep its out-of-place half when that is whole, else drop it. */
        void acceptPendingCut() {
            if (pendingCut == null) {
                return;
            }
            LogLine line = pendingCut;
            String[] t = pendingTokens;
            pendingCut = null;
            pendingTokens = null;
            if (t.length >= layout.leading() + layout.perHalf()) {
                rows.add(row(line, layout, t, true));
                notes.add("line " + line.number() + ": in-place half missing (the text ends there); kept with it empty");
            } else {
                integer(line, t[0], "size");
                notes.add("line " + line.number() + ": row cut short before its out-of-place half was whole "
                        + "(the text ends there); dropped");
            }
        }

        /** A new preamble after rows means a second run in the same log: its devices start afresh. */
        void newRunIfRowsSeen() {
            if (rowsSeenInRun) {
                flushTable();
                devices.clear();
                layout = null;
                rowsSeenInRun = false;
                predictedBy = null;
            }
        }

        void flushTable() {
            acceptPendingCut();
            if (rows.isEmpty()) {
                return;
            }
            rowsSeenInRun = true;
            Collective collective = collective();
            List<String> tableNotes = new ArrayList<>(notes);
            if (program == null && binaryHint == null && fallbackCollective == null) {
                tableNotes.add("the log does not name its test program; read as all_reduce");
            }
            Map<String, List<Measurement>> byTypeOp = new LinkedHashMap<>();
            for (Measurement r : rows) {
                byTypeOp.computeIfAbsent(r.type() + " " + r.redop(), k -> new ArrayList<>()).add(r);
            }
            RunInfo run = runInfo();
            Hardware hw = hardware();
            // A table predict wrote stays a prediction when read back, never a stored measurement.
            Provenance provenance = predictedBy == null ? Provenance.stored(file)
                    : new Provenance(SourceKind.PREDICTED, file, null, predictedBy + " (read back from " + file + ")");
            byTypeOp.values().forEach(group -> sweeps.add(new Sweep(provenance, collective, run, hw,
                    devices, group, tableNotes)));
            rows.clear();
            notes.clear();
        }

        private Collective collective() {
            String name = program != null ? program : binaryHint;
            Optional<Collective> c = name == null ? Optional.empty() : Collective.byName(name);
            return c.orElse(fallbackCollective != null ? fallbackCollective : Collective.ALL_REDUCE);
        }

        private RunInfo runInfo() {
            Matcher m = nThread;
            return new RunInfo(testsVersion, library, libraryVersion, program,
                    m == null ? null : Integer.valueOf(m.group(1)), m == null ? null : Integer.valueOf(m.group(2)),
                    m == null ? null : Long.valueOf(m.group(3)), m == null ? null : Long.valueOf(m.group(4)),
                    m == null ? null : m.group(5), m == null || m.group(6) == null ? null : Integer.valueOf(m.group(6)),
                    m == null ? null : Integer.valueOf(m.group(7)),
                    m == null || m.group(8) == null ? null : Integer.valueOf(m.group(8)),
                    m == null ? null : Integer.valueOf(m.group(9)),
                    m == null || m.group(10) == null ? null : Integer.valueOf(m.group(10)));
        }

        /** Only what the device lines prove: their GPU name and host count, and N when the list is whole. */
        private Hardware hardware() {
            if (devices.isEmpty()) {
                return Hardware.unknown();
            }
            Set<String> hosts = new LinkedHashSet<>();
            devices.forEach(d -> hosts.add(d.host()));
            int maxRank = devices.stream().mapToInt(Device::rank).max().orElse(-1);
            Integer ranks = maxRank + 1 == devices.size() ? devices.size() : null;
            return new Hardware(devices.get(0).name(), ranks, ranks == null ? null : hosts.size(), null, null,
                    null, null);
        }
    }
}
