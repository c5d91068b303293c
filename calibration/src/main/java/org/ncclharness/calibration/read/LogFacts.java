package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a log says about the run besides its tables, for a bring-up record: NCCL versions and its CUDA, the
 * driver, the NCCL_* environment, the command line, the date and the NICs. Each from the lines NCCL_DEBUG=INFO,
 * nvidia-smi and the shell print; null or empty where the log does not say.
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
 */
public record LogFacts(List<String> ncclVersions, String ncclCuda, String driverVersion,
                       Map<String, String> environment, String commandLine, String date, Integer nicsPerHost) {

    private static final Pattern NCCL_VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)(?:\\S*\\+cuda(\\d+\\.\\d+))?");
    private static final Pattern DRIVER = Pattern.compile("Driver Version: ?(\\d[\\d.]+)");
    private static final Pattern CUDA_DRIVER = Pattern.compile("cudaDriverVersion (\\d+)");
    private static final Pattern ENV_SET = Pattern.compile("\\b(NCCL_[A-Z0-9_]+) set by environment to (\\S*)");
    private static final Pattern ENV_ASSIGN = Pattern.compile("(?:^|[\\s\"'])(NCCL_[A-Z0-9_]+)=(\"[^\"]*\"|'[^']*'|[^\\s\"']*)");
    private static final Pattern LAUNCH = Pattern.compile("\\b[a-z_]+_perf(?:_mpi)?\\b");
    private static final Pattern PROMPT = Pattern.compile("^\\s*(?:[\\w@.~:/-]*\\$|[\\w@.~:/-]+#|[+>])\\s+(.*)$");
    private static final Pattern ISO_DATE = Pattern.compile("\\b(20\\d\\d-[01]\\d-[0-3]\\d)[T ][0-2]\\d:[0-5]\\d");
    private static final Pattern DATE_OUTPUT = Pattern.compile(
            "^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \\d]\\d .*\\b(20\\d\\d)$");

    public LogFacts {
        if (nicsPerHost != null && nicsPerHost < 1) {
            throw new IllegalArgumentException("NICs per host must be at least 1, got " + nicsPerHost);
        }
        // a JSON of the run that names none of them reads back as none
        ncclVersions = ncclVersions == null ? List.of() : List.copyOf(ncclVersions);
        environment = Collections.unmodifiableMap(environment == null ? new TreeMap<>() : new TreeMap<>(environment));
    }

    public static LogFacts none() {
        return new LogFacts(List.of(), null, null, Map.of(), null, null, null);
    }

    public static LogFacts of(List<String> lines) {
        List<String> versions = new ArrayList<>();
        String cuda = null;
        String driver = null;
        String cudaDriver = null;
        Map<String, String> env = new TreeMap<>();
        String command = null;
        String date = null;
        for (String line : continued(lines)) {
            Matcher v = NCCL_VERSION.matcher(line);
            if (v.find()) {
                if (!versions.contains(v.group(1))) {
                    versions.add(v.group(1));
                }
                cuda = cuda == null ? v.group(2) : cuda;
            }
            Matcher d = DRIVER.matcher(line);
            if (driver == null && d.find()) {
                driver = d.group(1);
            }
            Matcher cd = CUDA_DRIVER.matcher(line);
            if (cudaDriver == null && cd.find()) {
                int code = Integer.parseInt(cd.group(1));
                cudaDriver = "supports CUDA " + code / 1000 + "." + code % 1000 / 10;
            }
            Matcher e = ENV_SET.matcher(line);
            while (e.find()) {
                env.putIfAbsent(e.group(1), e.group(2).replaceFirst("[.,;]$", ""));
            }
            if (command == null && LAUNCH.matcher(line).find() && !line.contains("NCCL INFO")
                    && !line.strip().startsWith("#")) {
                Matcher p = PROMPT.matcher(line);
                if (p.matches() || line.contains("mpirun") || line.contains("srun ")) {
                    command = (p.matches() ? p.group(1) : line).strip();
                }
            }
            if (command != null && line.contains(command) || line.startsWith("export ")) {
                Matcher a = ENV_ASSIGN.matcher(line);
                while (a.find()) {
                    env.putIfAbsent(a.group(1), a.group(2).replaceAll("^[\"']|[\"']$", "").replaceFirst("[.,;]$", ""));
                }
            }
            if (date == null) {
                Matcher iso = ISO_DATE.matcher(line);
                Matcher out = DATE_OUTPUT.matcher(line.strip());
                date = iso.find() ? iso.group(1) : out.matches() ? line.strip() : null;
            }
        }
        OptionalInt nics = NicCount.fromLines(lines);
        return new LogFacts(versions, cuda, driver != null ? driver : cudaDriver, env, command, date,
                nics.isPresent() ? nics.getAsInt() : null);
    }

    /** The lines with a shell's continuations joined: {@code mpirun ... \} and the lines it runs on to are one. */
    private static List<String> continued(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        StringBuilder open = null;
        for (String line : lines) {
            String stripped = line.stripTrailing();
            boolean goesOn = stripped.endsWith("\\");
            String part = goesOn ? stripped.substring(0, stripped.length() - 1).stripTrailing() : line;
            if (open == null) {
                open = new StringBuilder(part);
            } else {
                open.append(' ').append(part.strip());
            }
            if (!goesOn) {
                out.add(open.toString());
                open = null;
            }
        }
        if (open != null) {
            out.add(open.toString());
        }
        return out;
    }
}
