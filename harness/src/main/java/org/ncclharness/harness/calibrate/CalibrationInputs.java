package org.ncclharness.harness.calibrate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.LogNetwork;
import org.ncclharness.calibration.io.NicCount;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationInput;
import org.ncclharness.harness.InputErrors;
import org.ncclharness.harness.PredictedRows;
import org.ncclharness.harness.RunInputs;
import org.ncclharness.harness.RunMetadataOptions;
import org.ncclharness.harness.TableName;

/**
 * Turns what {@code calibrate} was given into {@link CalibrationInput}s: every bundled dataset, or files (an
 * nccl-tests/rccl-tests log of any generation, the project CSV, nccl-tests' or our JSON; {@link Inputs} tells
 * them apart) whose missing configuration comes from the command-line flags. A missing fact is named in the error, never guessed.
 */
public final class CalibrationInputs {

    /** The networks a message asking for one names as examples (the vocabulary is in the error for a wrong name). */
    private static final String NETWORK_EXAMPLES = "IB-NDR, RoCE-400G, EFA, Slingshot11, ...";

    /**
     * What the flags say about files that do not say it themselves: one tier ({@code interconnect}) or two
     * ({@code intra}, {@code inter}, {@code domainSize}), and {@code collective} for tables whose log does not
     * name its program and whose rows do not tell, {@code nics} for logs that do not print their
     * {@code NET/IB : Using} lines or networks with no fixed NIC rate.
     */
    public record Flags(Integer gpus, Integer nodes, String interconnect, String intra, String inter,
                        Integer domainSize, Collective collective, Nics nics, String interconnectFrom,
                        PredictedRows predicted) {

        public Flags {
            nics = nics == null ? Nics.UNKNOWN : nics;
            predicted = predicted == null ? PredictedRows.REFUSED : predicted;
        }

        /** What the command line says; {@code interconnectFrom} is for an interconnect read from the file. */
        public Flags(Integer gpus, Integer nodes, String interconnect, String intra, String inter, Integer domainSize,
                     Collective collective, Nics nics) {
            this(gpus, nodes, interconnect, intra, inter, domainSize, collective, nics, null, null);
        }

        /** What --allow-predicted says of predicted tables (refused without it). */
        public Flags withPredicted(PredictedRows p) {
            return new Flags(gpus, nodes, interconnect, intra, inter, domainSize, collective, nics, interconnectFrom, p);
        }

        /** One tier: what {@code --gpus}, {@code --nodes}, {@code --interconnect} say. */
        public Flags(Integer gpus, Integer nodes, String interconnect) {
            this(gpus, nodes, interconnect, null, null, null, null, null);
        }

        Flags withConfiguration(Integer g, Integer n) {
            return new Flags(g, n, interconnect, intra, inter, domainSize, collective, nics, interconnectFrom,
                    predicted);
        }

        /** The interconnect as if given, {@code from} saying where it came from (for notes and messages). */
        Flags withInterconnect(String name, String from) {
            return new Flags(gpus, nodes, name, intra, inter, domainSize, collective, nics, from, predicted);
        }

        /** The interconnect in a note's words: the flag, or where it was read. */
        String interconnectSaid() {
            return interconnectFrom != null ? interconnectFrom : "--interconnect " + interconnect;
        }
    }

    private CalibrationInputs() {
    }

    static List<CalibrationInput> bundled() {
        List<CalibrationInput> out = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            out.add(of(d));
        }
        return out;
    }

    /** A bundled dataset with what its metadata adds (the forced algorithm, the flags, the NICs). */
    public static CalibrationInput of(Dataset d) {
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags(),
                d.metadata().nics());
    }

    public static List<CalibrationInput> files(List<Path> files, Flags flags, HardwareFacts facts) {
        return files(files, flags, Map.of(), facts);
    }

    /**
     * @param configs {@code --config FILE=GPUSxHOSTS}: the configuration of files whose logs do not show it
     */
    static List<CalibrationInput> files(List<Path> files, Flags flags, Map<String, String> configs, HardwareFacts facts) {
        checkFlags(flags, facts);
        checkConfigs(files, configs);
        return read(files, flags, configs, RunMetadataOptions.networkFlag(flags.interconnect(), flags.inter(), facts));
    }

    private static void checkFlags(Flags flags, HardwareFacts facts) {
        for (String[] f : new String[][] {{"--interconnect", flags.interconnect()}, {"--intra", flags.intra()},
            {"--inter", flags.inter()}}) {
            if (f[1] != null) {
                facts.interconnectNamed(f[0], f[1]);
            }
        }
        if (flags.intra() != null && flags.inter() != null) {
            boolean intraJoinsHosts = facts.topologyOf(facts.interconnectNamed("--intra", flags.intra())).betweenHosts();
            boolean interJoinsHosts = facts.topologyOf(facts.interconnectNamed("--inter", flags.inter())).betweenHosts();
            if (intraJoinsHosts && !interJoinsHosts) {
                throw new InputException("--intra", 0, flags.intra() + " is a network between hosts and --inter "
                        + flags.inter() + " a fabric inside one: swapped? pass --intra " + flags.inter() + " --inter "
                        + flags.intra());
            }
        }
        if (flags.domainSize() != null && flags.domainSize() < 1) {
            throw new InputException("--domain-size", 0, "must be at least 1, got " + flags.domainSize());
        }
    }

    private static void checkConfigs(List<Path> files, Map<String, String> configs) {
        for (String f : configs.keySet()) {
            if (files.stream().noneMatch(p -> p.toString().equals(f))) {
                throw new InputException("--config", 0, f + " is not one of the files given");
            }
        }
    }

    private static List<CalibrationInput> read(List<Path> files, Flags flags, Map<String, String> configs,
                                               Optional<String> network) {
        List<CalibrationInput> out = new ArrayList<>();
        for (Path p : files) {
            Flags fileFlags = configuration(configs.get(p.toString()), flags);
            List<Sweep> sweeps = flags.predicted().admit(p.toString(), Inputs.read(p.toString(), flags.collective()),
                    PredictedRows.Command.CALIBRATE);
            List<String> skipped = new ArrayList<>();
            Nics nics = flags.nics();
            boolean nicsLooked = nics.perHost() != null;
            for (int i = 0; i < sweeps.size(); i++) {
                String id = sweeps.size() == 1 ? p.toString() : p + "#" + (i + 1);
                Sweep s = sweeps.get(i);
                if (!s.collective().known()) {
                    // No model applies to a table whose collective is not known: say so, fit the others
                    String why = s.notes().stream().filter(n -> n.contains("pass --collective")).findFirst()
                            .orElse("its collective is unknown");
                    skipped.add(id + " (" + TableName.of(s) + "): " + why);
                    continue;
                }
                Sweep table = complete(p.toString(), s, fileFlags, network);
                if (!nicsLooked && table.hardware().hosts() > 1) {
                    // read again only where a network tier needs them, once per file
                    nics = nics.orElse(new Nics(nicsPrinted(p), null));
                    nicsLooked = true;
                }
                out.add(new CalibrationInput(id, table, table.run() == null ? null : table.run().forcedAlgo(),
                        List.of(), nics));
            }
            if (!skipped.isEmpty() && out.stream().noneMatch(c -> c.id().startsWith(p.toString()))) {
                // every missing fact in one message: a file read here takes its interconnect from the flags
                String fabric = flags.interconnect() == null && flags.intra() == null ? "; nor does it say its"
                        + " interconnect: pass --interconnect NAME (one tier) or --intra NAME [--inter NAME] (two tiers)"
                        : "";
                throw new InputException(p.toString(), 0, "no table can be calibrated: " + String.join("; ", skipped)
                        + fabric);
            }
            skipped.forEach(k -> System.err.println("# skipped " + k));
        }
        return out;
    }

    /**
     * What a log's NET/IB lines show of the network, for the message that asks for it: the NICs and their link
     * layer, not their speed (NCCL prints none), with the names that layer can take; empty where they show none.
     */
    private static String networkSeen(String file) {
        if (!RunInputs.isFile(file) || file.equals("-")) {
            return "";
        }
        Set<String> devices = new LinkedHashSet<>();
        Inputs.text(file).lines().forEach(l -> devices.addAll(NicCount.devices(l)));
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

    /** The NICs a log's NCCL INFO lines say each host used; null for stdin, which cannot be read twice. */
    private static Integer nicsPrinted(Path p) {
        if (!RunInputs.isFile(p.toString()) || p.toString().equals("-")) {
            return null;
        }
        OptionalInt n = NicCount.fromLines(Inputs.text(p.toString()).lines()::iterator);
        return n.isPresent() ? n.getAsInt() : null;
    }

    /**
     * Each argument a bundled dataset id (when no such file exists) or a file. Every argument is read before any
     * error is raised, so a folder of old logs with several bad ones names them all at once, one line each.
     */
    static List<CalibrationInput> bundledOrFiles(List<Path> args, Flags flags, Map<String, String> configs,
                                                 HardwareFacts facts) {
        checkFlags(flags, facts);
        checkConfigs(args, configs);
        Optional<String> network = RunMetadataOptions.networkFlag(flags.interconnect(), flags.inter(), facts);
        return InputErrors.readEach(args, p -> {
            Optional<Dataset> d = RunInputs.dataset(p.toString());
            if (d.isPresent()) {
                return List.of(of(d.get()));
            }
            if (!RunInputs.isFile(p.toString()) && !p.toString().equals("-")) {
                throw RunInputs.notFound(p.toString());
            }
            return read(List.of(p), flags, configs, network);
        }).stream().flatMap(List::stream).toList();
    }

    /** {@code GPUSxHOSTS} (e.g. {@code 16x2}) over the flags' GPU and node counts; absent: the flags. */
    private static Flags configuration(String text, Flags flags) {
        if (text == null) {
            return flags;
        }
        String[] f = text.trim().toLowerCase(Locale.ROOT).split("x");
        try {
            if (f.length == 2) {
                return flags.withConfiguration(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new InputException("--config", 0, "'" + text + "': expected GPUSxHOSTS, e.g. run.txt=16x2");
    }

    /**
     * The hosts the device lines name, where they list every rank; a list that shows fewer ranks than ran (one
     * process's devices) proves only a lower bound, and says nothing of the count.
     */
    private static Integer hostsNamed(Sweep s, int ranks) {
        long n = s.devices().stream().map(Device::host).filter(x -> x != null && !x.isBlank()).distinct().count();
        return n == 0 || s.devices().size() < ranks ? null : (int) n;
    }

    /** The network a file's own lines name ({@link LogNetwork}); empty for stdin, which cannot be read twice. */
    private static Optional<LogNetwork.Named> networkNamedIn(String file) {
        return RunInputs.isFile(file) && !file.equals("-")
                ? LogNetwork.of(Inputs.text(file).lines()::iterator, HardwareFacts.bundled()) : Optional.empty();
    }

    /** The flags with the log's network as --interconnect, said as taken from the log. */
    private static Flags withNetworkOf(Flags flags, LogNetwork.Named net) {
        return flags.withInterconnect(net.interconnect(), net.interconnect() + " (from " + net.where() + ": '"
                + net.evidence() + "'; --interconnect overrides it)");
    }

    /**
     * Where the user's --interconnect names another network than the log's own lines (NCCL's, or the job's
     * environment), a note saying the flag won over them: a flag given for a folder may not fit every log in it.
     */
    private static Optional<String> flagAgainstLog(String file, Flags flags) {
        if (flags.interconnect() == null || flags.interconnectFrom() != null) {
            return Optional.empty();
        }
        return networkNamedIn(file)
                .filter(n -> !n.interconnect().equals(flags.interconnect()))
                .map(n -> "the log says " + n.interconnect() + " (" + n.where() + ": '" + n.evidence() + "'), and --interconnect "
                        + flags.interconnect() + " overrides it: drop the flag for this file if the log is right");
    }

    /**
     * What to ask for when neither a flag nor the GPU name gives the interconnect: across hosts the fabric inside
     * one and the network between them are two facts, and --interconnect alone would be refused there.
     */
    private static String interconnectsMissing(Sweep s, Integer ranks, Integer nodesFlag, String gpu) {
        Integer hosts = nodesFlag != null ? nodesFlag : s.hardware() != null && s.hardware().hosts() != null
                ? s.hardware().hosts() : ranks == null ? null : hostsNamed(s, ranks);
        if (hosts == null || hosts <= 1 || ranks == null) {
            return "its interconnect: pass --interconnect NAME (one tier) or --intra NAME [--inter NAME] (two tiers)";
        }
        if (ranks / hosts == 1) {
            return "the network between its " + hosts + " hosts (one GPU each): pass --interconnect NAME ("
                    + NETWORK_EXAMPLES + ")";
        }
        return "the fabric inside a host (the GPU name " + (gpu == null ? "is not stated" : gpu + " is not one"
                + " hardware/gpu-fabrics.json knows") + "), nor the network between its " + hosts + " hosts: pass"
                + " --intra NAME (NVLink4, PCIe5, ...) --inter NAME (" + NETWORK_EXAMPLES + ")";
    }

    /** Fills N, hosts, domains and the interconnect from the flags where the file does not say them. */
    private static Sweep complete(String file, Sweep s, Flags flags, Optional<String> network) {
        Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
        Integer ranks = RunMetadataOptions.reconcile(file, "GPU count", h.ranks(), flags.gpus(), "--gpus");
        List<String> missing = new ArrayList<>();
        if (ranks == null) {
            missing.add("how many GPUs ran (no '# Using devices' lines, and busbw/algbw does not tell): pass --gpus N");
        } else if (ranks == 1) {
            // before any fabric is asked for: no flag makes one rank communicate
            throw new InputException(file, 0, "one rank (N = 1) communicates with nobody: its busbw is 0 by"
                    + " definition and its times are a copy inside one GPU, so there is nothing to calibrate; run"
                    + " nccl-tests on 2 or more GPUs (-g 2, or mpirun -np 2)");
        }
        String gpu = s.gpuName();
        Optional<String> named = GpuFabrics.bundled().intraFor(gpu);
        boolean noFlag = flags.interconnect() == null && flags.intra() == null;
        if (noFlag && named.isEmpty() && ranks != null) {
            // one GPU per host: the network is the only tier, and a log that names it (sockets, EFA, CXI) needs no
            // fabric inside a host, whatever the GPU
            Integer seen = flags.nodes() != null ? flags.nodes() : h.hosts() != null ? h.hosts() : hostsNamed(s, ranks);
            Optional<LogNetwork.Named> net = seen != null && seen > 1 && seen.equals(ranks) ? networkNamedIn(file)
                    : Optional.empty();
            if (net.isPresent()) {
                return complete(file, s, withNetworkOf(flags, net.get()), network);
            }
        }
        if (noFlag && named.isEmpty()) {
            missing.add(interconnectsMissing(s, ranks, flags.nodes(), gpu));
        }
        if (!missing.isEmpty()) {
            throw new InputException(file, 0, "the file does not say " + String.join("; nor ", missing));
        }
        Integer hosts = RunMetadataOptions.reconcile(file, "node count", h.hosts() != null ? h.hosts()
                : hostsNamed(s, ranks), flags.nodes(), "--nodes");
        List<String> notes = new ArrayList<>(s.notes());
        RunMetadataOptions.requireHosts(file, hosts, network);
        long hostsListed = s.devices().stream().map(Device::host).distinct().count();
        if (hosts == null && hostsListed > 1) {
            // a device list cut short (an elided '...' in a README) shows some of the hosts: at least these
            throw new InputException(file, 0, "the device list shows " + s.devices().size() + " of the " + ranks
                    + " ranks, on " + hostsListed + " hosts, so the host count is not known: pass --nodes N");
        }
        if (hosts == null) {
            hosts = 1;
            notes.add("the file does not say how many nodes ran: 1 assumed (pass --nodes N)");
        }
        if (ranks % hosts != 0) {
            throw new InputException(file, 0, ranks + " GPUs do not split evenly over " + hosts
                    + " nodes; check --gpus and --nodes");
        }
        int perHost = ranks / hosts;
        if (noFlag) {
            // the GPU name tells the fabric inside a host (an SXM A100 is on NVLink3); nothing tells the network,
            // nor how many hosts a device list of one process's GPUs (and no launch line) left unsaid
            if (h.hosts() == null && flags.nodes() == null && !s.devices().isEmpty() && s.devices().size() < ranks) {
                throw new InputException(file, 0, "the device list shows " + s.devices().size() + " of the " + ranks
                        + " ranks and no launch line states the hosts: pass --nodes N and, across hosts,"
                        + " --interconnect NAME for the network");
            }
            Optional<LogNetwork.Named> net = hosts > 1 ? networkNamedIn(file) : Optional.empty();
            if (net.isPresent()) {
                // the log names the network (NCCL lines: EFA, Slingshot, sockets; or its environment): read as --interconnect
                return complete(file, s, withNetworkOf(flags, net.get()), network);
            }
            if (hosts > 1) {
                throw new InputException(file, 0, "the run spans " + hosts + " hosts" + (perHost > 1 ? ": inside a"
                        + " host " + named.get() + " (from the GPU name " + gpu + "), but" : ", and") + " the network"
                        + " between them is not stated" + networkSeen(file) + ": pass --interconnect NAME ("
                        + NETWORK_EXAMPLES + ")");
            }
            notes.add("interconnect " + named.get() + " taken from the GPU name " + gpu + " (--interconnect"
                    + " overrides it)");
            return new Sweep(s.provenance(), s.collective(), s.run(),
                    new Hardware(gpu, ranks, hosts, ranks, 1, named.get(), null), s.devices(), s.rows(), notes,
                    s.trailer());
        }
        if (flags.intra() == null && hosts > 1 && perHost > 1) {
            // Across hosts --interconnect names the network between them (as check reads it); the tier inside a
            // host comes from the GPU name, never from the network's name.
            int spanned = hosts;
            String intra = GpuFabrics.bundled().intraFor(gpu).orElseThrow(() -> new InputException(file, 0,
                    "the run spans " + spanned + " hosts, so " + flags.interconnectSaid() + " names the"
                            + " network between them; the fabric inside a host is not known from the GPU name ("
                            + (gpu == null ? "not stated" : gpu) + "): pass --intra NAME --inter "
                            + flags.interconnect() + (flags.interconnectFrom() == null ? " instead of --interconnect"
                            : "")));
            notes.add(flags.interconnectSaid() + " taken as the network between the " + hosts
                    + " hosts; inside a host " + intra + " (from the GPU name " + gpu + ")");
            flagAgainstLog(file, flags).ifPresent(notes::add);
            return new Sweep(s.provenance(), s.collective(), s.run(),
                    new Hardware(gpu, ranks, hosts, perHost, hosts, intra, flags.interconnect()),
                    s.devices(), s.rows(), notes, s.trailer());
        }
        if (flags.intra() != null) {
            int g = flags.domainSize() == null ? perHost : flags.domainSize();
            if (ranks % g != 0) {
                throw new InputException(file, 0, ranks + " GPUs do not split into domains of " + g
                        + "; check --domain-size");
            }
            return new Sweep(s.provenance(), s.collective(), s.run(),
                    new Hardware(h.gpuModel(), ranks, hosts, g, ranks / g, flags.intra(), flags.inter()),
                    s.devices(), s.rows(), notes, s.trailer());
        }
        if (hosts == 1 && named.isPresent() && network.isPresent() && flags.interconnectFrom() == null) {
            // a network named for a run on one host (one --interconnect over a folder of one- and many-host logs):
            // the GPUs of one host talk over their own fabric, which the GPU name gives
            notes.add(network.get() + " names a network between hosts, and this run is on one host: inside it "
                    + named.get() + " is taken (from the GPU name " + gpu + "; --intra NAME where its GPUs did talk"
                    + " over the network)");
            return new Sweep(s.provenance(), s.collective(), s.run(),
                    new Hardware(gpu, ranks, hosts, ranks, 1, named.get(), null), s.devices(), s.rows(), notes,
                    s.trailer());
        }
        if (hosts > 1) {
            flagAgainstLog(file, flags).ifPresent(notes::add);
        }
        // One NVLink domain per host; with one GPU per host the only tier is the network between them.
        if (flags.interconnectFrom() != null) {
            notes.add(flags.interconnectSaid() + " taken as the " + (hosts > 1 ? "network between the hosts"
                    : "interconnect"));
        }
        Hardware filled = perHost == 1 && hosts > 1
                ? new Hardware(h.gpuModel(), ranks, hosts, 1, hosts, null, flags.interconnect())
                : new Hardware(h.gpuModel(), ranks, hosts, perHost, hosts, flags.interconnect(), null);
        return new Sweep(s.provenance(), s.collective(), s.run(), filled, s.devices(), s.rows(), notes, s.trailer());
    }
}
