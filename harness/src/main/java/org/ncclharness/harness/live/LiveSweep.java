package org.ncclharness.harness.live;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.calibration.diagnose.DiagnosisWriter;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.PerIteration;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.CollectiveBackend;
import org.ncclharness.gpu.CommSpec;
import org.ncclharness.gpu.CtaPolicy;
import org.ncclharness.gpu.CudaNcclBackend;
import org.ncclharness.gpu.DataType;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.gpu.GpuJobException;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.IterationStats;
import org.ncclharness.gpu.JobGroup;
import org.ncclharness.gpu.LoopOptions;
import org.ncclharness.gpu.MemoryCap;
import org.ncclharness.gpu.PlacementResult;
import org.ncclharness.gpu.ReduceOp;
import org.ncclharness.gpu.SizeResult;
import org.ncclharness.gpu.TestLists;
import org.ncclharness.gpu.TimedLoop;
import org.ncclharness.gpu.UniqueId;
import org.ncclharness.calibration.format.RunFolders;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.nccldebug.NcclDebugFiles;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.Launch;
import org.ncclharness.harness.launch.LaunchOptions;

/**
 * A sweep measured now: every process of the job (one under no launcher; mpirun, srun or torchrun-style
 * otherwise) drives {@code -t × -g} local GPUs through native's timed loop over every cycle, datatype, op and
 * root, with the launch layer's group for barriers and the reduction of times; rank 0 then goes through the
 * same outputs a replay goes through. An {@code --algo/--proto} matrix runs as child processes
 * ({@link CombinationRuns}).
 */
public final class LiveSweep {

    /** A combination's child sweep is ended after this long (each operation is bounded by -T where given). */
    private static final long CHILD_TIMEOUT_S = 6 * 3600;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private SweepPlan plan;
    private final GpuProbe probe;
    private final PrintWriter out;

    public LiveSweep(SweepPlan plan, GpuProbe probe, PrintWriter out) {
        this.plan = plan;
        this.probe = probe;
        this.out = out;
    }

    /**
     * Joins the job (a single process needs no rendezvous), creates the communicators from rank 0's unique id,
     * measures, and on rank 0 prints and writes; the other ranks print nothing.
     */
    public int run(Launch launch, LaunchOptions launchOptions) {
        if (plan.isMatrix()) {
            return matrix(launch);
        }
        List<String> notOffered = new ArrayList<>();
        for (Object[] f : new Object[][] {{"-p", plan.parallelInit()}, {"-R", plan.localRegister()},
                {"-S", plan.timestamps() ? 1 : 0}, {"-M", plan.memory() ? 1 : 0}}) {
            if ((int) f[1] != 0) {
                notOffered.add(f[0] + " " + f[1]);
            }
        }
        if (!notOffered.isEmpty()) {
            throw new HarnessException(ExitCode.USAGE, String.join(", ", notOffered) + ": not offered by this"
                    + " harness's GPU path (accepted for nccl-tests command lines, they would change nothing here)");
        }
        int local = plan.localGpus();
        try (org.ncclharness.harness.launch.JobGroup job = launch.join(SweepGpus.busIds(probe.devices()),
                JobIdentity.hashArguments(JobIdentity.sharedArguments(plan.args())), VersionInfo.projectVersion(),
                launchOptions.jobOptions(), System.err)) {
            int rank = job.rank();
            int localRank = job.members().get(rank).localRank();
            List<GpuDevice> gpus = SweepGpus.chosen(plan.testsDevice(), local, localRank, probe.devices());
            SweepGpus.agree(job, gpus, plan.testsDevice());
            plan = allLists(job, plan, probe, gpus);
            if (rank == 0) {
                // nccl-tests prints it while reading its options, before the preamble, and runs on
                CtaPolicy.of(plan.ctaPolicy(), probe.ncclVersion()).ignored().ifPresent(out::println);
            }
            List<String> heading = new ArrayList<>();
            heading.add("# nccl-harness version " + VersionInfo.projectVersion() + " (nccl-tests 2.19.6 output"
                    + " format) nccl-library=" + probe.ncclVersion().code());
            Capped c = capped(job, plan, gpus, heading);
            List<Long> sizes = c.sizes();
            long maxBytes = c.maxBytes();
            if (rank == 0) {
                slowCheckNote(plan.check(), maxBytes).ifPresent(System.err::println);
            }
            String start = LocalDateTime.now().format(TIME);
            CommunicatorSplit split = CommunicatorSplit.of(rank, job.size(), plan.split()::colour, job::gather,
                    () -> CudaNcclBackend.newUniqueId(probe).bytes());
            splitHeading(plan.split(), job.size(), heading);
            Measured m = measure(job, probe, plan, gpus, split, c, new JobGroupBridge(job));
            List<Device> devs = devices(job, rank, local, gpus, split.colour());
            Diagnosis diagnosis = NcclDebugFiles.diagnoseJob(job);
            // the hosts of this process's communicator: under a split, one colour may live inside one host
            int hosts = (int) job.members().stream().filter(x -> plan.split().colour(x.rank()) == split.colour())
                    .map(x -> x.hostId()).distinct().count();
            if (rank != 0) {
                return ExitCode.OK;
            }
            String host = hostname();
            RunInfo run = runInfo(plan, probe, sizes);
            int n = split.nranks(local); // a split run's rows are of one colour's communicator
            Hardware hw = LiveHardware.of(gpus.get(0).name(), n, hosts, plan.interconnect(), heading);
            Sweep sweep = new Sweep(LiveProvenance.of(host, "on " + hosts + " host(s) from " + host
                    + " by nccl-harness"), plan.collective(), run, hw, devs, m.rows(), List.of());
            LiveProvenance.heading(sweep.provenance()).ifPresent(heading::add);
            int rc = new SweepOutputs(plan, out).emit(List.of(new SweepResult(Combination.auto(), List.of(), sweep,
                    m.perIteration(), m.rankTimes(), m.ncclEstimates())), heading, new SweepOutputs.RunFacts(start, LocalDateTime.now().format(TIME),
                    probe.ncclVersion().code(), null, List.of(), SweepJson.object()));
            if (diagnosis != null) {
                printDiagnosis(diagnosis);
            }
            return rc;
        }
    }

    /** On stderr, so that stdout stays the table nccl-tests prints. */
    private static void printDiagnosis(Diagnosis d) {
        System.err.println("# which transports NCCL used, from its INFO lines (" + d.file() + "; --no-diagnose skips"
                + " this):");
        java.io.StringWriter text = new java.io.StringWriter();
        DiagnosisWriter.text(new PrintWriter(text), d);
        text.toString().lines().skip(1).forEach(System.err::println);
    }

    /**
     * The matrix, one child process per combination. Under a launcher every rank would start its own children,
     * which would need a rendezvous of their own per combination: not offered, said in one line.
     */
    private int matrix(Launch launch) {
        if (launch.place().worldSize() > 1) {
            throw new HarnessException(ExitCode.USAGE, "--algo/--proto run one child process per combination, which"
                    + " this harness offers for a single process (-g N GPUs) only; under " + launch.place().launcher()
                    + " run one sweep per combination with NCCL_ALGO/NCCL_PROTO exported");
        }
        Path work;
        try {
            work = RunFolders.create("matrix");
        } catch (IOException e) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "cannot create a work directory: " + e.getMessage(), e);
        }
        String start = LocalDateTime.now().format(TIME);
        List<SweepResult> results;
        try {
            results = new CombinationRuns(work, CHILD_TIMEOUT_S).run(plan, plan.localGpus());
        } finally {
            RunFolders.remove(work); // the children's outputs are read back into results
        }
        List<String> heading = List.of("# nccl-harness version " + VersionInfo.projectVersion() + " (nccl-tests"
                + " 2.19.6 output format) nccl-library=" + probe.ncclVersion().code(), "# --algo/--proto matrix: "
                + results.size() + " combinations, one process each");
        return new SweepOutputs(plan, out).emit(results, heading, new SweepOutputs.RunFacts(start,
                LocalDateTime.now().format(TIME), probe.ncclVersion().code(), null, List.of(), SweepJson.object()));
    }

    /**
     * {@code -d all} / {@code -o all} (the only requests of more than one type or op) as nccl-tests resolves them:
     * by the loaded NCCL, and fp8 by the job's smallest compute capability (a reduction every rank joins).
     */
    static SweepPlan allLists(org.ncclharness.harness.launch.JobGroup job, SweepPlan plan, GpuProbe probe,
                              List<GpuDevice> gpus) {
        if (plan.types().size() <= 1 && plan.ops().size() <= 1) {
            return plan;
        }
        double[] arch = {TestLists.minArch(gpus)};
        int minArch = (int) job.allreduce(arch, org.ncclharness.harness.launch.JobGroup.Op.MIN)[0];
        return plan.withTypesAndOps(
                plan.types().size() > 1 ? TestLists.allTypes(probe.ncclVersion(), minArch) : plan.types(),
                plan.ops().size() > 1 ? TestLists.allOps(probe.ncclVersion()) : plan.ops());
    }

    /**
     * Under NCCL_TESTS_SPLIT the table alone does not say that its rows are the mean over several communicators
     * (nccl-tests reduces the times over the whole job); the heading does.
     */
    static void splitHeading(SplitRule rule, int processes, List<String> heading) {
        if (rule.equals(SplitRule.none())) {
            return;
        }
        java.util.Map<Long, Integer> sizes = new java.util.TreeMap<>();
        for (int p = 0; p < processes; p++) {
            sizes.merge(rule.colour(p), 1, Integer::sum);
        }
        heading.add("# NCCL_TESTS_SPLIT " + rule.operation() + " " + rule.value() + ": " + sizes.size()
                + " communicator(s), processes per colour " + sizes + "; each row is the mean over all of them,"
                + " as nccl-tests reports it");
    }

    /**
     * Untimed launches before the first timed size: enough for HotSpot to compile the launch path with C2 (its
     * tier-4 thresholds are in the thousands of calls), about 0.1 s of tiny operations on a GPU.
     */
    static final int LAUNCH_WARM_UP = 10_000;

    /** From here the host-side data check costs more than the timed loop it follows. */
    static final long SLOW_CHECK_BYTES = 1L << 30;

    /**
     * nccl-tests checks on the GPU; the harness copies each result back and compares it on the host, element by
     * element, which at GiB sizes takes longer than the measurement itself. Said once on stderr, so the table
     * stays what nccl-tests prints and a long silence is not mistaken for a hang.
     */
    static Optional<String> slowCheckNote(int checkIters, long maxBytes) {
        if (checkIters == 0 || maxBytes < SLOW_CHECK_BYTES) {
            return Optional.empty();
        }
        return Optional.of("note: -c " + checkIters + " checks every result on the host (copied back, compared element"
                + " by element); at sizes of 1 GiB and above that takes longer than the timing itself; -c 0 skips it");
    }

    /** The preamble's facts of a sweep measured now. */
    static RunInfo runInfo(SweepPlan plan, GpuProbe probe, List<Long> sizes) {
        return new RunInfo(null, "nccl-harness", Integer.toString(probe.ncclVersion().code()),
                plan.collective().testName() + "_perf", plan.threads(), plan.gpusPerThread(), sizes.get(0),
                sizes.get(sizes.size() - 1), plan.step(), plan.warmupIters(), plan.iters(), plan.aggIters(),
                plan.check(), plan.graph(), null, // the forced algorithm goes with the run's facts (RunFacts)
                plan.unalignElements());
    }

    /** The sizes and the {@code -e} a job's memory cap leaves. */
    record Capped(List<Long> sizes, long maxBytes) { }

    /**
     * nccl-tests' memory cap over the job: the smallest GPU memory of every process (a reduction every rank
     * joins), announced in {@code heading} as nccl-tests announces it.
     */
    static Capped capped(org.ncclharness.harness.launch.JobGroup job, SweepPlan plan, List<GpuDevice> gpus,
                         List<String> heading) {
        double[] mem = {gpus.stream().mapToLong(GpuDevice::totalMemBytes).min().orElseThrow()};
        long minMem = (long) job.allreduce(mem, org.ncclharness.harness.launch.JobGroup.Op.MIN)[0];
        OptionalLong cap = MemoryCap.reducedMax(plan.maxBytes(), minMem, plan.check() > 0);
        return new Capped(capped(plan.sizes(), cap, heading), cap.orElse(plan.maxBytes()));
    }

    /**
     * Opens {@code split}'s communicator on {@code gpus}, allocates for the capped {@code -e} and measures, with
     * {@code group} for the loop's barriers and reductions; an NCCL failure ends the job (exit 4).
     */
    static Measured measure(org.ncclharness.harness.launch.JobGroup job, GpuProbe probe, SweepPlan plan,
                            List<GpuDevice> gpus, CommunicatorSplit split, Capped c, JobGroup group) {
        int local = gpus.size();
        int[] devices = gpus.stream().mapToInt(GpuDevice::index).toArray();
        try (CudaNcclBackend be = CudaNcclBackend.open(probe, new CommSpec(devices, split.nranks(local),
                split.firstRank(local), new UniqueId(split.uniqueId()), plan.streamNull(),
                CtaPolicy.of(plan.ctaPolicy(), probe.ncclVersion()).value(),
                maxP2pPeers(plan.collective()), plan.unalignElements()));
             SweepProgress progress = SweepProgress.start(job.rank() == 0
                     ? units(plan, split.nranks(local)) * c.sizes().size() : 0)) {
            // the hook runs on the job's watchdog thread: it asks, the polling loop aborts (one thread per comm)
            job.onFailure(be::requestAbort);
            be.allocate(TimedLoop.bufferBytes(c.maxBytes()), TimedLoop.bufferBytes(c.maxBytes()));
            return measure(plan, be, group, c.sizes(), c.maxBytes(), progress, probe);
        } catch (GpuJobException e) {
            job.abort(e.getMessage());
            throw new HarnessException(ExitCode.JOB, e.getMessage(), e);
        }
    }

    /** nccl-tests' memory cap (src/common.cu), announced as it announces it. */
    private static List<Long> capped(List<Long> sizes, OptionalLong cap, List<String> heading) {
        if (cap.isEmpty()) {
            return sizes;
        }
        heading.add("# Reducing maxBytes to " + cap.getAsLong() + " due to memory limitation");
        List<Long> kept = sizes.stream().filter(s -> s <= cap.getAsLong()).toList();
        return kept.isEmpty() ? List.of(cap.getAsLong()) : kept;
    }

    /** The {@code # Using devices} lines of every rank, gathered in rank order (nccl-tests' MPI_Gather). */
    private static List<Device> devices(org.ncclharness.harness.launch.JobGroup job, int rank, int local,
                                        List<GpuDevice> gpus, long colour) {
        StringBuilder mine = new StringBuilder();
        String host = hostname();
        for (int i = 0; i < local; i++) {
            GpuDevice g = gpus.get(i);
            mine.append(rank * local + i).append('\t').append(colour).append('\t').append(ProcessHandle.current().pid()).append('\t').append(host)
                    .append('\t').append(g.index()).append('\t').append(busId(g.pciBusId())).append('\t')
                    .append(g.name()).append('\n');
        }
        List<Device> out = new ArrayList<>();
        for (byte[] b : job.gather(mine.toString().getBytes(StandardCharsets.UTF_8))) {
            for (String line : new String(b, StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split("\t", 7);
                if (f.length == 7) {
                    out.add(new Device(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3],
                            Integer.parseInt(f[4]), f[5], f[6]));
                }
            }
        }
        return out;
    }

    /** nccl-tests 2.19.6's sendrecv limits NCCL to its ring's two peers (sendrecv.cu); 0 leaves NCCL's default. */
    static int maxP2pPeers(Collective c) {
        return c == Collective.SEND_RECV ? 2 : 0;
    }

    /** Rows, -I samples, the fastest/slowest process's times and NCCL's estimates of one process's sweep. */
    record Measured(List<Measurement> rows, List<PerIteration> perIteration, List<RankTimes> rankTimes,
                    List<NcclEstimate> ncclEstimates) { }

    /**
     * nccl-tests' outer loops around the timed loop: datatypes, then ops, then roots (-r -1: every rank in
     * turn), each one warm-up and then {@code -N} cycles of the size list; a non-reducing collective runs one
     * op, a non-rooted one root -1. With {@code -C 1} the rows carry the CPU launch time. {@code maxBytes} is
     * {@code -e} after the memory cap: the buffers' size and the span of the offset rotation, as in nccl-tests.
     */
    static Measured measure(SweepPlan plan, CollectiveBackend be, JobGroup group, List<Long> sizes, long maxBytes,
                            SweepProgress progress, GpuProbe probe) {
        if (plan.collective() == Collective.HYPERCUBE && Integer.bitCount(be.nranks()) != 1) {
            // nccl-tests prints "nRanks N is not a power of 2, skipping" and exits 0 with no table
            throw new HarnessException(ExitCode.USAGE, "hypercube exchanges with rank ^ 2^k, so it needs a power-of-two"
                    + " rank count; this job has " + be.nranks() + " ranks");
        }
        AlltoallvTraffic.requireFits(plan.traffic(), maxBytes, be.nranks());
        TimedLoop loop = new TimedLoop(be, group);
        List<Measurement> rows = new ArrayList<>();
        List<PerIteration> per = new ArrayList<>();
        List<RankTimes> rankTimes = new ArrayList<>();
        List<NcclEstimate> estimates = new ArrayList<>();
        List<ReduceOp> ops = plan.collective().reduces() ? plan.ops() : List.of(ReduceOp.SUM);
        List<Integer> roots = !plan.collective().rooted() ? List.of(-1) : plan.root() >= 0 ? List.of(plan.root())
                : IntStream.range(0, be.nranks()).boxed().toList();
        for (DataType type : plan.types()) {
            for (ReduceOp op : ops) {
                for (int root : roots) {
                    LoopOptions o = new LoopOptions(plan.collective(), type, op, root, sizes, plan.warmupIters(),
                            plan.iters(), plan.aggIters(), plan.check(), plan.blocking(), plan.graph(),
                            plan.perIter(), plan.perIterSkip(), LoopOptions.Average.ofFlag(plan.average()),
                            plan.timeoutS() * 1_000_000_000L, maxBytes, LAUNCH_WARM_UP, plan.traffic());
                    if (probe != null) {
                        o.requireSupportedBy(probe.ncclVersion());
                    }
                    for (SizeResult r : loop.run(o, plan.cycles())) {
                        int row = rows.size();
                        if (plan.ncclEstimate()) {
                            // after the timed loop, with the communicators configured for this type and op
                            be.ncclEstimateUs(r.measurement().count())
                                    .ifPresent(us -> estimates.add(new NcclEstimate(row, us)));
                        }
                        rows.add(plan.cpuTime() ? r.withCpuTime() : r.measurement());
                        perIteration(row, Placement.OUT_OF_PLACE, r.outOfPlace(), per);
                        perIteration(row, Placement.IN_PLACE, r.inPlace(), per);
                        rankTimes.add(new RankTimes(row, Placement.OUT_OF_PLACE, r.outOfPlace().minRankTimeUs(),
                                r.outOfPlace().maxRankTimeUs()));
                        rankTimes.add(new RankTimes(row, Placement.IN_PLACE, r.inPlace().minRankTimeUs(),
                                r.inPlace().maxRankTimeUs()));
                    }
                    progress.advance(sizes.size() * plan.cycles(), type.testName()
                            + (ops.size() > 1 ? " " + op.testName() : ""));
                }
            }
        }
        return new Measured(rows, per, rankTimes, estimates);
    }

    private static void perIteration(int row, Placement p, PlacementResult r, List<PerIteration> out) {
        IterationStats s = r == null ? null : r.perIteration();
        if (s == null) {
            return;
        }
        List<Double> times = new ArrayList<>();
        for (double t : s.timesUs()) {
            times.add(t);
        }
        out.add(new PerIteration(row, p, s.skipped(), s.minUs(), s.maxUs(), s.avgUs(), s.p50Us(), s.p95Us(),
                s.p99Us(), s.stdevUs(), s.cvPct(), times, List.of()));
    }

    /** Timed-loop calls of one sweep: cycles × types × ops × roots. */
    static int units(SweepPlan plan, int nranks) {
        int ops = plan.collective().reduces() ? plan.ops().size() : 1;
        int roots = plan.collective().rooted() && plan.root() < 0 ? nranks : 1;
        return plan.cycles() * plan.types().size() * ops * roots;
    }

    /** {@code 0000:18:00.0} → {@code 0000:18:00}, as nccl-tests prints it. */
    static String busId(String pci) {
        return pci != null && pci.matches(".*\\.\\d+$") ? pci.substring(0, pci.lastIndexOf('.')).toLowerCase()
                : pci;
    }

    /** nccl-tests prints the hostname up to the first dot. */
    static String hostname() {
        try {
            String h = InetAddress.getLocalHost().getHostName();
            return h.contains(".") ? h.substring(0, h.indexOf('.')) : h;
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
