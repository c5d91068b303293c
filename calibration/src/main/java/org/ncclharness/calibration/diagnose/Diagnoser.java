package org.ncclharness.calibration.diagnose;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.read.LogDiagnosis.Issue;
import org.ncclharness.calibration.diagnose.NcclLines.Line;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.read.DeviceLine;
import org.ncclharness.calibration.read.LogFacts;
import org.ncclharness.calibration.read.NicCount;

/**
 * Reads the NCCL INFO/WARN lines of a log and says which transport each connection used and which known
 * misconfiguration is present. Formats from NCCL 2.3 ({@code Ring 00 : 0[0] -> 1[1] via P2P/IPC},
 * {@code Using internal Network Socket}) to 2.29 ({@code Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read}).
 */
public final class Diagnoser {

    /**
     * {@code via X}: the transport of one connection, up to the end or to NCCL's trailing comm/nRanks words. A
     * plugin's name may hold spaces ({@code NET/AWS Libfabric/1/GDRDMA}, aws-ofi-nccl before 1.7;
     * {@code NET/NCCL RDMA Plugin v8/1/GDRDMA}, HPC-X's nccl-rdma-sharp-plugins): words followed by a slash.
     */
    private static final Pattern VIA = Pattern.compile("(?:->|^CollNet|\\[(?:send|receive)\\]).*?\\bvia (P2P/direct"
            + " pointer(?:/\\w+)?|direct shared memory|[A-Z][A-Za-z0-9]+(?:/[A-Za-z0-9_()]+(?:(?: [A-Za-z0-9][\\w.]*)+"
            + "(?=/))?)*)");
    /** The end of one nccl-tests run: its trailer, or the next test's start. */
    private static final Pattern RUN_END = Pattern.compile("Avg bus bandwidth|Collective test (?:concluded|starting)");
    private static final Pattern LAST_ERROR = Pattern.compile("\\bLast error:\\s*$");
    private static final Pattern MESSAGE_LINE = Pattern.compile("NCCL (?:INFO|WARN)");
    private static final Pattern FAILING_HOST = Pattern.compile("^\\s*([\\w.-]+): Test (?:NCCL|CUDA) failure");
    private static final Pattern TEST_FAILURE = Pattern.compile(
            "\\bTest (?:NCCL|CUDA) failure \\S+:\\d+|\\bFailed: (?:NCCL|Cuda) error \\S+:\\d+");
    /** NCCL's, or RCCL's (AMD's fork numbers its releases as NCCL's API it follows). */
    private static final Pattern VERSION = Pattern.compile("^[NR]CCL version (\\d+\\.\\d+\\.\\d+)");
    private static final Pattern NRANKS = Pattern.compile("\\bn[Rr]anks (\\d+)");
    private static final Pattern NNODES = Pattern.compile("\\bnNodes (\\d+)");
    private static final Pattern LOCAL = Pattern.compile("\\blocalRanks (\\d+)");
    /** The bootstrap interface; NCCL 2.3 said {@code NET : Using interface X}. */
    private static final Pattern BOOTSTRAP = Pattern.compile("^(?:Bootstrap ?: Using (?:\\[\\d+\\])?|NET : Using interface )"
            + "(\\S+)");
    private static final Pattern SOCKET_USING = Pattern.compile("^NET/Socket ?: Using (.*)$");
    private static final Pattern IFACE = Pattern.compile("\\[\\d+\\]([^\\s\\[]+)");
    private static final Pattern NETWORK = Pattern.compile("^Using (?:internal )?[Nn]etwork (\\S+(?: [A-Z]\\w*)*)");
    private static final Pattern GDR_HCA = Pattern.compile("^NET/(\\w+) ?: GPU Direct RDMA (?:Disabled|Enabled) for HCA \\d+"
            + " '([^']+)'");
    /** A communicator's rank as its Init/Destroy COMPLETE lines print it: {@code comm 0x55.. rank 0 nranks 2}. */
    private static final Pattern COMM_RANK = Pattern.compile("\\bcomm 0x[0-9a-fA-F]+ rank (\\d+) nranks (\\d+)\\b");
    private static final Pattern ENV = Pattern.compile("^(NCCL_[A-Z0-9_]+) set by environment to (\\S*)");

    /** The variables that force what NCCL's tuner would pick. */
    private static final List<String> FORCING = List.of("NCCL_ALGO", "NCCL_PROTO");

    private final String file;
    private final List<Line> lines;
    /** The log's own lines, for what a launch line sets where no NCCL line says it. */
    private final List<String> text;
    private final List<Issue> issues = new ArrayList<>();
    private final List<Line> pluginFailures = new ArrayList<>();
    private final NcclRules table = NcclRules.table();
    /** The lines each finding code's rules matched, in the order first seen: one finding per code. */
    private final Map<String, List<RuleHit>> hits = new LinkedHashMap<>();
    /** Each rule finding's table row and the NCCL format string its evidence was printed from. */
    private final Map<String, String> citations = new LinkedHashMap<>();

    /** A table row that matched one NCCL line. */
    private record RuleHit(NcclRules.Match match, Line line) { }
    private LogFacts facts;
    /** N and hosts as the log's tables resolve them. */
    private final RunShape shape;

    /**
     * What {@link LogFacts}' one pass reads of the log, read once: the NCCL_* its launch or export lines set (the
     * forced algorithm, the debug file) and the channels NCCL printed.
     */
    private LogFacts facts() {
        if (facts == null) {
            facts = LogFacts.of(text);
        }
        return facts;
    }

    private Map<String, String> launchEnvironment() {
        return facts().environment();
    }

    private Diagnoser(String file, List<Line> lines, List<String> text, RunShape shape) {
        this.file = file;
        this.lines = lines;
        this.text = text;
        this.shape = shape;
    }

    /** The diagnosis of lines with no table beside them (a job's NCCL_DEBUG_FILE). */
    public static Diagnosis diagnose(String file, List<String> text) {
        return diagnose(file, text, RunShape.UNKNOWN);
    }

    /** The diagnosis of a log whose tables resolved to {@code shape}: N and hosts as every command has them. */
    public static Diagnosis diagnose(String file, List<String> text, RunShape shape) {
        return new Diagnoser(file, NcclLines.of(text), text, shape).run();
    }

    /** A count the lines show of {@code seen} ranks: a lower bound only where the resolved N is larger. */
    private Integer ifEveryRank(int seen, Integer count) {
        return shape.ranks() != null && seen < shape.ranks() ? null : count;
    }

    private Diagnosis run() {
        testFailures();
        DeviceList deviceList = deviceList();
        if (lines.isEmpty()) {
            Map<String, String> env = new TreeMap<>();
            Map<String, Line> envLines = new TreeMap<>();
            setOnLaunchLines(env, envLines);
            noNcclLines("no NCCL INFO or WARN line in the log");
            environment(env, envLines, Map.of(), false);
            anyLines();
            ruleFindings();
            return new Diagnosis(file, List.of(), shape.ranks() != null ? shape.ranks() : deviceList.ranks(),
                    shape.hosts() != null ? shape.hosts()
                    : ifEveryRank(deviceList.devices().size(), deviceList.hostCount()), null, null, Map.of(), Map.of(),
                    null, List.of(), List.of(), null, null, null, false, null, issues, citations);
        }
        List<String> versions = new ArrayList<>();
        Line firstVersion = null;
        Integer ranks = null;
        Integer nNodes = null;
        Line nodesLine = null;
        Line ibLine = null;
        Integer local = null;
        String bootstrap = null;
        Line bootstrapLine = null;
        Set<String> nics = new LinkedHashSet<>();
        Set<String> sockets = new LinkedHashSet<>();
        Line socketLine = null;
        String network = null;
        String nvls = null;
        String collnet = null;
        Line collnetLine = null;
        boolean pxn = false;
        Set<String> hosts = new LinkedHashSet<>();
        Map<String, Integer> netTransports = new TreeMap<>();
        Map<String, Integer> localTransports = new TreeMap<>();
        Map<String, Line> transportEvidence = new LinkedHashMap<>();
        Line noIb = null;
        Line networkLine = null;
        Map<String, String> env = new TreeMap<>();
        Map<String, Line> envLines = new TreeMap<>();
        Set<String> pids = new LinkedHashSet<>();
        Set<String> devices = new LinkedHashSet<>();
        Set<String> ranksSeen = new HashSet<>();
        Line gdrDisabled = null;
        // per communicator size: the hosts its rank 0 printed from, and the first line from a second host
        TreeMap<Integer, Set<String>> rankZeroHosts = new TreeMap<>();
        Line rankZeroAgain = null;
        Line rankZeroFirst = null;
        Map<String, Set<String>> nicsByHost = new LinkedHashMap<>();
        Map<String, Line> nicLineByHost = new LinkedHashMap<>();
        for (Line l : lines) {
            String t = l.text();
            if (l.host() != null) {
                hosts.add(l.host());
                pids.add(l.host() + ":" + l.pid());
                devices.add(l.device());
                ranksSeen.add(l.host() + ":" + l.pid() + ":" + l.device());
            }
            Matcher m;
            if ((m = VERSION.matcher(t)).find()) {
                if (!versions.contains(m.group(1))) {
                    versions.add(m.group(1));
                }
                firstVersion = firstVersion == null ? l : firstVersion;
            }
            if (l.host() != null && (m = COMM_RANK.matcher(t)).find() && m.group(1).equals("0")) {
                rankZeroFirst = rankZeroFirst == null ? l : rankZeroFirst;
                Set<String> h = rankZeroHosts.computeIfAbsent(Integer.valueOf(m.group(2)), k -> new LinkedHashSet<>());
                if (h.add(l.host()) && h.size() == 2 && rankZeroAgain == null) {
                    rankZeroAgain = l;
                }
            }
            if ((m = NRANKS.matcher(t)).find()) {
                ranks = Math.max(ranks == null ? 0 : ranks, Integer.parseInt(m.group(1)));
            }
            if ((m = NNODES.matcher(t)).find()) {
                nNodes = Integer.parseInt(m.group(1));
                nodesLine = l;
            }
            if ((m = LOCAL.matcher(t)).find()) {
                local = Integer.parseInt(m.group(1));
            }
            if (bootstrap == null && (m = BOOTSTRAP.matcher(t)).find()) {
                bootstrap = m.group(1);
                bootstrapLine = l;
            }
            List<String> listed = NicCount.devices(t);
            if (!listed.isEmpty()) {
                ibLine = ibLine == null ? l : ibLine;
                nics.addAll(listed);
                if (l.host() != null) {
                    nicsByHost.computeIfAbsent(l.host(), k -> new LinkedHashSet<>()).addAll(listed);
                    nicLineByHost.putIfAbsent(l.host(), l);
                }
            }
            if (!l.warn() && table.fact("no-ib-device").matches(t)) {
                noIb = noIb == null ? l : noIb;
            }
            if ((m = SOCKET_USING.matcher(t)).find()) {
                Matcher f = IFACE.matcher(m.group(1));
                while (f.find()) {
                    sockets.add(f.group(1));
                }
                socketLine = socketLine == null ? l : socketLine;
            }
            if ((m = NETWORK.matcher(t)).find()) {
                network = m.group(1);
                networkLine = l;
            }
            if (t.contains("NVLS multicast support is available")) {
                nvls = "available";
            } else if (t.contains("NVLS multicast support is not available")) {
                nvls = nvls == null ? "not available" : nvls;
            } else if (t.startsWith("NVLS comm") || t.matches(".*via NVLS.*")) {
                nvls = "in use";
            }
            if (t.contains("via COLLNET") || t.startsWith("CollNet ") && t.contains("via ")) {
                collnet = "in use";
                collnetLine = collnetLine == null ? l : collnetLine;
            } else if (t.contains("CollNet is not supported")) {
                collnet = "not supported";
            }
            if (table.fact("gdr-disabled").matches(t)) {
                gdrDisabled = gdrDisabled == null ? l : gdrDisabled;
            }
            if ((m = GDR_HCA.matcher(t)).find() && !m.group(1).equals("IB")) {
                // a plugin's NICs (NET/FastSocket ...); NET/IB's are named by its Using line
                nics.add(m.group(2));
                network = network == null && !m.group(1).equals("IB") ? m.group(1) : network;
            }
            if ((m = ENV.matcher(t)).find()) {
                env.putIfAbsent(m.group(1), m.group(2).replaceFirst("[.,;]$", ""));
                envLines.putIfAbsent(m.group(1), l);
            }
            if ((m = VIA.matcher(t)).find()) {
                String raw = m.group(1);
                pxn |= raw.matches("NET/[^/]+/\\d+\\(\\d+\\).*");
                String transport = normalise(raw);
                boolean net = transport.startsWith("NET/") || transport.startsWith("COLLNET/");
                (net ? netTransports : localTransports).merge(transport, 1, Integer::sum);
                transportEvidence.putIfAbsent(transport, l);
            }
            warn(l);
        }
        anyLines();
        ruleFindings();
        // One process that printed for several GPUs is on one host, whatever else the log omits
        boolean oneProcess = pids.size() == 1 && devices.size() > 1 && lines.stream().allMatch(x -> x.host() != null);
        Integer nodes = nNodes;
        if (nodes == null && hosts.size() > 1) {
            nodes = hosts.size();
        } else if (nodes == null && oneProcess) {
            nodes = 1;
        }
        // nccl-tests' device list names every rank's host where NCCL printed from some hosts only (a job that
        // hung before the others said anything)
        if (nNodes == null && deviceList.hostCount() != null && (nodes == null || deviceList.hostCount() > nodes)) {
            nodes = deviceList.hostCount();
        }
        if (nNodes == null) {
            // hosts the lines and the list show of fewer ranks than the run has are some of its hosts only
            nodes = shape.hosts() != null ? shape.hosts()
                    : ifEveryRank(Math.max(ranksSeen.size(), deviceList.devices().size()), nodes);
        }
        ranks = ranks != null ? ranks : shape.ranks() != null ? shape.ranks() : deviceList.ranks();
        boolean oneNode = nodes != null && nodes == 1 || nodes == null && local != null && ranks != null
                && local.equals(ranks);
        // NET transports between GPUs of one host are intra-node traffic over the network (loopback)
        Map<String, Integer> intra = new TreeMap<>(localTransports);
        Map<String, Integer> inter = new TreeMap<>();
        netTransports.forEach((k, v) -> (oneNode ? intra : inter).put(k, v));
        Boolean gdr = null;
        if (!inter.isEmpty() || !intra.isEmpty() && oneNode && !netTransports.isEmpty()) {
            Map<String, Integer> net = oneNode ? netTransports : inter;
            boolean anyRdmaNet = net.keySet().stream().anyMatch(k -> !k.startsWith("NET/Socket"));
            gdr = anyRdmaNet ? net.keySet().stream().filter(k -> !k.startsWith("NET/Socket"))
                    .allMatch(k -> k.contains("/GDRDMA")) : Boolean.FALSE;
        }
        boolean multi = nodes != null && nodes > 1 || !inter.isEmpty();
        findings(multi, oneNode, inter, intra, netTransports, transportEvidence, noIb, sockets, nics,
                socketLine != null ? socketLine : networkLine,
                bootstrap, bootstrapLine, gdr, gdrDisabled, network, versions, firstVersion);
        // each rank on a host name of its own: no peer on its host, however NCCL counts nodes (P2P and SHM
        // switched off make NCCL report localRanks 1 for GPUs that do share a host)
        boolean rankPerHost = ranks != null && ranks > 1 && hosts.size() >= ranks;
        setOnLaunchLines(env, envLines);
        environment(env, envLines, inter, rankPerHost);
        socketIfnameUnused(env, envLines, bootstrap, sockets);
        pluginFailures(multi);
        if (nics.stream().anyMatch(n -> n.endsWith("/IB") || n.contains("/IB/")) && nics.stream()
                .anyMatch(n -> n.contains("/RoCE"))) {
            add("IB_LIST_MIXES_LINK_LAYERS", Severity.WARN, "NET/IB uses InfiniBand and RoCE (Ethernet) ports together:"
                    + " " + String.join(" ", nics), ibLine, "pin NCCL_IB_HCA to the ports of one fabric (e.g."
                    + " NCCL_IB_HCA=mlx5_0,mlx5_1), or the rings mix two networks");
        }
        separateJobs(rankZeroHosts, rankZeroAgain, rankZeroFirst);
        if ("in use".equals(collnet) && collnetLine != null) {
            add("COLLNET_IN_USE", Severity.INFO, "CollNet (SHARP in-network reduction) carries collectives", collnetLine,
                    "where the job hangs after init with SHARP set up, rerun with NCCL_COLLNET_ENABLE=0 to confirm;"
                    + " check that sharp_am runs on the subnet manager and the SHARP plugin matches HPC-X");
        }
        nicsDiffer(nicsByHost, nicLineByHost);
        if (lines.stream().allMatch(l -> !l.warn() && VERSION.matcher(l.text()).find())) {
            noNcclLines("only NCCL's version line: NCCL_DEBUG was VERSION or WARN, which print nothing more"
                    + " where nothing failed");
        }
        if (nNodes != null && ranks != null && ranks > 1 && local != null && local == 1 && nNodes.equals(ranks)) {
            add("ONE_RANK_PER_NODE", Severity.INFO, "NCCL sees every rank as its own node (nNodes " + nNodes
                    + ", localRanks 1): right where each host has one GPU; where GPUs of one host sit in separate"
                    + " pods or containers, they cannot use NVLink or P2P", nodesLine, "if they share a host, put its"
                    + " GPUs in one pod/container (one process per GPU inside it), or share the IPC namespace and"
                    + " /dev/shm between them");
        }
        return new Diagnosis(file, versions, ranks, nodes, local, bootstrap, intra, inter, gdr, List.copyOf(nics),
                List.copyOf(sockets), network, nvls, collnet, pxn, channels(ranks).orElse(null), issues, citations);
    }

    /**
     * The channels of the tested communicator, the largest ({@code ranks}), as {@link LogFacts} read them; where no
     * line gives its size, the one count every communicator printed. Empty where the lines print none for it, or
     * where they differ and nothing says which one ran the test.
     */
    private Optional<ChannelCounts> channels(Integer ranks) {
        List<ChannelCounts> logged = facts().channels();
        if (ranks != null) {
            return facts().channelsFor(ranks);
        }
        return logged.stream().map(c -> c.atRanks(null)).distinct().count() == 1 ? Optional.of(logged.get(0))
                : Optional.empty();
    }

    /**
     * The largest communicator's rank 0 on two hosts: each host ran a job of its own (nccl-tests built without
     * MPI=1 runs one in every process, NVIDIA/nccl-tests#182). Smaller communicators may each have a rank 0 per
     * host (a training job's groups inside a node) beside a larger one that spans them; the largest cannot.
     */
    private void separateJobs(TreeMap<Integer, Set<String>> rankZeroHosts, Line again, Line first) {
        if (rankZeroHosts.isEmpty()) {
            return;
        }
        Map.Entry<Integer, Set<String>> largest = rankZeroHosts.lastEntry();
        if (largest.getKey() > 1 && largest.getValue().size() > 1) {
            add("SEPARATE_JOBS", Severity.WARN, "rank 0 of the largest communicator (" + largest.getKey() + " ranks)"
                    + " is on " + largest.getValue().size() + " hosts (" + String.join(", ", largest.getValue())
                    + "): each ran a job of its own, and no rank talked to another host", again, SEPARATE_JOBS_FIX);
        } else if (largest.getKey() == 1) {
            add("ONE_RANK", Severity.WARN, "the largest communicator has 1 rank (nranks 1): no rank talked to another;"
                    + " under mpirun this is nccl-tests built without MPI=1, every process a job of its own", first,
                    SEPARATE_JOBS_FIX);
        }
    }

    /** {@code NET/IB/0(1)/GDRDMA} → {@code NET/IB/GDRDMA}: device and proxy indexes removed. */
    static String normalise(String via) {
        if (via.equals("direct shared memory")) {
            return "SHM/direct";
        }
        return via.replaceAll("/\\d+(\\(\\d+\\))?(?=/|$)", "");
    }

    private void findings(boolean multi, boolean oneNode, Map<String, Integer> inter, Map<String, Integer> intra,
                          Map<String, Integer> net, Map<String, Line> evidence, Line noIb, Set<String> sockets,
                          Set<String> nics, Line socketLine, String bootstrap, Line bootstrapLine, Boolean gdr,
                          Line gdrDisabled, String network, List<String> versions, Line firstVersion) {
        boolean socketInter = inter.keySet().stream().anyMatch(k -> k.startsWith("NET/Socket"));
        boolean socketChosen = network != null && network.equalsIgnoreCase("Socket");
        if (socketInter || socketChosen && inter.isEmpty() && multi) {
            Line e = socketInter ? evidence.get(inter.keySet().stream().filter(k -> k.startsWith("NET/Socket"))
                    .findFirst().orElseThrow()) : socketLine;
            add("SOCKET_FALLBACK", Severity.WARN, "inter-node traffic runs on NET/Socket (TCP)" + (sockets.isEmpty()
                    ? "" : " over " + String.join(", ", sockets)), e, "give NCCL an RDMA device: check that NET/IB"
                    + " finds the HCAs (rdma-core, ibv_devices), or load the network plugin of this fabric (EFA:"
                    + " aws-ofi-nccl; Slingshot: the OFI/cxi plugin)");
        } else if (socketChosen && oneNode) {
            add("SOCKET_FALLBACK", Severity.INFO, "the network is NET/Socket, unused by a job on one host", socketLine,
                    "nothing to do on one host; before going multi-node, make NET/IB or a network plugin available");
        } else if (socketChosen) {
            // the node count is not in the log: say what it means if the job spans hosts
            add("SOCKET_FALLBACK", Severity.WARN, "the network is NET/Socket (TCP): across hosts every byte goes over"
                    + " TCP" + (sockets.isEmpty() ? "" : " on " + String.join(", ", sockets)), socketLine,
                    "give NCCL an RDMA device: check that NET/IB finds the HCAs (rdma-core, libibverbs), or load the"
                            + " network plugin of this fabric");
        }
        if (noIb != null) {
            add("NO_IB_DEVICE", multi ? Severity.WARN : Severity.INFO, "NET/IB found no InfiniBand/RoCE device", noIb,
                    "install rdma-core and the HCA driver, expose /dev/infiniband to the container, or set"
                            + " NCCL_IB_HCA to the right devices");
        }
        // NET/Socket lists its interfaces whether or not it carries the data: where NET/IB found a device and
        // nothing says sockets were chosen, the list is unused (bootstrap has its own line) and only informs
        boolean ibCarries = !socketInter && !socketChosen && nics.stream().anyMatch(n -> n.contains("/IB")
                || n.contains("/RoCE"));
        // one finding per kind, naming every interface of it: a host with 15 veths gets one line, not 15
        checkInterfaces(new ArrayList<>(sockets), socketLine, multi && !ibCarries, ibCarries ? " (listed for NET/Socket,"
                + " which does not carry the data here: NET/IB found " + String.join(" ", nics) + ")" : "");
        if (bootstrap != null && sockets.isEmpty()) {
            checkInterfaces(List.of(bootstrap), bootstrapLine, multi, "");
        }
        if (Boolean.FALSE.equals(gdr) && !socketInter) {
            String k = net.keySet().stream().filter(x -> !x.startsWith("NET/Socket")).findFirst().orElse(null);
            add("GDR_OFF", Severity.WARN, "the network transport " + k + " runs without GPUDirect RDMA: every"
                            + " message is staged through host memory", gdrDisabled != null ? gdrDisabled
                            : evidence.get(k),
                    "load nvidia-peermem (or use DMA-BUF with a recent driver and NCCL_DMABUF_ENABLE=1), check"
                            + " NCCL_NET_GDR_LEVEL, and that ACS/IOMMU do not block peer-to-peer PCIe; " + PEERMEM_NAME);
        } else if (gdrDisabled != null && !socketInter && gdr == null && (network != null
                ? !network.contains("Socket") : gdrDisabled.text().startsWith("NET/"))) {
            // NET/IB's own line is enough where the excerpt shows no transport: that NIC carries no GDR
            add("GDR_OFF", Severity.WARN, "NCCL says GPUDirect RDMA is disabled for a NIC: " + gdrDisabled.text(),
                    gdrDisabled, "load nvidia-peermem (or use DMA-BUF), check NCCL_NET_GDR_LEVEL and ACS/IOMMU; "
                    + PEERMEM_NAME);
        }
        List<String> offHost = intra.keySet().stream().filter(k -> k.startsWith("SHM") || k.startsWith("NET/"))
                .toList();
        if (!offHost.isEmpty()) {
            String k = offHost.get(0);
            add("P2P_OFF", Severity.WARN, "GPUs of one host talk over " + k + " instead of P2P (NVLink or PCIe"
                    + " peer-to-peer)", evidence.get(k), "check NCCL_P2P_DISABLE / NCCL_P2P_LEVEL / NCCL_SHM_DISABLE in"
                    + " the environment, that the GPUs of a host are in one container or pod, and ACS/IOMMU");
        }
        if (versions.size() > 1) {
            add("VERSION_MISMATCH", Severity.FAIL, "ranks report different NCCL versions: " + String.join(", ",
                    versions), firstVersion, "run one NCCL build on every host (check LD_LIBRARY_PATH and the"
                    + " container images)");
        }
    }

    /**
     * NCCL_SOCKET_IFNAME set, no line of NCCL using any interface, and the job failed: a name that matches no
     * interface makes NCCL go on with an empty address and fail later with a garbage address family
     * (NVIDIA/nccl#1837).
     */
    private void socketIfnameUnused(Map<String, String> env, Map<String, Line> envLines, String bootstrap,
                                    Set<String> sockets) {
        String ifname = env.get("NCCL_SOCKET_IFNAME");
        boolean failed = issues.stream().anyMatch(i -> i.severity() == Severity.FAIL);
        if (ifname != null && bootstrap == null && sockets.isEmpty() && failed) {
            add("SOCKET_IFNAME_NOT_FOUND", Severity.FAIL, "NCCL_SOCKET_IFNAME=" + ifname + " is set, no line shows"
                    + " NCCL using an interface (no 'Bootstrap : Using' or 'NET/Socket : Using'), and the job failed:"
                    + " the interface it names may not exist on this host, and NCCL goes on with an empty address",
                    envLines.get("NCCL_SOCKET_IFNAME"), "check the name on every host (ip addr); name an interface"
                    + " that exists (a prefix such as eth matches eth0, eth1; ^docker,lo excludes), or unset it");
        }
    }

    /**
     * NCCL_ALGO and NCCL_PROTO as the log's launch or export line sets them ({@link LogFacts#environment}), where
     * no NCCL line said so (a run at NCCL_DEBUG=WARN or VERSION prints none: NVIDIA/nccl#1368 forced Ring on its
     * mpirun line); the evidence is the first line that assigns it.
     */
    private void setOnLaunchLines(Map<String, String> env, Map<String, Line> envLines) {
        Map<String, String> launched = launchEnvironment();
        for (String var : FORCING) {
            if (env.containsKey(var) || !launched.containsKey(var)) {
                continue;
            }
            env.put(var, launched.get(var));
            for (int i = 0; i < text.size(); i++) {
                if (text.get(i).contains(var + "=")) {
                    envLines.put(var, new Line(i + 1, null, null, null, false, text.get(i).strip(), text.get(i)));
                    break;
                }
            }
        }
    }

    /**
     * Settings that switch a transport off, named as the cause where the transports show the effect, and those
     * that force NCCL's algorithm or protocol, which decide what a busbw can be compared with.
     *
     * @param rankPerHost the line prefixes show every rank on a host of its own
     */
    private void environment(Map<String, String> env, Map<String, Line> lines, Map<String, Integer> inter,
                             boolean rankPerHost) {
        for (String var : List.of("NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE")) {
            if (!"1".equals(env.get(var))) {
                continue;
            }
            String path = var.contains("P2P") ? "P2P (NVLink/PCIe peer-to-peer)" : "shared memory";
            if (rankPerHost) {
                // one GPU per host has no peer on its host: nothing falls back
                add("P2P_OFF", Severity.INFO, var + "=1 is set, and changes nothing here: each rank runs on a host"
                        + " of its own (as the lines' host names show), with no peer to reach by " + path, lines.get(var), "nothing for this job; unset " + var
                        + " before running several GPUs per host");
            } else {
                add("P2P_OFF", Severity.WARN, var + "=1 is set: GPUs of one host cannot use " + path + " and fall"
                        + " back to a slower path", lines.get(var), "unset " + var + " unless it works around a known"
                        + " fault");
            }
        }
        for (String var : FORCING) {
            if (env.containsKey(var)) {
                add("FORCED_" + var.substring(5), Severity.INFO, var + "=" + env.get(var) + " is set: every size runs"
                        + " what it names, not what NCCL's tuner would pick, so the busbw compares with runs that force"
                        + " the same", lines.get(var), "keep it to measure one " + (var.equals("NCCL_ALGO") ? "algorithm"
                        : "protocol") + "; unset it to measure what applications get");
            }
        }
        if ("1".equals(env.get("NCCL_IB_DISABLE")) && inter.keySet().stream().anyMatch(k -> k.startsWith("NET/Socket"))) {
            add("SOCKET_FALLBACK", Severity.WARN, "NCCL_IB_DISABLE=1 is set: the network runs on sockets",
                    lines.get("NCCL_IB_DISABLE"), "unset NCCL_IB_DISABLE");
        }
    }

    /** @param serious the job spans hosts and these sockets carry its data (or may: nothing says otherwise) */
    private void checkInterfaces(List<String> ifaces, Line evidence, boolean serious, String note) {
        List<String> loopback = ifaces.stream().map(String::trim).filter(Interfaces::loopback).toList();
        List<String> virtual = ifaces.stream().map(String::trim).filter(i -> !Interfaces.loopback(i))
                .filter(Interfaces::virtual).toList();
        if (!loopback.isEmpty()) {
            add("SOCKET_ON_LOOPBACK", serious ? Severity.FAIL : Severity.INFO, "NCCL's sockets use the loopback "
                    + String.join(", ", loopback) + note, evidence, "set NCCL_SOCKET_IFNAME to the host's routable"
                    + " interface (e.g. eth0, ib0)");
        }
        if (!virtual.isEmpty()) {
            add("SOCKET_ON_VIRTUAL_IFACE", serious ? Severity.WARN : Severity.INFO, "NCCL's sockets use the virtual"
                    + " interface" + (virtual.size() == 1 ? " " : "s ") + String.join(", ", virtual) + " (a container"
                    + " bridge, veth or VPN)" + note, evidence,
                    "set NCCL_SOCKET_IFNAME to the physical interface (e.g. NCCL_SOCKET_IFNAME=eth0,"
                            + " or ^docker,lo,veth to exclude)");
        }
    }

    private void warn(Line l) {
        if (!l.warn()) {
            java.util.Optional<NcclRules.Match> info = table.match(NcclRules.Level.INFO, l.text());
            if (info.isPresent()) {
                hit(info.get(), l);
                return;
            }
            if (l.text().matches("(?i).*(initiali[sz]ing plugin failed|failed to initiali[sz]e.*plugin|net plugin.*"
                    + "failed|plugin/net\\.cc:\\d+ -> [1-9]).*")) {
                pluginFailures.add(l);
            }
            return;
        }
        warnLine(l);
    }

    /** A plugin that failed matters where the network is used: across hosts. */
    private void pluginFailures(boolean multi) {
        for (Line l : pluginFailures) {
            add("NET_PLUGIN_FAILED", multi ? Severity.WARN : Severity.INFO, "a NET plugin failed to load or initialise; NCCL falls back"
                        + " to its internal transports", l, "drop NCCL_NET_PLUGIN / the plugin library where this"
                        + " fabric does not need it, or install the provider it needs");
        }
    }

    /** A WARN line: the table's row for it, a NET plugin's own failure, else the generic finding, quoted. */
    private void warnLine(Line l) {
        String t = l.text();
        java.util.Optional<NcclRules.Match> row = table.match(NcclRules.Level.WARN, t, NcclLines.warnSource(l));
        if (row.isPresent()) {
            hit(row.get(), l);
        } else if (t.matches("(?i).*(NET/OFI|aws-ofi|plugin).*(fail|unable|no eligible|couldn't|could not|error).*")) {
            // a plugin's own words (aws-ofi-nccl, the SHARP plugin): not NCCL's format strings
            add("NET_PLUGIN_FAILED", Severity.WARN, "a NET plugin failed: " + t, l, "give the pod/host the"
                    + " devices the plugin needs (EFA, cxi); where it has them, the node image's EFA driver,"
                    + " libfabric and plugin versions are the suspect (another image or AMI is the usual fix); or"
                    + " remove NCCL_NET_PLUGIN and the plugin library");
        } else {
            add("NCCL_WARN", Severity.WARN, t, l, "read the NCCL warning; search it in github.com/NVIDIA/nccl/issues");
        }
    }

    /** A row's match, kept for its finding; a result NCCL does not count as an error (ncclInProgress) is dropped. */
    private void hit(NcclRules.Match match, Line l) {
        if (match.severity() == Severity.INFO && match.rule().severity() != Severity.INFO) {
            return;
        }
        hits.computeIfAbsent(match.rule().code(), k -> new ArrayList<>()).add(new RuleHit(match, l));
    }

    /**
     * Lines that carry NCCL's result outside its own messages: nccl-tests' {@code Test NCCL failure ... 'unhandled
     * system error'}, a framework's {@code ncclRemoteError}. Read where NCCL's own lines gave no such finding.
     */
    private void anyLines() {
        Set<String> own = new java.util.HashSet<>(hits.keySet());
        for (int i = 0; i < text.size(); i++) {
            String raw = text.get(i);
            if (raw.stripLeading().startsWith("#")) {
                continue;
            }
            java.util.Optional<NcclRules.Match> m = table.match(NcclRules.Level.ANY, raw);
            // NCCL's last error as a framework prints it (PyTorch: "Last error:" and the WARN's text on the next line)
            boolean lastError = i > 0 && LAST_ERROR.matcher(text.get(i - 1)).find();
            if (lastError && !MESSAGE_LINE.matcher(raw).find()) {
                java.util.Optional<NcclRules.Match> w = table.match(NcclRules.Level.WARN, raw.strip());
                m = w.isPresent() ? w : m;
            }
            if (m.isPresent() && !own.contains(m.get().rule().code())) {
                Matcher h = FAILING_HOST.matcher(raw);
                hit(m.get(), new Line(i + 1, h.find() ? h.group(1) : null, null, null, false, raw.strip(), raw));
            }
        }
    }

    /**
     * One finding per code the table's rows gave, its evidence the first line; where several hosts report it, the
     * hosts and the peers they name are compared (every host naming one peer points at that peer); a fatal NCCL
     * result quotes the WARN line before it that says why.
     */
    private void ruleFindings() {
        for (Map.Entry<String, List<RuleHit>> e : hits.entrySet()) {
            List<RuleHit> all = e.getValue();
            RuleHit first = all.get(0);
            Severity worst = all.stream().map(h -> h.match().severity()).max(Enum::compareTo).orElseThrow();
            StringBuilder message = new StringBuilder(first.match().message());
            Set<String> hosts = new LinkedHashSet<>();
            Set<String> peers = new LinkedHashSet<>();
            for (RuleHit h : all) {
                if (h.line().host() != null) {
                    hosts.add(h.line().host());
                }
                String peer = h.match().groups().getOrDefault("peer", h.match().groups().get("addr"));
                if (peer != null) {
                    peers.add(peer);
                }
            }
            if (all.size() > 1) {
                message.append(" (").append(all.size()).append(" lines").append(hosts.size() > 1 ? " from "
                        + hosts.size() + " hosts: " + String.join(", ", hosts) : "").append(")");
            }
            if (hosts.size() > 1 && peers.size() == 1) {
                message.append("; every reporting host names the same peer ").append(peers.iterator().next())
                        .append(": start there");
            } else if (peers.size() > 1) {
                message.append("; peers named: ").append(String.join(", ", peers));
            }
            Line why = first.match().rule().lookup() != null && first.match().rule().lookup().equals("nccl_result")
                    ? warnBefore(first.line()) : null;
            if (why != null) {
                message.append("; the line that says why: ").append(file).append(":").append(why.lineNo()).append(": ")
                        .append(why.text());
            }
            NcclRules.Rule rule = first.match().rule();
            NcclRules.Format cited = rule.citedFor(first.line().text());
            citations.put(e.getKey(), rule.id() + (cited == null ? "" : ": " + cited));
            add(e.getKey(), worst, message.toString(), first.line(), first.match().fix());
        }
    }

    /**
     * The WARN that says why a result came back: the last before it from its host; where the host's threads printed
     * the result first (a proxy's trace before the main thread's WARN), its host's first WARN after it.
     */
    private Line warnBefore(Line at) {
        Line before = null;
        Line after = null;
        for (Line l : lines) {
            if (!l.warn() || at.host() != null && l.host() != null && !at.host().equals(l.host())) {
                continue;
            }
            if (l.lineNo() < at.lineNo()) {
                before = l;
            } else if (after == null) {
                after = l;
            }
        }
        return before != null ? before : after;
    }

    /**
     * Hosts whose NCCL found fewer NICs than another's: a port down or flapping there (ibstat on that host). NCCL
     * builds its rings and rails from what each host sees, so the job slows to the host with fewer, or hangs at
     * init (ROCm/rccl#1423: 7 NICs on one VM, 8 on the other, a flapping mlx5_7).
     */
    private void nicsDiffer(Map<String, Set<String>> nicsByHost, Map<String, Line> lines) {
        if (nicsByHost.size() < 2) {
            return;
        }
        int most = nicsByHost.values().stream().mapToInt(Set::size).max().orElse(0);
        Set<String> all = new LinkedHashSet<>();
        nicsByHost.values().forEach(all::addAll);
        List<String> fewer = new ArrayList<>();
        Line evidence = null;
        for (Map.Entry<String, Set<String>> h : nicsByHost.entrySet()) {
            if (h.getValue().size() < most) {
                Set<String> missing = new LinkedHashSet<>(all);
                missing.removeAll(h.getValue());
                fewer.add(h.getKey() + " uses " + h.getValue().size() + (missing.isEmpty() ? "" : " (not "
                        + String.join(", ", missing) + ")"));
                evidence = evidence == null ? lines.get(h.getKey()) : evidence;
            }
        }
        if (!fewer.isEmpty()) {
            add("NIC_COUNT_DIFFERS", Severity.FAIL, "hosts see different NICs: " + String.join("; ", fewer)
                    + ", where another uses " + most + ": NCCL builds its rails from what each host sees, so the job"
                    + " runs at the slower host's pace or hangs at init", evidence, "on that host check the missing"
                    + " port (ibstat / ibv_devinfo: state ACTIVE, not DOWN or POLLING; a flapping link; the VF or"
                    + " cable), or pin NCCL_IB_HCA to the ports every host has");
        }
    }

    /**
     * NCCL said nothing diagnose can read. Where the launch line sent its lines elsewhere ({@code NCCL_DEBUG_FILE}),
     * the fix is to read that file rather than to rerun.
     */
    private void noNcclLines(String message) {
        String redirected = launchEnvironment().get("NCCL_DEBUG_FILE");
        issues.add(new Issue("NO_NCCL_LINES", Severity.WARN, message, null, redirected != null
                ? "NCCL_DEBUG_FILE=" + redirected + " sent NCCL's lines to that file (one per host or process where"
                + " its name has %h or %p): run diagnose on it"
                : "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV"));
    }

    /** nccl-tests' device list: every rank's host and GPU, where the log has it. */
    private record DeviceList(List<Device> devices) {
        /** N where the list shows ranks 0..N-1 each once, else null. */
        Integer ranks() {
            long distinct = devices.stream().mapToInt(Device::rank).distinct().count();
            int max = devices.stream().mapToInt(Device::rank).max().orElse(-1);
            return devices.isEmpty() || distinct != devices.size() || max + 1 != devices.size() ? null
                    : devices.size();
        }

        Integer hostCount() {
            long n = devices.stream().map(Device::host).distinct().count();
            return n == 0 ? null : (int) n;
        }
    }

    /**
     * The device list, and the finding where it mixes GPU models: a collective runs at its slowest GPU's and
     * link's pace, and NCCL's topology and tuning assume one model (its graph search may fail outright).
     */
    private DeviceList deviceList() {
        // one run's list at a time: a script that runs several tests prints a list per test, each closed by its
        // trailer; a second list inside one run (before its trailer) is a second job's
        List<Device> devices = new ArrayList<>();
        List<Device> longest = new ArrayList<>();
        Map<String, Integer> models = new LinkedHashMap<>();
        int secondModelAt = -1;
        int again = -1;
        for (int i = 0; i < text.size(); i++) {
            if (RUN_END.matcher(text.get(i)).find()) {
                devices = new ArrayList<>();
                continue;
            }
            java.util.Optional<Device> d = DeviceLine.parse(text.get(i));
            if (d.isEmpty()) {
                continue;
            }
            // the same rank from another process: a second job's list (nccl-tests without MPI=1)
            boolean repeated = devices.stream().anyMatch(x -> x.rank() == d.get().rank()
                    && (!x.host().equals(d.get().host()) || x.pid() != d.get().pid()));
            again = again < 0 && repeated ? i : again;
            devices.add(d.get());
            longest = devices.size() > longest.size() ? devices : longest;
            if (models.merge(d.get().name(), 1, Integer::sum) == 1 && models.size() == 2) {
                secondModelAt = i;
            }
        }
        if (again >= 0) {
            Device twice = DeviceLine.parse(text.get(again)).orElseThrow();
            issues.add(new Issue("SEPARATE_JOBS", Severity.WARN, "the device list of one run shows rank "
                    + twice.rank() + " again (on " + twice.host() + "): each process ran a job of its own, and no rank"
                    + " talked to another", file + ":" + (again + 1) + ": " + text.get(again).strip(),
                    SEPARATE_JOBS_FIX));
        }
        if (models.size() > 1) {
            List<String> counts = new ArrayList<>();
            models.forEach((name, n) -> counts.add(n + " x " + name));
            issues.add(new Issue("MIXED_GPUS", Severity.WARN, "the job mixes GPU models (" + String.join(", ", counts)
                    + "): a collective runs at the slowest GPU's and link's pace, and NCCL tunes for one model",
                    file + ":" + (secondModelAt + 1) + ": " + text.get(secondModelAt).strip(),
                    "benchmark each model's hosts as a job of their own; mix them only to measure the mix"));
        }
        return new DeviceList(longest);
    }

    /**
     * nccl-tests' own failure lines: {@code HOST: Test NCCL failure common.cu:1204 'unhandled cuda error ...'}
     * (NCCLCHECK), {@code Test CUDA failure} (CUDACHECK), and the older {@code Failed: NCCL error} / {@code Failed:
     * Cuda error}. A process that prints one has stopped; the job's numbers, if any, end where it stopped.
     */
    private void testFailures() {
        int count = 0;
        int first = -1;
        Set<String> hosts = new LinkedHashSet<>();
        for (int i = 0; i < text.size(); i++) {
            Matcher m = TEST_FAILURE.matcher(text.get(i));
            if (m.find()) {
                count++;
                first = first < 0 ? i : first;
                // nccl-tests prints the failing host first ("h100-4: Test NCCL failure ...")
                Matcher h = FAILING_HOST.matcher(text.get(i));
                hosts.add(h.find() ? h.group(1) : "?");
            }
        }
        if (count > 0) {
            String line = text.get(first).strip();
            String where = hosts.contains("?") ? "" : hosts.size() == 1 ? ", all on " + hosts.iterator().next()
                    : ", on " + String.join(", ", hosts);
            issues.add(new Issue("TEST_FAILED", Severity.FAIL, "nccl-tests reported " + count + " failure line"
                    + (count == 1 ? "" : "s") + where + " (a rank's NCCL or CUDA call failed): the run did not complete",
                    file + ":" + (first + 1) + ": " + line, (lines.isEmpty() ? "rerun with NCCL_DEBUG=INFO and read"
                    + " the first rank's error" : "read the NCCL WARN lines of " + (hosts.size() == 1 && !hosts
                    .contains("?") ? hosts.iterator().next() : "the failing ranks") + " before the failure (a binary"
                    + " or NCCL that differs there, a NIC or driver of its own)") + "; search the error string in"
                    + " github.com/NVIDIA/nccl-tests/issues"));
        }
    }

    /**
     * NCCL 2.22.3 and older look for the nv_peer_mem module only; 2.23.4 added nvidia_peermem, the name current
     * drivers load (NVIDIA/nccl#1676; net_ib.cc's ncclIbGdrSupport).
     */
    private static final String PEERMEM_NAME = "NCCL 2.22.3 and older look only for nv_peer_mem, not nvidia_peermem:"
            + " with nvidia_peermem loaded, upgrade NCCL to 2.23.4 or later (NVIDIA/nccl#1676)";

    private static final String SEPARATE_JOBS_FIX = "for one run across hosts, build nccl-tests with MPI=1 (make clean"
            + " && make MPI=1) and launch it once with mpirun or srun; a job started by torchrun: give every host the"
            + " same --rdzv-endpoint";

    /** Codes whose every WARN line tells one story: the first line is the evidence, the rest add nothing. */
    private static final Set<String> ONCE = Set.of("NET_PLUGIN_FAILED", "SEPARATE_JOBS");

    private void add(String code, Severity s, String message, Line evidence, String fix) {
        String where = evidence == null ? null : file + ":" + evidence.lineNo() + ": " + evidence.raw().strip();
        boolean seen = issues.stream().anyMatch(i -> i.code().equals(code) && (ONCE.contains(code)
                || i.message().equals(message)));
        if (!seen) {
            issues.add(new Issue(code, s, message, where, fix));
        }
    }
}
