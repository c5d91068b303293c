package org.ncclharness.harness.bringup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.options.NicOptions;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.Program;
import org.ncclharness.harness.nccldebug.NcclDebugChild;
import org.ncclharness.harness.options.NcclLibOption;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.runs.RunInputs;
import org.ncclharness.harness.runs.JudgedReference;
import org.ncclharness.harness.launch.LaunchOptions;
import org.ncclharness.harness.launch.Place;
import org.ncclharness.harness.launch.PlaceDetector;
import org.ncclharness.harness.figure.ReportPage;
import org.ncclharness.harness.live.SweepRequest;
import org.ncclharness.harness.live.SweepPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bringup}: the four-step bring-up of a cluster as one command under a launcher, each step judged as
 * {@code check} judges a run, stopping at the first that fails; or, with {@code --pairs}, the search for the bad
 * host. Rank 0 prints and writes; the other ranks only measure.
 */
@Command(name = "bringup", addMethodSubcommands = false, sortOptions = false,
        description = {"Bring a cluster up in four steps, under mpirun, srun or torchrun, one process per GPU"
                + " (or -g N per process):",
            "  1 every GPU alone (the install works), 2 each host with all its GPUs (NVLink/P2P),",
            "  3 all hosts at the largest sizes (the network), 4 all hosts at every size, kept as the baseline.",
            "Each step runs -N times (default 3) and keeps the median per size, states the spread, and is judged as"
                + " check judges a run (the reference: another cluster's run, the nearest bundled run of this hardware;"
                + " step 4's is --baseline when given) and its GPUs or hosts against each other. The first step that"
                + " FAILs stops the flow with its reasons; the report ends with the diagnosis of NCCL's INFO lines"
                + " (which transport ran): it runs NCCL with NCCL_DEBUG=INFO written to files unless NCCL_DEBUG* is"
                + " set or --no-diagnose is given.",
            "--pairs instead measures every pair of hosts (a halving search above 16 hosts) and names the hosts"
                + " whose pairs are all slow, with a heatmap.",
            "Writes DIR (-o): index.html, and baseline.json/.csv/.png after step 4 (pairs.csv/.png with --pairs)."
                + " Without a GPU it says why and exits 3; --replay replays bundled runs through the same steps,"
                + " labelled as a replay."},
        footer = {"", ExitCode.TABLE})
public final class BringupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;
    @Mixin
    HelpOptions helpOptions;
    @Mixin
    LaunchOptions launchOptions = new LaunchOptions();
    @Mixin
    NcclLibOption ncclLib = new NcclLibOption();

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "smallest size (default 8)")
    String minBytes = "8";
    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "largest size (default 1G; 8G for a"
            + " baseline of the whole curve on large systems)")
    String maxBytes = "1G";
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", description = "multiplicative step (default 2)")
    String stepFactor = "2";
    @Option(names = {"-g", "--ngpus"}, paramLabel = "N", description = "GPUs per process (default 1)")
    int gpus = 1;
    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "timed iterations (default 20)")
    int iters = 20;
    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "warm-up iterations (default 5)")
    int warmup = 5;
    @Option(names = {"-c", "--check"}, paramLabel = "N", description = "data-check iterations (default 1)")
    int check = 1;
    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", description = "runs of each step, median kept (default 3)")
    int cycles = 3;
    @Option(names = "--interconnect", paramLabel = "NAME", description = "the network between the hosts (e.g."
            + " IB-NDR, RoCE-400G; inside a host the NVLink generation comes from the GPU name)")
    String interconnect;
    @Option(names = "--baseline", paramLabel = "DIR|FILE", description = "an earlier bring-up's directory (its"
            + " baseline.json) or any run: step 4 is compared with it (the reference: baseline) instead of another cluster's run")
    String baseline;
    @Option(names = "--warn-below", paramLabel = "PCT", description = "WARN below this %% of the reference or of the"
            + " subjects' median (default 90)")
    double warnBelow = 90;
    @Option(names = "--fail-below", paramLabel = "PCT", description = "FAIL below this %% of the reference at the"
            + " largest size, or of the subjects' median (default 75)")
    double failBelow = 75;
    @Mixin
    NicOptions nicOptions;
    @Option(names = "--allow-mismatch", description = "compare step 4 with a --baseline of another GPU model, GPU or"
            + " host count anyway (marked NOT COMPARABLE); without it such a baseline is set aside and said so")
    boolean allowMismatch;
    @Option(names = "--pairs", description = "measure pairs of hosts and name the slow ones, instead of the four steps")
    boolean pairs;
    @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = OutputFolder.Converter.class,
            description = "where the page and the baseline go (default bringup)")
    OutputFolder out = new OutputFolder(Path.of("bringup"));
    @Option(names = "--force", description = "overwrite the files of an earlier bring-up in DIR")
    boolean force;
    @Option(names = "--strict", description = "exit 1 on WARN as on FAIL: for CI, where a verdict that could not be"
            + " proved healthy must stop the job")
    boolean strict;
    @Option(names = "--replay", description = "with no GPU: replay bundled runs through the steps, labelled as"
            + " a replay (default: exit 3)")
    boolean replay;
    @Option(names = "--no-diagnose", description = "do not run NCCL with NCCL_DEBUG=INFO (to files) for the"
            + " diagnosis of which transports it used; the default where NCCL_DEBUG* are unset")
    boolean noDiagnose;
    @Option(names = "--dataset", paramLabel = "ID", description = "with --replay: the bundled multi-host run that"
            + " steps 3 and 4 replay")
    String dataset;

    /** The outputs of a bring-up, refused before any work when they exist without --force. */
    static final List<String> FILES = List.of("baseline.json", "baseline.csv", "baseline.png",
            "pairs.csv", "pairs.png");

    @Override
    public Integer call() {
        if (cycles < 1) {
            throw new HarnessException(ExitCode.USAGE, "invalid -N " + cycles + ": expected 1 or more runs per step");
        }
        SweepPlan whole = stepPlan(BringupStep.BASELINE, null); // every flag checked before any work
        if (dataset != null && !replay) {
            throw new HarnessException(ExitCode.USAGE, "--dataset names what --replay replays; add --replay, or drop"
                    + " --dataset");
        }
        nicOptions.nics(); // checked before any work
        if (pairs && replay) {
            throw new HarnessException(ExitCode.USAGE, "--pairs and --replay contradict: --pairs measures this job's"
                    + " hosts against each other, and no bundled run can stand in for them; drop one");
        }
        if (interconnect != null) {
            HardwareFacts.bundled().interconnectNamed("--interconnect", interconnect); // a typo is exit 2 here, not
            // after a cluster's worth of measuring
        }
        if (pairs && baseline != null) {
            throw new HarnessException(ExitCode.USAGE, "--pairs and --baseline contradict: --baseline is compared"
                    + " with step 4, which --pairs does not run");
        }
        ReportPage.checkWritable(out.path(), force, "-o/--out");
        if (Files.isDirectory(out.path())) {
            FILES.forEach(f -> OutputFile.checkWritable(out.resolve(f), force)); // DIR is made when missing
        }
        StepJudge.Baseline base = baseline == null ? null : readBaseline(baseline);
        if (!(failBelow > 0 && failBelow <= warnBelow && warnBelow <= 100)) {
            throw new HarnessException(ExitCode.USAGE, "--fail-below " + failBelow + " and --warn-below " + warnBelow
                    + ": expected 0 < FAIL <= WARN <= 100 (a size that fails must also warn)");
        }
        CheckRules d = CheckRules.defaults();
        CheckRules rules = new CheckRules(warnBelow, failBelow, d.dipPct(), d.minBusBwGBps(), d.failOnWrong(),
                d.latencyWarnFactor());
        ncclLib.apply();
        GpuProbe probe = Gpus.probe();
        BringupOutputs outputs = new BringupOutputs(out.path(), force, strict);
        if (!probe.ok()) {
            Place place = PlaceDetector.detect(System.getenv(), launchOptions.placeFlags(),
                    ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L));
            if (!replay) {
                // every rank says it: the first to exit 3 makes the launcher stop the others, rank 0 perhaps unprinted
                System.err.println(place.rankLabel() + "no GPU: " + probe.firstProblem().orElseThrow().oneLine()
                        + (pairs ? " (bringup --pairs measures this job's hosts against each other: it needs their GPUs)"
                        : " (bringup measures this machine; --replay replays bundled runs through the steps, labelled"
                        + " as such)"));
                return ExitCode.ENVIRONMENT;
            }
            if (place.rank() != 0) {
                return ExitCode.OK;
            }
            if (interconnect != null) {
                System.err.println("note: --interconnect " + interconnect + " applies to a live run; the replayed"
                        + " runs state their own");
            }
            return new BringupReplay(judge(rules, base), dataset, outputs, commandLine(), whole.minBytes(),
                    whole.maxBytes()).run(probe.firstProblem().orElseThrow().oneLine());
        }
        if (NcclDebugChild.wanted(System.getenv(), noDiagnose)) {
            List<String> args = commandLine();
            return NcclDebugChild.rerun(Program.MAIN_CLASS, args.subList(1, args.size()));
        }
        return new BringupRun(this::stepPlan, gpus, rules, judge(rules, base), outputs, probe, commandLine())
                .run(launchOptions, pairs);
    }

    private StepJudge judge(CheckRules rules, StepJudge.Baseline base) {
        return new StepJudge(HardwareFacts.bundled(), rules, base, allowMismatch, new Hints(null, null, interconnect,
                null, null, null, nicOptions.nics()));
    }

    /** A step's sweep as a typed request, validated as {@code sweep} validates one; step 3 starts {@code networkFrom}. */
    SweepPlan stepPlan(BringupStep step, Long networkFrom) {
        SweepRequest request = SweepRequest.forStep(networkFrom != null ? Long.toString(networkFrom) : minBytes,
                maxBytes, stepFactor, step.gpusPerProcess(gpus), iters, warmup, check, cycles, interconnect);
        // NCCL_TESTS_DEVICE keeps its meaning; a split is the step's to decide
        Map<String, String> env = System.getenv().containsKey("NCCL_TESTS_DEVICE")
                ? Map.of("NCCL_TESTS_DEVICE", System.getenv("NCCL_TESTS_DEVICE")) : Map.of();
        return request.plan(env, commandLine());
    }

    private List<String> commandLine() {
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        List<String> args = new ArrayList<>(List.of("harness.jar"));
        if (given.isEmpty() || !given.get(0).equals("bringup")) {
            args.add("bringup");
        }
        args.addAll(given);
        return args;
    }

    /** An earlier bring-up's directory means its baseline.json; anything else is read as {@code check} reads a run. */
    static StepJudge.Baseline readBaseline(String nameOrDir) {
        String name = JudgedReference.baselineFile(nameOrDir);
        List<Sweep> tables = RunInputs.read(name);
        Sweep allReduce = tables.stream().filter(t -> t.collective() == Collective.ALL_REDUCE).findFirst()
                .orElseThrow(() -> new InputException(name, 0, "holds no AllReduce table; a bring-up's baseline is"
                        + " an AllReduce run"));
        return new StepJudge.Baseline(nameOrDir, allReduce);
    }
}
