package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.ncclharness.calibration.read.LogFacts;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * What a bring-up record must say about the run so that it stands alone: where it ran, on what, with which
 * software, when, how it was launched and with which NCCL settings. Each fact from the run's own table
 * preamble, the log's other lines, or a bundled dataset's metadata; "not stated" where none says it.
 *
 * @param facts name → value, in the order a reader looks for them
 */
public record RunContext(List<Map.Entry<String, String>> facts) {

    public static final String NOT_STATED = "not stated";

    public RunContext {
        facts = List.copyOf(facts);
    }

    /** @param input the input the run was read from: its lines' facts, and a bundled dataset's metadata */
    public static RunContext of(Sweep run, RunDocument input) {
        LogFacts log = input.facts();
        RunDocument.Stated meta = input.stated();
        List<Map.Entry<String, String>> f = new ArrayList<>();
        Set<String> hosts = run.devices().stream().map(Device::host).filter(h -> h != null && !h.isBlank())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        Integer hostCount = run.hardware() == null ? null : run.hardware().hosts();
        f.add(Map.entry("hosts", hosts.isEmpty() ? hostCount == null ? NOT_STATED : hostCount + " (names not stated)"
                : String.join(", ", hosts) + " (" + hosts.size() + ")"));
        String gpu = run.devices().stream().map(Device::name).filter(n -> n != null && !n.isBlank()).findFirst()
                .orElse(run.hardware() == null ? null : run.hardware().gpuModel());
        f.add(Map.entry("GPUs", (run.ranks() == null ? "" : run.ranks() + " x ") + (gpu == null ? "model "
                + NOT_STATED : gpu)));
        RunInfo info = run.run() == null ? RunInfo.unknown() : run.run();
        String nccl = !log.ncclVersions().isEmpty() ? String.join(", ", log.ncclVersions())
                + (log.ncclVersions().size() > 1 ? " (ranks differ)" : "")
                : meta.ncclVersion() != null ? meta.ncclVersion()
                : info.libraryVersion() != null ? info.libraryVersion() + " (as nccl-tests prints its code)" : null;
        f.add(Map.entry("NCCL", or(nccl)));
        f.add(Map.entry(info.library() == null ? "nccl-tests" : info.library(), or(info.testsVersion())));
        f.add(Map.entry("CUDA (NCCL built for)", or(log.ncclCuda())));
        f.add(Map.entry("driver", or(log.driverVersion())));
        f.add(Map.entry("date", or(log.date() != null ? log.date() : meta.date())));
        f.add(Map.entry("command line", log.commandLine() != null ? log.commandLine() : preamble(info)));
        f.add(Map.entry("NCCL_* environment", log.environment().isEmpty() ? NOT_STATED
                : log.environment().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(" "))));
        if (meta.sourceUrl() != null) {
            f.add(Map.entry("source", meta.sourceUrl()));
        }
        return new RunContext(f);
    }

    /** The nccl-tests flags the preamble implies, where the log has no command line. */
    private static String preamble(RunInfo i) {
        if (i.program() == null) {
            return NOT_STATED;
        }
        StringBuilder b = new StringBuilder(i.program());
        flag(b, "-t", i.nThread());
        flag(b, "-g", i.nGpus());
        flag(b, "-b", i.minBytes());
        flag(b, "-e", i.maxBytes());
        if (i.step() != null) {
            b.append(i.step().endsWith("(factor)") ? " -f " : " -i ").append(i.step().replaceAll("\\(.*", ""));
        }
        flag(b, "-w", i.warmupIters());
        flag(b, "-n", i.iters());
        flag(b, "-m", i.aggIters());
        flag(b, "-c", i.validation());
        flag(b, "-G", i.graph());
        return b + " (as the log's preamble states it; the launcher line is not in the log)";
    }

    private static void flag(StringBuilder b, String letter, Object value) {
        if (value != null) {
            b.append(' ').append(letter).append(' ').append(value);
        }
    }

    private static String or(String s) {
        return s == null ? NOT_STATED : s;
    }
}
