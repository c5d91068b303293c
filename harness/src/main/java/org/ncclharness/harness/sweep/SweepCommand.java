package org.ncclharness.harness.sweep;

import org.ncclharness.harness.live.LiveSweep;
import org.ncclharness.harness.live.ReplaySweep;
import org.ncclharness.harness.live.SweepPlan;
import org.ncclharness.harness.live.SweepRequest;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.Program;
import org.ncclharness.harness.nccldebug.NcclDebugChild;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.NcclLibOption;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.launch.Launch;
import org.ncclharness.harness.launch.LaunchOptions;
import org.ncclharness.harness.launch.Place;
import org.ncclharness.harness.launch.PlaceDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sweep}: nccl-tests' flags, its table on stdout, our JSON/CSV and the calibration after it; without a
 * GPU, a labelled replay of a bundled dataset through the same writers (docs/sweep-and-check.md).
 */
@Command(name = "sweep", addMethodSubcommands = false, versionProvider = VersionInfo.class, sortOptions = false,
        description = {"Run an nccl-tests style sweep of one collective and print the nccl-tests 2.19.6 table,"
                + " then the calibrated alpha-beta model.",
            "Flags keep nccl-tests' letters and meanings; sizes take K, M, G (powers of 1024).",
            "One deliberate difference: when neither -f nor -i is given the step is -f 2 (nccl-tests' default"
                + " +1M increment would turn -b 1K -e 8G into 8,192 sizes).",
            "Without a GPU (no driver, no device, no NCCL) it says why in one line, then replays the bundled"
                + " dataset chosen by --dataset, or the one whose GPU count is closest to the job's among those"
                + " covering most requested sizes; the replay is labelled as such in every output.",
            "Environment read as nccl-tests reads it: NCCL_TESTS_DEVICE, NCCL_TESTS_SPLIT,"
                + " NCCL_TESTS_SPLIT_MASK, NCCL_TESTS_MIN_BW.",
            "Exit 1 when the average busbw is below 0.9 x --min-busbw / NCCL_TESTS_MIN_BW or any #wrong is above 0"
                + " (the trailer says FAILED), as nccl-tests fails both. A replay is not judged: another machine's"
                + " numbers say nothing of this one, so it exits 0, the trailer says NOT-JUDGED where a gate is set"
                + " and a '#' line after the table says why."},
        footer = {"", ExitCode.TABLE})
public final class SweepCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LaunchOptions launchOptions = new LaunchOptions();

    @Mixin
    NcclLibOption ncclLib = new NcclLibOption();

    @Mixin
    SweepRequest request = new SweepRequest();

    /** The environment form of {@code --no-replay}, for a CI job that cannot change the command line. */
    static final String NO_REPLAY_ENV = "HARNESS_NO_REPLAY";

    /**
     * {@code 1/true/yes/on} (any case) turn replay off, {@code 0/false/no/off} or unset leave it on; anything else
     * is refused, so that a CI job with a typo cannot pass on bundled numbers.
     */
    static boolean noReplayFromEnv(String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (java.util.Set.of("1", "true", "yes", "on").contains(v)) {
            return true;
        }
        if (java.util.Set.of("0", "false", "no", "off").contains(v)) {
            return false;
        }
        throw usage("invalid " + NO_REPLAY_ENV + "='" + value + "': expected 1, true, yes or on (no replay), or 0,"
                + " false, no or off");
    }

    @Override
    public Integer call() {
        // The parse result holds the whole command line when sweep ran under the top command, its own otherwise
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        List<String> args = new ArrayList<>(List.of("harness.jar"));
        if (given.isEmpty() || !given.get(0).equals("sweep")) {
            args.add("sweep");
        }
        args.addAll(given);
        SweepPlan plan = request.plan(System.getenv(), args);
        boolean noReplay = request.noReplay();
        String dataset = request.dataset();
        if (noReplay && dataset != null) {
            throw usage("--no-replay and --dataset " + dataset + " contradict: --dataset names what to replay; give"
                    + " one");
        }
        // with -J - or --csv -, standard output holds that file alone: the table goes to standard error
        PrintWriter out = new PrintWriter(OutputTarget.reportStream(plan.json(), plan.csv()), true, StandardCharsets.UTF_8);
        ncclLib.apply();
        GpuProbe probe = Gpus.probe();
        if (!probe.ok()) {
            // A replay measures nothing together, so it needs where-am-I but no rendezvous.
            Place place = PlaceDetector.detect(System.getenv(), launchOptions.placeFlags(),
                    ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L));
            if (noReplay || noReplayFromEnv(System.getenv(NO_REPLAY_ENV))) {
                // every rank says it: the first to exit 3 makes the launcher stop the others, rank 0 perhaps unprinted
                System.err.println(place.rankLabel() + "no GPU: " + probe.firstProblem().orElseThrow().oneLine()
                        + " (--no-replay" + (noReplay ? "" : " from " + NO_REPLAY_ENV + "=" + System.getenv(NO_REPLAY_ENV))
                        + ": nothing measured, nothing replayed)");
                return ExitCode.ENVIRONMENT;
            }
            if (place.rank() != 0) {
                return ExitCode.OK; // only rank 0 prints
            }
            return new ReplaySweep(plan, out, DatasetCatalog.bundled(), place.worldSize() * plan.localGpus())
                    .run(probe.firstProblem().orElseThrow());
        }
        if (!plan.isMatrix() && NcclDebugChild.wanted(System.getenv(), request.noDiagnose())) {
            return NcclDebugChild.rerun(Program.MAIN_CLASS, plan.args().subList(1, plan.args().size()));
        }
        return new LiveSweep(plan, probe, out).run(Launch.resolve(launchOptions), launchOptions);
    }

    private static HarnessException usage(String message) {
        return new HarnessException(ExitCode.USAGE, message);
    }
}
