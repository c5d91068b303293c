package org.ncclharness.harness.runs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.harness.options.CliWording;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.resolve.Contradiction;
import org.ncclharness.calibration.resolve.Missing;
import org.ncclharness.calibration.resolve.NamedInterconnect;
import org.ncclharness.calibration.resolve.ResolveException;
import org.ncclharness.calibration.resolve.ResolveNote;

/**
 * The one place that turns what the calibration core says of a run's facts (a {@link Missing} fact, a
 * {@link ResolveNote}, a {@link Contradiction}) into words that name this command line's flags: the core names
 * facts, never flags, and each flag is spelled in {@link CliWording} alone.
 */
public final class FactAdvice {

    /** The networks a message asking for one names as examples (a wrong name gets the whole vocabulary). */
    private static final String NETWORK_EXAMPLES = "IB-NDR, RoCE-400G, EFA, Slingshot11, ...";

    private FactAdvice() {
    }

    /** A contradiction as the one-line input error a user fixes (exit 2). */
    public static InputException error(ResolveException e) {
        Contradiction c = e.contradiction();
        if (c instanceof Contradiction.CountsDiffer d) {
            return new InputException(e.file(), 0, "the file's " + words(d.fact()) + " is " + d.stated() + " but "
                    + name(d.fact()) + " says " + d.hinted() + "; drop the flag or fix it");
        }
        if (c instanceof Contradiction.RatesDiffer r) {
            // in bits, as a NIC's speed is sold and as the flag is usually typed
            return new InputException(e.file(), 0, String.format(Locale.ROOT, "the file's NIC speed is %s Gb/s but %s"
                    + " says %s Gb/s; drop the flag or fix it", gbps(r.statedGBps()), name(r.fact()),
                    gbps(r.hintedGBps())));
        }
        if (c instanceof Contradiction.CountBelowOne b) {
            return new InputException(b.hinted() ? name(b.fact()) : e.file(), 0, words(b.fact())
                    + " must be at least 1, got " + b.value());
        }
        if (c instanceof Contradiction.UnevenHosts u) {
            return new InputException(e.file(), 0, u.ranks() + " GPUs do not split evenly over " + u.hosts()
                    + " nodes; check " + name(Setting.GPU_COUNT) + " and " + name(Setting.HOST_COUNT));
        }
        Contradiction.UnevenDomains d = (Contradiction.UnevenDomains) c;
        return new InputException(e.file(), 0, d.ranks() + " GPUs do not split into domains of " + d.domainSize()
                + "; check " + name(Setting.DOMAIN_SIZE));
    }

    private static String words(Setting fact) {
        return switch (fact) {
            case GPU_COUNT -> "GPU count";
            case NICS_PER_HOST -> "NICs per host";
            default -> "node count";
        };
    }

    /** A rate in GB/s as Gb/s: a whole number without decimals (100, 400), else four significant digits. */
    private static String gbps(double gBps) {
        double bits = gBps * 8;
        return bits == Math.rint(bits) ? String.format(Locale.ROOT, "%.0f", bits)
                : String.format(Locale.ROOT, "%.4g", bits);
    }

    /**
     * What a command that needs every fact says where some are missing: the facts a file does not say, all in one
     * line; else the first other fact it must be told.
     */
    public static String missing(List<Missing> missing) {
        List<String> unsaid = new ArrayList<>();
        for (Missing m : missing) {
            if (m instanceof Missing.GpuCount) {
                unsaid.add("how many GPUs ran (no '# Using devices' lines, and busbw/algbw does not tell): pass "
                        + usage(Setting.GPU_COUNT));
            } else if (m instanceof Missing.Interconnect i) {
                unsaid.add(interconnect(i));
            }
        }
        if (!unsaid.isEmpty()) {
            return "the file does not say " + String.join("; nor ", unsaid);
        }
        return one(missing.get(0));
    }

    /** One missing fact as the advice that states it. */
    public static String one(Missing m) {
        if (m instanceof Missing.GpuCount || m instanceof Missing.Interconnect) {
            return missing(List.of(m));
        }
        if (m instanceof Missing.HostCount h) {
            return switch (h.why()) {
                case NETWORK_NAMED -> "the file does not say how many hosts ran, and " + said(h.network())
                        + " names a network between hosts: pass " + usage(Setting.HOST_COUNT) + " (1 if it did run on"
                        + " one host)";
                case PARTIAL_DEVICE_LIST -> "the device list shows " + h.listedRanks() + " of the " + h.ranks()
                        + " ranks, on " + h.listedHosts() + " hosts, so the host count is not known: pass "
                        + usage(Setting.HOST_COUNT);
                case PARTIAL_LIST_NO_LAUNCH -> "the device list shows " + h.listedRanks() + " of the " + h.ranks()
                        + " ranks and no launch line states the hosts: pass " + usage(Setting.HOST_COUNT) + " and,"
                        + " across hosts, " + usage(Setting.INTERCONNECT) + " for the network";
                case UNSTATED -> "the file does not say how many hosts ran: pass " + usage(Setting.HOST_COUNT);
            };
        }
        if (m instanceof Missing.Network n) {
            return "the run spans " + n.hosts() + " hosts" + (n.perHost() != null && n.perHost() > 1 ? ": inside a"
                    + " host " + n.intra() + " (from the GPU name " + n.gpu() + "), but" : ", and") + " the network"
                    + " between them is not stated" + networkSeen(n.nicDevices()) + ": pass "
                    + usage(Setting.INTERCONNECT) + " (" + NETWORK_EXAMPLES + ")";
        }
        Missing.FabricInsideHost f = (Missing.FabricInsideHost) m;
        NamedInterconnect one = f.network();
        return "the run spans " + f.hosts() + " hosts, so " + said(one) + " names the network between them; the"
                + " fabric inside a host is not known from the GPU name (" + (f.gpu() == null ? "not stated" : f.gpu())
                + "): pass " + usage(Setting.FABRIC_INSIDE_HOST) + " " + name(Setting.NETWORK_BETWEEN_HOSTS) + " "
                + one.name() + (one.fromLog() || one.asTwoTiers() ? "" : " instead of " + name(Setting.INTERCONNECT));
    }

    /** A note for the user: what was decided that the file did not say, and the flag that overrides it. */
    public static String note(ResolveNote note) {
        if (note instanceof ResolveNote.HostsAssumedOne) {
            return "the file does not say how many nodes ran: 1 assumed (pass " + usage(Setting.HOST_COUNT) + ")";
        }
        if (note instanceof ResolveNote.FabricFromGpuName f) {
            return "interconnect " + f.intra() + " taken from the GPU name " + f.gpu() + " ("
                    + name(Setting.INTERCONNECT) + " overrides it)";
        }
        if (note instanceof ResolveNote.NetworkBetweenHosts n) {
            return said(n.network()) + " taken as the network between the " + (n.intra() == null ? "hosts"
                    : n.hosts() + " hosts; inside a host " + n.intra() + " (from the GPU name " + n.gpu() + ")");
        }
        if (note instanceof ResolveNote.LogNetworkOverridden o) {
            return "the log says " + o.log().interconnect() + " (" + o.log().where() + ": '" + o.log().evidence()
                    + "'), and " + name(Setting.INTERCONNECT) + " " + o.stated() + " overrides it: drop the flag for"
                    + " this file if the log is right";
        }
        ResolveNote.NetworkOnOneHost h = (ResolveNote.NetworkOnOneHost) note;
        return name(Setting.INTERCONNECT) + " " + h.network() + " names a network between hosts, and this run is on"
                + " one host: inside it " + h.intra() + " is taken (from the GPU name " + h.gpu() + "; "
                + usage(Setting.FABRIC_INSIDE_HOST) + " where its GPUs did talk over the network)";
    }

    /** Every note, in words. */
    public static List<String> notes(List<ResolveNote> notes) {
        return notes.stream().map(FactAdvice::note).toList();
    }

    /** An interconnect as its source states it: the flag, or the log's lines with the flag that overrides them. */
    private static String said(NamedInterconnect one) {
        if (one.fromLog()) {
            return one.name() + " (from " + one.log().where() + ": '" + one.log().evidence()
                    + "'; " + name(Setting.INTERCONNECT) + " overrides it)";
        }
        return name(one.asTwoTiers() ? Setting.NETWORK_BETWEEN_HOSTS : Setting.INTERCONNECT) + " " + one.name();
    }

    /**
     * What to ask for when neither a flag nor the GPU name gives the interconnect: across hosts the fabric inside
     * one and the network between them are two facts, and --interconnect alone would be refused there.
     */
    private static String interconnect(Missing.Interconnect i) {
        if (i.hosts() == null || i.hosts() <= 1 || i.perHost() == null) {
            return "its interconnect: " + eitherTier();
        }
        if (i.perHost() == 1) {
            return "the network between its " + i.hosts() + " hosts (one GPU each): pass "
                    + usage(Setting.INTERCONNECT) + " (" + NETWORK_EXAMPLES + ")";
        }
        return "the fabric inside a host (the GPU name " + (i.gpu() == null ? "is not stated" : i.gpu() + " is not one"
                + " hardware/gpu-fabrics.json knows") + "), nor the network between its " + i.hosts() + " hosts: pass "
                + usage(Setting.FABRIC_INSIDE_HOST) + " (NVLink4, PCIe5, ...) " + usage(Setting.NETWORK_BETWEEN_HOSTS)
                + " (" + NETWORK_EXAMPLES + ")";
    }

    /** How a file's interconnect is stated, one tier or two, where nothing tells how many hosts it spans. */
    public static String eitherTier() {
        return "pass " + usage(Setting.INTERCONNECT) + " (one tier) or " + usage(Setting.FABRIC_INSIDE_HOST) + " ["
                + usage(Setting.NETWORK_BETWEEN_HOSTS) + "] (two tiers)";
    }

    private static String name(Setting s) {
        return CliWording.INSTANCE.name(s);
    }

    private static String usage(Setting s) {
        return CliWording.INSTANCE.usage(s);
    }

    /**
     * What a log's NET/IB lines show of the network, for the message that asks for it: the NICs and their link
     * layer, not their speed (NCCL prints none), with the names that layer can take; empty where they show none.
     */
    private static String networkSeen(List<String> devices) {
        if (devices.isEmpty()) {
            return "";
        }
        boolean ib = devices.stream().anyMatch(d -> d.endsWith("/IB") || d.contains("/IB/"));
        boolean roce = devices.stream().anyMatch(d -> d.contains("/RoCE"));
        String layer = ib && roce ? "InfiniBand and RoCE" : ib ? "InfiniBand" : roce ? "RoCE" : "RDMA";
        List<String> names = HardwareFacts.bundled().vocabulary().stream()
                .filter(n -> ib && n.startsWith("IB-") || roce && n.startsWith("RoCE-")).toList();
        return " (its NET/IB lines name " + devices.size() + " " + layer + " NICs per host, not their speed"
                + (names.isEmpty() ? "" : ": one of " + String.join(", ", names)) + ")";
    }
}
