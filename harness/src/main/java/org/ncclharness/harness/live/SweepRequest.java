package org.ncclharness.harness.live;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;
import org.ncclharness.calibration.measure.SizeList;
import org.ncclharness.gpu.DataType;
import org.ncclharness.gpu.ReduceOp;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.BandwidthConverter;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.figure.ReportPage;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a sweep is asked to do, in nccl-tests' flags and ours: {@code sweep}'s options (a picocli mixin, so that its
 * help lists them in nccl-tests' order), or typed values another command that runs sweeps fills in
 * ({@link #forStep}); validated into a {@link SweepPlan} by the one {@link #plan}.
 */
public final class SweepRequest {

    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", description = "threads per process (default 1)")
    int threads = 1;
    @Option(names = {"-g", "--ngpus"}, paramLabel = "N", description = "GPUs per thread (default 1)")
    int gpus = 1;
    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "smallest size (default 32M)")
    String minBytes = "32M";
    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "largest size (default 32M)")
    String maxBytes = "32M";
    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", description = "additive step (used when -f is not given)")
    String stepBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N",
            description = "multiplicative step, an integer (default 2 when neither -f nor -i is given)")
    String stepFactor;
    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "timed iterations (default 20)")
    int iters = 20;
    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "warm-up iterations (default 1)")
    int warmup = 1;
    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", description = "operations per iteration (default 1)")
    int agg = 1;
    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", description = "repeat the whole sweep N times (default 1)")
    int cycles = 1;
    @Option(names = {"-p", "--parallel_init"}, paramLabel = "0/1", description = "threads create their communicators concurrently")
    int parallelInit;
    @Option(names = {"-c", "--check"}, paramLabel = "N", description = "data-check iterations (default 1; 0 = #wrong N/A)")
    int check = 1;
    @Option(names = {"-o", "--op"}, paramLabel = "OP", description = "sum, prod, max, min, avg, mulsum or all (all: nccl-tests' list for the loaded NCCL; default sum)")
    String op = "sum";
    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE",
            description = "int8 uint8 int32 uint32 int64 uint64 half float double bfloat16 f8e4m3 f8e5m2 or all (default float)")
    String type = "float";
    @Option(names = {"-r", "--root"}, paramLabel = "N", description = "root rank of rooted collectives; -1 = every root (default 0)")
    int root;
    @Option(names = {"-z", "--blocking"}, paramLabel = "0-3", description = "0 none, 1 sync+barrier per op, 2 sync per op, 3 sync+barrier per iteration")
    int blocking;
    @Option(names = {"-y", "--stream_null"}, paramLabel = "0/1", description = "use the NULL stream")
    int streamNull;
    @Option(names = {"-T", "--timeout"}, paramLabel = "S", description = "seconds before a stuck operation aborts the run (0 = none)")
    int timeout;
    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", description = "capture the timed loop in a CUDA graph, launch it N times")
    int graph;
    @Option(names = {"-C", "--report_cputime"}, paramLabel = "0/1", description = "report CPU launch time instead of completion time")
    int cpuTime;
    @Option(names = {"-a", "--average"}, paramLabel = "0-3", description = "combine ranks' times: 0 rank 0, 1 mean (default), 2 min, 3 max")
    int average = 1;
    // -V is nccl-tests' device CTA count here, so help and version are declared by hand, not by picocli's mixin
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;
    @Option(names = "--version", versionHelp = true, description = "Print the harness version and exit.")
    boolean version;
    @Mixin
    NcclTestsLateFlags late = new NcclTestsLateFlags();
    @Option(names = {"-R", "--local_register"}, paramLabel = "0-2", description = "register buffers: 1 ncclCommRegister, 2 symmetric window")
    int localRegister;
    @Option(names = {"-S", "--report_timestamps"}, paramLabel = "0/1", description = "append a timestamp to each row")
    int timestamps;
    @Option(names = {"-M", "--memory"}, paramLabel = "0/1", description = "print GPU memory usage")
    int memory;
    @Option(names = {"-I", "--per_iter_timing"}, paramLabel = "0/1", description = "per-iteration CUDA-event timing")
    int perIter;
    @Option(names = {"-K", "--per_iter_skip"}, paramLabel = "N", description = "drop the first N samples from the -I summary")
    int perIterSkip;
    @Option(names = {"-J", "--json", "--output_file"}, paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write the sweep as JSON (nccl-tests -J layout plus ours); - for standard output (the"
                    + " table then goes to standard error)")
    OutputTarget json;

    @Option(names = "--collective", paramLabel = "NAME",
            description = "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, alltoallv, sendrecv,"
                    + " gather, scatter, hypercube (default allreduce)")
    String collective;
    @Option(names = "--algo", paramLabel = "LIST", description = "NCCL_ALGO values to sweep, e.g. Ring,Tree,NVLS (one table each)")
    String algo;
    @Option(names = "--proto", paramLabel = "LIST", description = "NCCL_PROTO values to sweep, e.g. LL,LL128,Simple")
    String proto;
    @Option(names = "--csv", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write the rows as CSV, each with its provenance (a replay's rows say replay); - for"
                    + " standard output")
    OutputTarget csv;
    @Option(names = "--no-calibrate", description = "skip the calibration after the table")
    boolean noCalibrate;
    @Option(names = "--no-replay", description = "with no GPU, exit 3 after the reason instead of replaying bundled"
            + " data (also HARNESS_NO_REPLAY=1): what a CI job on a node should use, so a broken node cannot pass on"
            + " someone else's numbers")
    boolean noReplay;
    @Option(names = "--dataset", paramLabel = "ID", description = "the bundled dataset to replay when there is no GPU")
    String dataset;
    @Option(names = "--min-busbw", paramLabel = "GB/s", converter = BandwidthConverter.GBpsByDefault.class,
            description = "exit 1 when the average busbw is below 0.9 x this (nccl-tests' NCCL_TESTS_MIN_BW rule);"
                    + " a replay is not judged")
    Double minBusBw;
    @Option(names = "--interconnect", paramLabel = "NAME",
            description = "interconnect of a live run, for its calibration: on one host the one inside it, across hosts "
                    + "the network between them (e.g. NVLink4, IB-NDR; see hardware/interconnects.json). Without it the "
                    + "NVLink generation comes from the GPU name where the name tells it (hardware/gpu-fabrics.json)")
    String interconnect;
    @Option(names = "--report", paramLabel = "DIR", converter = OutputFolder.Converter.class,
            description = "also write a page that opens from disk: DIR/index.html with the verdicts, the results"
                    + " table and the busbw figure with the calibrated models")
    OutputFolder report;
    @Option(names = "--nccl-estimate", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "with NCCL 2.22+, ask NCCL for its own time of each size (ncclGroupSimulateEnd: nothing runs)"
                    + " and print it after the table and in the JSON beside the measurement (default on)")
    boolean ncclEstimate = true;
    @Option(names = "--force", description = "overwrite existing output files")
    boolean force;

    @Option(names = "--strict", description = "exit 1 when the verdict printed after the table (check's, on the"
            + " table) is WARN or FAIL: for CI, where a verdict that could not be proved healthy must stop the job")
    boolean strict;
    @Option(names = "--no-diagnose", description = "do not run NCCL with NCCL_DEBUG=INFO (to files) and diagnose"
            + " which transports it used; the default where NCCL_DEBUG, NCCL_DEBUG_SUBSYS and NCCL_DEBUG_FILE are unset")
    boolean noDiagnose;

    /** {@code --no-replay}. */
    public boolean noReplay() {
        return noReplay;
    }

    /** {@code --dataset}. */
    public String dataset() {
        return dataset;
    }

    /** {@code --no-diagnose}. */
    public boolean noDiagnose() {
        return noDiagnose;
    }

    /**
     * A bring-up step's sweep: an AllReduce of the given sizes and counts, NCCL's own choice of algorithm, no
     * calibration after it; every other flag as {@code sweep} defaults it.
     */
    public static SweepRequest forStep(String minBytes, String maxBytes, String stepFactor, int gpusPerProcess,
                                       int iters, int warmup, int check, int cycles, String interconnect) {
        SweepRequest r = new SweepRequest();
        r.minBytes = minBytes;
        r.maxBytes = maxBytes;
        r.stepFactor = stepFactor;
        r.gpus = gpusPerProcess;
        r.iters = iters;
        r.warmup = warmup;
        r.check = check;
        r.cycles = cycles;
        r.interconnect = interconnect;
        r.noCalibrate = true;
        return r;
    }

    /**
     * Validates every flag and the nccl-tests environment; a bad one is one line and exit 2, before any work.
     *
     * @param args the whole command line as the user gave it, for the JSON
     */
    public SweepPlan plan(Map<String, String> env, List<String> args) {
        long min = size(minBytes, "minbytes");
        long max = size(maxBytes, "maxbytes");
        long factor;
        long step;
        String stepText;
        if (stepFactor != null) {
            factor = integer(stepFactor, "-f");
            if (factor < 1) {
                throw usage("invalid step factor '" + stepFactor + "' (-f): expected an integer of at least 2,"
                        + " or 1 with -i for an additive step");
            }
            if (factor > 1 && stepBytes != null) {
                throw usage("-f " + stepFactor + " and -i " + stepBytes + " contradict: -f multiplies the size, -i "
                        + "adds to it; give one (or -f 1 with -i)");
            }
            step = stepBytes == null ? 1L << 20 : size(stepBytes, "stepbytes");
        } else if (stepBytes != null) {
            factor = 1;
            step = size(stepBytes, "stepbytes");
        } else {
            factor = 2;
            step = 1L << 20;
        }
        stepText = factor > 1 ? factor + "(factor)" : step + "(bytes)";
        List<Long> sizes;
        try {
            sizes = SizeList.sizes(min, max, step, factor);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        Collective coll = collective == null ? Collective.ALL_REDUCE : Collective.byName(collective)
                .filter(Collective::runnable).orElseThrow(() ->
                usage("invalid --collective '" + collective + "': expected allreduce, allgather, reducescatter,"
                        + " broadcast, reduce, alltoall, alltoallv, sendrecv, gather, scatter or"
                        + " hypercube"));
        // only alltoallv_perf reads its variables: a stale matrix file must not stop another collective
        PeerTraffic traffic = coll == Collective.ALL_TO_ALL_V ? AlltoallvTraffic.fromEnvironment(env)
                : PeerTraffic.NCCL_TESTS_DEFAULT;
        AlltoallvTraffic.requireOneSize(traffic, min, max);
        positive("-t", threads, 1);
        positive("-g", gpus, 1);
        positive("-n", iters, 1);
        positive("-w", warmup, 0);
        positive("-m", agg, 1);
        positive("-c", check, 0);
        positive("-G", graph, 0);
        positive("-T", timeout, 0);
        if (cycles < 1) {
            throw usage("invalid -N " + cycles + ": expected a count of at least 1 (nccl-tests' -N 0, run forever,"
                    + " is not offered: a sweep that never ends has no table to print)");
        }
        late.refuseDeviceKernels();
        range("-z", blocking, 3);
        range("-a", average, 3);
        range("-R", localRegister, 2);
        for (String[] f : new String[][] {{"-p", "" + parallelInit}, {"-y", "" + streamNull}, {"-C", "" + cpuTime},
                {"-S", "" + timestamps}, {"-M", "" + memory}, {"-I", "" + perIter}}) {
            range(f[0], Integer.parseInt(f[1]), 1);
        }
        if (perIterSkip < 0 || perIterSkip >= iters) {
            throw usage("invalid -K " + perIterSkip + ": expected 0 <= K < iters (" + iters + ")");
        }
        if (perIterSkip > 0 && perIter == 0) {
            throw usage("-K " + perIterSkip + " needs -I 1");
        }
        if (root < -1) {
            throw usage("invalid -r " + root + ": expected a rank, or -1 for every root");
        }
        List<DataType> types = type.equalsIgnoreCase("all") ? Arrays.asList(DataType.values())
                : List.of(DataType.byName(type).orElseThrow(() -> usage("invalid type '" + type + "' (-d): expected"
                        + " int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2"
                        + " or all")));
        List<ReduceOp> ops = op.equalsIgnoreCase("all") ? Arrays.asList(ReduceOp.values())
                : List.of(ReduceOp.byName(op).orElseThrow(() -> usage("invalid op '" + op + "' (-o): expected sum,"
                        + " prod, max, min, avg, mulsum or all")));
        List<Combination> combinations = Combination.matrix(algo, proto);
        Integer device = null;
        String dev = env.get("NCCL_TESTS_DEVICE");
        if (dev != null && !dev.isBlank()) {
            device = (int) integer(dev, "NCCL_TESTS_DEVICE");
            if (device < 0) {
                throw usage("invalid NCCL_TESTS_DEVICE='" + dev + "': expected a device index of 0 or more");
            }
        }
        Double minBw = minBusBw;
        String envMin = env.get("NCCL_TESTS_MIN_BW");
        if (minBw == null && envMin != null && !envMin.isBlank()) {
            try {
                minBw = new BandwidthConverter.GBpsByDefault().convert(envMin);
            } catch (CommandLine.TypeConversionException e) {
                throw usage("invalid NCCL_TESTS_MIN_BW: " + e.getMessage());
            }
        }
        for (OutputTarget o : new OutputTarget[] {json, csv}) {
            if (o != null && o.isStdout() && (combinations.size() > 1 || !combinations.get(0).isAuto())) {
                throw usage("--algo/--proto write one file per combination, and standard output holds one: give"
                        + " " + (o == json ? "-J a file name (out.json gives out.ring-ll.json, ...)"
                        : "--csv a file name (out.csv gives out.ring-ll.csv, ...)"));
            }
            if (o != null) {
                o.checkWritable(force);
            }
        }
        if (report != null) {
            ReportPage.checkWritable(report.path(), force);
        }
        return new SweepPlan(sizes, min, max, stepText, coll, collective != null, types, ops, root, combinations,
                threads, gpus, warmup, iters, agg, cycles, check, blocking, streamNull == 1, timeout, graph,
                cpuTime == 1, average, localRegister, timestamps == 1, parallelInit, memory == 1, perIter == 1, perIterSkip,
                device, SplitRule.fromEnvironment(env), csv, json, report == null ? null : report.path(), force, strict, !noCalibrate, dataset, minBw, interconnect,
                late.ctaPolicy(), late.unalign(), ncclEstimate, traffic, args);
    }

    private static long size(String text, String option) {
        try {
            return SizeList.parseSize(text, option);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** nccl-tests reads -f with strtol; we refuse what strtol would silently truncate (1.5 → 1). */
    private static long integer(String text, String option) {
        try {
            return Long.decode(text.trim());
        } catch (NumberFormatException e) {
            throw usage("invalid " + option + " '" + text + "': expected an integer");
        }
    }

    private static void positive(String flag, int v, int least) {
        if (v < least) {
            throw usage(String.format(Locale.ROOT, "invalid %s %d: expected %d or more", flag, v, least));
        }
    }

    private static void range(String flag, int v, int most) {
        if (v < 0 || v > most) {
            throw usage(String.format(Locale.ROOT, "invalid %s %d: expected 0 to %d", flag, v, most));
        }
    }

    private static HarnessException usage(String message) {
        return new HarnessException(ExitCode.USAGE, message);
    }

    /**
     * nccl-tests' letters for NCCL 2.27+ features, kept together so that help lists them where nccl-tests does. -x
     * and -u run; -D's device-API kernels cannot (see {@link #refuseDeviceKernels}).
     */
    static final class NcclTestsLateFlags {
        @Option(names = {"-x", "--cta_policy"}, paramLabel = "0-2",
                description = "NCCL's CTA policy (ncclConfig_t.CTAPolicy): 0 default, 1 efficiency (NCCL 2.27+), 2 zero"
                        + " (NCCL 2.28+); unset without -x")
        Integer ctaPolicy;
        @Option(names = {"-D", "--device_implementation"}, paramLabel = "N",
                description = "nccl-tests' device-API kernels (NCCL 2.28+): only 0, NCCL's host API, runs here")
        int deviceImpl;
        @Option(names = {"-V", "--device_cta_count"}, paramLabel = "1-128",
                description = "CTAs of -D's device kernels; accepted, without effect, as nccl-tests does with -D 0")
        int deviceCtaCount = 16;
        @Option(names = {"-u", "--unalign"}, paramLabel = "N", description = "misalign every buffer by N elements")
        int unalign;

        int ctaPolicy() {
            if (ctaPolicy != null && (ctaPolicy < 0 || ctaPolicy > 2)) {
                throw usage("invalid -x " + ctaPolicy + ": expected 0 (default), 1 (efficiency) or 2 (zero)");
            }
            return ctaPolicy == null ? -1 : ctaPolicy;
        }

        int unalign() {
            positive("-u", unalign, 0);
            return unalign;
        }

        /**
         * nccl-tests' -D N runs its own kernels, CUDA code compiled with nvcc against NCCL's nccl_device.h; this
         * harness launches from Java, and the CUDA preset binds none of NCCL's device API: refused in one line.
         */
        void refuseDeviceKernels() {
            if (deviceImpl != 0) {
                throw usage("not offered: -D " + deviceImpl + " (device implementation): nccl-tests' device-API"
                        + " kernels are CUDA code built with nvcc against NCCL 2.28+'s nccl_device.h, and"
                        + " org.bytedeco:cuda 13.3 binds none of that API; run nccl-tests itself for -D, or -D 0");
            }
            if (deviceCtaCount < 1 || deviceCtaCount > 128) {
                throw usage("invalid -V " + deviceCtaCount + ": expected 1 to 128 CTAs");
            }
        }
    }
}
