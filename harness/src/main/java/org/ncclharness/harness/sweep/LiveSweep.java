package org.ncclharness.harness.sweep;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.ncclharness.calibration.io.PerIteration;
import org.ncclharness.calibration.io.SweepJson;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.CollectiveBackend;
import org.ncclharness.gpu.CommSpec;
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
import org.ncclharness.gpu.TimedLoop;
import org.ncclharness.harness.ExitCode;
import org.ncclharness.harness.HarnessException;
import org.ncclharness.harness.VersionInfo;

/**
 * A sweep measured now, in one process driving {@code -t × -g} local GPUs: native's timed loop over every
 * cycle, datatype, op and root, then the same outputs a replay goes through. Multi-process jobs (the launch
 * layer's group) and the per-combination child processes of {@code --algo/--proto} plug in here.
 */
final class LiveSweep {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final SweepPlan plan;
    private final GpuProbe probe;
    private final PrintWriter out;

    LiveSweep(SweepPlan plan, GpuProbe probe, PrintWriter out) {
        this.plan = plan;
        this.probe = probe;
        this.out = out;
    }

    int run() {
        if (plan.isMatrix()) {
            throw new HarnessException(ExitCode.USAGE, "--algo/--proto on a GPU need one process per combination"
                    + " (NCCL reads NCCL_ALGO/NCCL_PROTO once per communicator and NCCL_DEBUG once per process);"
                    + " run one sweep per combination with NCCL_ALGO/NCCL_PROTO set until that lands");
        }
        int n = plan.localGpus();
        int first = plan.testsDevice() == null ? 0 : plan.testsDevice();
        if (first + n > probe.devices().size()) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "Invalid number of GPUs: " + (first + n)
                    + " requested but only " + probe.devices().size() + " were found.");
        }
        List<GpuDevice> gpus = probe.devices().subList(first, first + n);
        List<String> heading = new ArrayList<>();
        heading.add("# nccl-harness version " + VersionInfo.projectVersion() + " (nccl-tests 2.19.6 output format)"
                + " nccl-library=" + probe.ncclVersion().code());
        List<Long> sizes = plan.sizes();
        long minMem = gpus.stream().mapToLong(GpuDevice::totalMemBytes).min().orElseThrow();
        OptionalLong cap = MemoryCap.reducedMax(plan.maxBytes(), minMem, plan.check() > 0);
        if (cap.isPresent()) {
            heading.add("# Reducing maxBytes to " + cap.getAsLong() + " due to memory limitation");
            sizes = sizes.stream().filter(s -> s <= cap.getAsLong()).toList();
            if (sizes.isEmpty()) {
                sizes = List.of(cap.getAsLong());
            }
        }
        String start = LocalDateTime.now().format(TIME);
        Measured m;
        int[] devices = IntStream.range(first, first + n).toArray();
        try (CudaNcclBackend be = CudaNcclBackend.open(probe, new CommSpec(devices, n, 0,
                CudaNcclBackend.newUniqueId(probe), plan.streamNull()));
             SweepProgress progress = SweepProgress.start(units(plan, n) * sizes.size())) {
            long max = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
            be.allocate(TimedLoop.bufferBytes(max), TimedLoop.bufferBytes(max));
            m = measure(plan, be, JobGroup.single(), sizes, progress, probe);
        } catch (GpuJobException e) {
            throw new HarnessException(ExitCode.JOB, e.getMessage(), e);
        }
        String host = hostname();
        List<Device> devs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GpuDevice g = gpus.get(i);
            devs.add(new Device(i, 0, ProcessHandle.current().pid(), host, g.index(), busId(g.pciBusId()), g.name()));
        }
        RunInfo run = new RunInfo(null, "nccl-harness", Integer.toString(probe.ncclVersion().code()),
                plan.collective().testName() + "_perf", plan.threads(), plan.gpusPerThread(), sizes.get(0),
                sizes.get(sizes.size() - 1), plan.step(), plan.warmupIters(), plan.iters(), plan.aggIters(),
                plan.check(), plan.graph());
        Sweep sweep = new Sweep(new Provenance(SourceKind.MEASURED, host, null, "measured now on " + host
                + " by nccl-harness"), plan.collective(), run, new Hardware(gpus.get(0).name(), n, 1, n, 1,
                plan.interconnect(), null), devs, m.rows(), List.of());
        var harness = SweepJson.object();
        return new SweepOutputs(plan, out).emit(List.of(new SweepResult(Combination.auto(), List.of(), sweep,
                m.perIteration())), heading, new SweepOutputs.RunFacts(start, LocalDateTime.now().format(TIME),
                probe.ncclVersion().code(), null, List.of(), harness));
    }

    /** Rows and -I samples of one process's sweep. */
    record Measured(List<Measurement> rows, List<PerIteration> perIteration) { }

    /**
     * nccl-tests' outer loops around the timed loop: cycles, then datatypes, then ops, then roots (-r -1: every
     * rank in turn); a non-reducing collective runs one op, a non-rooted one root -1.
     */
    static Measured measure(SweepPlan plan, CollectiveBackend be, JobGroup group, List<Long> sizes,
                            SweepProgress progress, GpuProbe probe) {
        TimedLoop loop = new TimedLoop(be, group);
        List<Measurement> rows = new ArrayList<>();
        List<PerIteration> per = new ArrayList<>();
        List<ReduceOp> ops = plan.collective().reduces() ? plan.ops() : List.of(ReduceOp.SUM);
        List<Integer> roots = !plan.collective().rooted() ? List.of(-1) : plan.root() >= 0 ? List.of(plan.root())
                : IntStream.range(0, be.nranks()).boxed().toList();
        for (int cycle = 0; cycle < plan.cycles(); cycle++) {
            for (DataType type : plan.types()) {
                for (ReduceOp op : ops) {
                    for (int root : roots) {
                        LoopOptions o = new LoopOptions(plan.collective(), type, op, root, sizes, plan.warmupIters(),
                                plan.iters(), plan.aggIters(), plan.check(), plan.blocking(), plan.graph(),
                                plan.perIter(), plan.perIterSkip(), LoopOptions.Average.ofFlag(plan.average()),
                                plan.timeoutS() * 1_000_000_000L);
                        if (probe != null) {
                            o.requireSupportedBy(probe.ncclVersion());
                        }
                        for (SizeResult r : loop.run(o)) {
                            int row = rows.size();
                            rows.add(r.measurement());
                            perIteration(row, Placement.OUT_OF_PLACE, r.outOfPlace(), per);
                            perIteration(row, Placement.IN_PLACE, r.inPlace(), per);
                        }
                        progress.advance(sizes.size(), type.testName() + (ops.size() > 1 ? " " + op.testName() : "")
                                + (plan.cycles() > 1 ? " cycle " + (cycle + 1) : ""));
                    }
                }
            }
        }
        return new Measured(rows, per);
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
