package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.measure.Collective;

/**
 * The busbw file of SimAI's analytical mode ({@code SimAI_analytical -busbw FILE}): its parser skips the first
 * line and lines starting with {@code #}, takes a line ending in {@code :} as a section (TP, DP, EP) and in a section
 * {@code key: value} with the key cut at its first comma, {@code null} for no value. It reads allreduce, allgather,
 * reducescatter and alltoall under TP (a group inside a server) and DP (across servers), in GB/s of 2^30 bytes (its
 * GBps), as a collective's busbw: SimAI times a collective of M bytes on n ranks as M × its bus factor / busbw, with
 * no latency term, so the file carries no latency.
 *
 * <p>From each entry ({@link NetworkTiers}): a tier inside one host gives TP its collective's busbw (the single-tier
 * row's busbw, or the hierarchical form's NVLink tier); a run across hosts gives DP the run's busbw at its largest
 * configuration (the summary row's, what SimAI's formula reproduces for a group of that size). A value the fit
 * does not determine is {@code null}; a collective SimAI does not read, or a key an earlier entry filled, is listed
 * in {@link Result#skipped}. EP (expert-parallel groups) is left out: no run here measures one.
 */
public final class SimAiBusBw {

    /** The text, whether any value was written, and what was not. */
    public record Result(String text, int values, List<String> skipped) {
        public Result {
            skipped = List.copyOf(skipped);
        }
    }

    static final List<String> SECTIONS = List.of("TP", "DP");
    static final List<Collective> KEYS = List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.ALL_TO_ALL);
    /** Bytes in SimAI's GB (its GBps is 1 / 2^30). */
    static final double SIMAI_GB = 1L << 30;

    private record Value(double busBwGBps, String from) {
    }

    private SimAiBusBw() {
    }

    /** @param heading the comment lines the file starts with (the first is the line SimAI skips) */
    public static Result of(CalibrationReport report, List<String> heading) {
        Map<String, Value> values = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        for (CalibrationEntry e : report.entries()) {
            Optional<NetworkTiers> t = NetworkTiers.of(e);
            if (t.isEmpty()) {
                continue;
            }
            NetworkTiers n = t.get();
            if (!KEYS.contains(n.collective())) {
                skipped.add(n.id() + ": SimAI reads no busbw for " + n.collective().ncclName());
                continue;
            }
            String key = n.collective().cliName();
            Optional<NetworkTiers.Tier> inHost = n.tiers().stream().filter(NetworkTiers.Tier::withinHost)
                    .filter(x -> x.ranks() > 1).findFirst();
            boolean acrossHosts = n.hosts() != null && n.hosts() > 1;
            if (inHost.isPresent()) {
                put(values, skipped, "TP", key, inHost.get().busBwGBps(), n.id() + ", " + inHost.get().name()
                        + ", " + inHost.get().ranks() + " ranks: " + n.source(), n.id());
            } else if (!acrossHosts) {
                skipped.add(n.id() + ": TP: " + Optional.ofNullable(n.refused()).orElse("no tier inside one host"));
            }
            if (acrossHosts) {
                put(values, skipped, "DP", key, n.runBusBwGBps(), n.id() + ", the run's busbw at " + n.runRanks()
                        + " ranks on " + n.hosts() + " hosts: " + n.runSource(), n.id());
            }
        }
        return new Result(text(values, heading, skipped), (int) values.values().stream().filter(v -> v != null)
                .count(), skipped);
    }

    private static void put(Map<String, Value> values, List<String> skipped, String section, String key,
                            Double busBwGBps, String from, String id) {
        String at = section + "." + key;
        if (values.containsKey(at)) {
            skipped.add(id + ": " + at + " was written from an earlier entry");
            return;
        }
        if (busBwGBps == null) {
            skipped.add(id + ": " + at + " is null: the fit does not determine its busbw (the summary's -)");
            values.put(at, null);
            return;
        }
        values.put(at, new Value(busBwGBps, from));
    }

    private static String text(Map<String, Value> values, List<String> heading, List<String> skipped) {
        List<String> lines = new ArrayList<>();
        heading.forEach(h -> lines.add("# " + h));
        values.forEach((k, v) -> {
            if (v != null) {
                lines.add("# " + k + ": busbw " + NetworkTiers.fmt(v.busBwGBps()) + " GB/s (decimal), from "
                        + v.from());
            }
        });
        skipped.forEach(s -> lines.add("# not written: " + s));
        for (String section : SECTIONS) {
            lines.add(section + ":");
            for (Collective c : KEYS) {
                Value v = values.get(section + "." + c.cliName());
                lines.add(c.cliName() + ": " + (v == null ? "null"
                        : String.format(Locale.ROOT, "%.3f", v.busBwGBps() * 1e9 / SIMAI_GB)));
            }
        }
        return AstraSimNetwork.wrapComments(lines);
    }
}
