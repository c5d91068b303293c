package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationReport;

/**
 * The network configuration ASTRA-sim's analytical backend reads (astra-network-analytical's NetworkParser: YAML
 * lists {@code topology}, {@code npus_count}, {@code bandwidth}, {@code latency}, one element per dimension, all of
 * the same length; every npus_count above 1, every bandwidth above 0, every latency at least 0) from one entry's
 * {@link NetworkTiers}.
 *
 * <p>Units as that backend counts them: bandwidth in GB/s of 2^30 bytes (its bw_GBps_to_Bpns), so the fit's
 * decimal GB/s are multiplied by 10^9 / 2^30; latency in ns per link. Every dimension is a {@code Ring}: its
 * congestion-unaware ring sends to a neighbour in one hop, and a send costs hops × latency + bytes / bandwidth, which
 * with the fit's per-step latency and per-rank bandwidth is the fit's ring step (a {@code Switch} would count two
 * hops). Across domains each of a domain's g GPUs runs its own ring there, so the per-domain β_IB is shared: β_IB /
 * g each.
 *
 * <p>A file describes one network, so one entry is written: the first whose every dimension is known. Each later
 * entry, and each earlier one with a dimension the fit does not determine, is listed in {@link Result#skipped}; a
 * dimension of one rank (one domain, one GPU per domain) is no dimension and is left out.
 */
public final class AstraSimNetwork {

    /** The text (empty where no entry could be written) and the entries not written, with why. */
    public record Result(Optional<String> text, Optional<NetworkTiers> written, List<String> skipped) {
        public Result {
            skipped = List.copyOf(skipped);
        }
    }

    /** Bytes in ASTRA-sim's GB. */
    static final double ASTRA_GB = 1L << 30;

    private AstraSimNetwork() {
    }

    /** @param heading the comment lines the file starts with */
    public static Result of(CalibrationReport report, List<String> heading) {
        List<String> skipped = new ArrayList<>();
        NetworkTiers chosen = null;
        for (CalibrationEntry e : report.entries()) {
            Optional<NetworkTiers> tiers = NetworkTiers.of(e);
            if (tiers.isEmpty()) {
                continue;
            }
            if (chosen != null) {
                skipped.add(e.dataset().id() + ": one network per file, " + chosen.id() + " was written");
                continue;
            }
            Optional<String> why = tiers.get().incomplete();
            if (why.isPresent()) {
                skipped.add(e.dataset().id() + ": " + why.get());
            } else if (dimensions(tiers.get()).isEmpty()) {
                skipped.add(e.dataset().id() + ": one rank, no network");
            } else {
                chosen = tiers.get();
            }
        }
        if (chosen == null) {
            return new Result(Optional.empty(), Optional.empty(), skipped);
        }
        return new Result(Optional.of(text(chosen, heading, skipped)), Optional.of(chosen), skipped);
    }

    /** The tiers of more than one rank. */
    private static List<NetworkTiers.Tier> dimensions(NetworkTiers t) {
        return t.tiers().stream().filter(x -> x.ranks() > 1).toList();
    }

    private static String text(NetworkTiers t, List<String> heading, List<String> skipped) {
        List<NetworkTiers.Tier> dims = dimensions(t);
        List<String> lines = new ArrayList<>();
        heading.forEach(h -> lines.add("# " + h));
        lines.add("# From " + t.id() + " (" + t.collective().ncclName() + "): " + t.source() + ".");
        int perRing = t.tiers().get(0).ranks();
        for (int i = 0; i < dims.size(); i++) {
            NetworkTiers.Tier d = dims.get(i);
            boolean shared = t.tiers().size() > 1 && d != t.tiers().get(0);
            lines.add("# dimension " + (i + 1) + ", " + d.name() + ": " + d.ranks() + " ranks, busbw "
                    + NetworkTiers.fmt(d.busBwGBps()) + " GB/s (decimal)" + (shared ? " per domain, / " + perRing
                    + " GPUs" : "") + ", " + NetworkTiers.fmt(d.stepLatencyUs()) + " us per ring step");
        }
        t.leftOut().forEach(x -> lines.add("# not written: " + x));
        skipped.forEach(x -> lines.add("# not written: " + x));
        lines.add("topology: [ " + dims.stream().map(d -> "Ring").collect(Collectors.joining(", ")) + " ]");
        lines.add("npus_count: [ " + dims.stream().map(d -> String.valueOf(d.ranks()))
                .collect(Collectors.joining(", ")) + " ]");
        lines.add("bandwidth: [ " + dims.stream().map(d -> num(bandwidth(t, d))).collect(Collectors.joining(", "))
                + " ]  # GB/s (2^30 B/s)");
        lines.add("latency: [ " + dims.stream().map(d -> num(d.stepLatencyUs() * 1e3))
                .collect(Collectors.joining(", ")) + " ]  # ns");
        return wrapComments(lines);
    }

    /** A dimension's per-rank link bandwidth in ASTRA-sim's GB/s. */
    static double bandwidth(NetworkTiers t, NetworkTiers.Tier d) {
        boolean acrossDomains = t.tiers().size() > 1 && d != t.tiers().get(0);
        double perRankGBps = acrossDomains ? d.busBwGBps() / t.tiers().get(0).ranks() : d.busBwGBps();
        return perRankGBps * 1e9 / ASTRA_GB;
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** Comment lines wrapped at 120 columns, each piece a comment of its own. */
    static String wrapComments(List<String> lines) {
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            if (!line.startsWith("#") || line.length() <= 120) {
                out.append(line).append('\n');
                continue;
            }
            String rest = line.substring(2);
            while (rest.length() > 118) {
                int cut = rest.lastIndexOf(' ', 118);
                cut = cut <= 0 ? 118 : cut;
                out.append("# ").append(rest, 0, cut).append('\n');
                rest = rest.substring(cut).stripLeading();
            }
            out.append("# ").append(rest).append('\n');
        }
        return out.toString();
    }
}
