package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.nccl.ChannelCounts;

/**
 * What a log says about the run besides its tables, for a bring-up record: NCCL versions and its CUDA, the
 * driver, the NCCL_* environment, the command line, the date, the NICs and NCCL's channels. Each from the lines
 * NCCL_DEBUG=INFO, nvidia-smi and the shell print; null or empty where the log does not say.
 *
 * @param ncclVersions  every distinct {@code NCCL version X} the ranks printed, in order seen
 * @param ncclCuda      the CUDA NCCL was built for ({@code +cuda12.2})
 * @param driverVersion the driver ({@code Driver Version: 535.104.05}, or {@code cudaDriverVersion 12020} as
 *                      the CUDA version the driver supports)
 * @param environment   NCCL_* variables: {@code NCCL_X set by environment to V} and {@code NCCL_X=V} on a
 *                      command line or export
 * @param commandLine   the first line that launches an nccl-tests binary ({@code $ mpirun ... all_reduce_perf ...})
 * @param date          the first ISO date a line carries ({@code 2024-05-01}), or a {@code date} output line
 * @param nicsPerHost   NICs from {@code NET/IB : Using ...}, null where not printed
 * @param channels      the distinct channel counts NCCL printed, each with its communicator's size where the lines
 *                      say it ({@link ChannelLines}), in order seen; empty where none was printed
 */
public record LogFacts(List<String> ncclVersions, String ncclCuda, String driverVersion,
                       Map<String, String> environment, String commandLine, String date, Integer nicsPerHost,
                       List<ChannelCounts> channels) {

    private static final Pattern NCCL_VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)(?:\\S*\\+cuda(\\d+\\.\\d+))?");
    private static final Pattern DRIVER = Pattern.compile("Driver Version: ?(\\d[\\d.]+)");
    private static final Pattern CUDA_DRIVER = Pattern.compile("cudaDriverVersion (\\d+)");
    private static final Pattern ENV_SET = Pattern.compile("\\b(NCCL_[A-Z0-9_]+) set by environment to (\\S*)");
    private static final Pattern ENV_ASSIGN = Pattern.compile("(?:^|[\\s\"'])(NCCL_[A-Z0-9_]+)=(\"[^\"]*\"|'[^']*'|[^\\s\"']*)");
    private static final Pattern LAUNCH = Pattern.compile("\\b[a-z_]+_perf(?:_mpi)?\\b");
    private static final Pattern PROMPT = Pattern.compile("^\\s*(?:[\\w@.~:/-]*\\$|[\\w@.~:/-]+#|[+>])\\s+(.*)$");
    /** A shell's prompt in brackets, {@code [root@host nccl-tests]# }, which {@link #PROMPT} does not take. */
    private static final Pattern BRACKET_PROMPT = Pattern.compile("^\\s*\\[[^\\]]*\\][#$]\\s+");
    private static final Pattern WORDS = Pattern.compile("\\s+");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    /** The launchers nccl-tests runs under ({@link LaunchLine} reads their flags). */
    private static final java.util.Set<String> LAUNCHERS = java.util.Set.of("mpirun", "mpiexec", "mpiexec.hydra",
            "orterun", "prterun", "srun", "salloc", "sbatch");
    private static final Pattern ISO_DATE = Pattern.compile("\\b(20\\d\\d-[01]\\d-[0-3]\\d)[T ][0-2]\\d:[0-5]\\d");
    private static final Pattern DATE_OUTPUT = Pattern.compile(
            "^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \\d]\\d .*\\b(20\\d\\d)$");

    public LogFacts {
        if (nicsPerHost != null && nicsPerHost < 1) {
            throw new IllegalArgumentException("NICs per host must be at least 1, got " + nicsPerHost);
        }
        // a JSON of the run that names none of them reads back as none
        ncclVersions = ncclVersions == null ? List.of() : List.copyOf(ncclVersions);
        channels = channels == null ? List.of() : List.copyOf(channels);
        environment = Collections.unmodifiableMap(environment == null ? new TreeMap<>() : new TreeMap<>(environment));
    }

    public static LogFacts none() {
        return new LogFacts(List.of(), null, null, Map.of(), null, null, null, List.of());
    }

    /** The channels of the tested communicator, of {@code ranks} ranks ({@link ChannelCounts#forRanks}). */
    public Optional<ChannelCounts> channelsFor(int ranks) {
        return ChannelCounts.forRanks(channels, ranks);
    }

    /**
     * A line whose NCCL_X=V assignments set the run's environment: a shell line after a prompt, an {@code export},
     * or a line that starts a launcher or the benchmark. Prose that names {@code mpirun} or {@code NCCL_ALGO=Ring}
     * (a note above the log, a message) sets nothing, so the reader's forced algorithm of a table and the
     * diagnosis's FORCED_ALGO are read from the same lines.
     */
    public static boolean setsEnvironment(String line) {
        return line.startsWith("export ") || PROMPT.matcher(line).matches() || startsLauncher(line);
    }

    /**
     * The line's first word, past NAME=V assignments and {@code env}, is a launcher or an nccl-tests binary; or the
     * line is assignments alone (a script's {@code NCCL_ALGO=Ring}, {@code env}'s output).
     */
    private static boolean startsLauncher(String line) {
        String[] words = WORDS.split(BRACKET_PROMPT.matcher(line).replaceFirst("").strip());
        for (String word : words) {
            if (!ASSIGNMENT.matcher(word).matches() && !word.equals("env")) {
                String name = word.substring(word.lastIndexOf('/') + 1);
                return LAUNCHERS.contains(name) || LAUNCH.matcher(name).matches();
            }
        }
        return !words[0].isEmpty();
    }

    public static LogFacts of(List<String> lines) {
        Builder b = new Builder();
        lines.forEach(b::accept);
        return b.build();
    }

    /**
     * The facts gathered line by line, as a log streams past once (its tables read from the same pass): a shell
     * line continued with a backslash ({@code mpirun ... \}) is joined with the lines it runs on to.
     */
    public static final class Builder {
        private final List<String> versions = new ArrayList<>();
        private final Map<String, String> env = new TreeMap<>();
        private final NicCount.Tally nics = new NicCount.Tally();
        private final ChannelLines channels = new ChannelLines();
        private String cuda;
        private String driver;
        private String cudaDriver;
        private String command;
        private String date;
        /** A continued shell line, joined so far; null between lines. */
        private StringBuilder open;

        public void accept(String line) {
            nics.accept(line);
            channels.accept(line);
            int end = line.length();
            while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
                end--;
            }
            boolean goesOn = end > 0 && line.charAt(end - 1) == '\\';
            if (open == null && !goesOn) {
                joined(line); // the common case: a line of its own, no copy
                return;
            }
            String part = goesOn ? line.substring(0, end - 1).stripTrailing() : line;
            if (open == null) {
                open = new StringBuilder(part);
            } else {
                open.append(' ').append(part.strip());
            }
            if (!goesOn) {
                joined(open.toString());
                open = null;
            }
        }

        /** The NET/IB devices the lines list, in order seen. */
        public List<String> nicDevices() {
            return nics.devices();
        }

        public LogFacts build() {
            if (open != null) {
                joined(open.toString());
                open = null;
            }
            OptionalInt n = nics.count();
            return new LogFacts(versions, cuda, driver != null ? driver : cudaDriver, env, command, date,
                    n.isPresent() ? n.getAsInt() : null, channels.result());
        }

        /** A {@code 20YY-} (an ISO date), or a line that starts with a capital (a {@code date} command's output). */
        private static boolean mayHoldDate(String line) {
            for (int i = line.indexOf('-', 4); i >= 0; i = line.indexOf('-', i + 1)) {
                if (line.charAt(i - 4) == '2' && line.charAt(i - 3) == '0' && Character.isDigit(line.charAt(i - 2))
                        && Character.isDigit(line.charAt(i - 1))) {
                    return true;
                }
            }
            int first = 0;
            while (first < line.length() && Character.isWhitespace(line.charAt(first))) {
                first++;
            }
            return first < line.length() && Character.isUpperCase(line.charAt(first));
        }

        private void joined(String line) {
            // each pattern behind a plain substring test: a log of NCCL INFO lines runs to millions of lines
            Matcher v = line.contains("NCCL version") ? NCCL_VERSION.matcher(line) : null;
            if (v != null && v.find()) {
                if (!versions.contains(v.group(1))) {
                    versions.add(v.group(1));
                }
                cuda = cuda == null ? v.group(2) : cuda;
            }
            Matcher d = driver == null && line.contains("Driver Version") ? DRIVER.matcher(line) : null;
            if (d != null && d.find()) {
                driver = d.group(1);
            }
            Matcher cd = cudaDriver == null && line.contains("cudaDriverVersion") ? CUDA_DRIVER.matcher(line) : null;
            if (cd != null && cd.find()) {
                int code = Integer.parseInt(cd.group(1));
                cudaDriver = "supports CUDA " + code / 1000 + "." + code % 1000 / 10;
            }
            Matcher e = line.contains(" set by environment to ") ? ENV_SET.matcher(line) : null;
            while (e != null && e.find()) {
                env.putIfAbsent(e.group(1), e.group(2).replaceFirst("[.,;]$", ""));
            }
            if (command == null && line.contains("_perf") && LAUNCH.matcher(line).find() && !line.contains("NCCL INFO")
                    && !line.strip().startsWith("#")) {
                Matcher p = PROMPT.matcher(line);
                if (p.matches() || startsLauncher(line)) {
                    command = (p.matches() ? p.group(1) : line).strip();
                }
            }
            if (line.contains("NCCL_") && setsEnvironment(line)) {
                Matcher a = ENV_ASSIGN.matcher(line);
                while (a.find()) {
                    env.putIfAbsent(a.group(1), a.group(2).replaceAll("^[\"']|[\"']$", "").replaceFirst("[.,;]$", ""));
                }
            }
            if (date == null && mayHoldDate(line)) {
                Matcher iso = ISO_DATE.matcher(line);
                Matcher out = DATE_OUTPUT.matcher(line.strip());
                date = iso.find() ? iso.group(1) : out.matches() ? line.strip() : null;
            }
        }
    }
}
