package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.RepeatedRuns;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.diagnose.Diagnoser;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.nccldebug.NcclDebugFiles;
import org.ncclharness.harness.launch.HostLabels;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.Launch;
import org.ncclharness.harness.launch.LaunchOptions;
import org.ncclharness.harness.launch.Member;
import org.ncclharness.harness.live.ColouredRun;
import org.ncclharness.harness.live.SweepPlan;

/**
 * A bring-up measured now: one job, joined once, runs each step's sweep on the step's communicators; rank 0
 * judges each step and tells every rank whether to go on. At the end every rank hands rank 0 the NCCL lines it
 * wrote (where NCCL_DEBUG_FILE was set), for the diagnosis.
 */
final class BringupRun {

    private final BiFunction<BringupStep, Long, SweepPlan> plans;
    private final int gpusPerProcess;
    private final CheckRules rules;
    private final StepJudge judge;
    private final BringupOutputs outputs;
    private final GpuProbe probe;
    private final List<String> args;

    BringupRun(BiFunction<BringupStep, Long, SweepPlan> plans, int gpusPerProcess, CheckRules rules,
               StepJudge judge, BringupOutputs outputs, GpuProbe probe, List<String> args) {
        this.plans = plans;
        this.gpusPerProcess = gpusPerProcess;
        this.rules = rules;
        this.judge = judge;
        this.outputs = outputs;
        this.probe = probe;
        this.args = args;
    }

    int run(LaunchOptions launchOptions, boolean pairs) {
        Launch launch = Launch.resolve(launchOptions);
        try (JobGroup job = launch.join(probe.devices().stream().map(GpuDevice::pciBusId).toList(),
                JobIdentity.hashArguments(JobIdentity.sharedArguments(args)), VersionInfo.projectVersion(),
                launchOptions.jobOptions(), System.err)) {
            List<Member> members = job.members();
            Map<String, String> labels = HostLabels.of(members);
            Map<String, Integer> hostIndex = new LinkedHashMap<>();
            labels.keySet().forEach(id -> hostIndex.put(id, hostIndex.size()));
            String shape = members.size() * gpusPerProcess + " GPUs on " + hostIndex.size() + " host"
                    + (hostIndex.size() == 1 ? "" : "s") + ", " + gpusPerProcess + " per process";
            List<Long> allSizes = plans.apply(BringupStep.BASELINE, null).sizes();
            if (pairs) {
                // short: the sizes of step 3, the largest, where a slow link shows
                SweepPlan top = plans.apply(BringupStep.NETWORK, BringupStep.NETWORK.sizes(allSizes).get(0));
                return new PairsRun(job, probe, top, gpusPerProcess, rules, outputs)
                        .run(new ArrayList<>(labels.values()), hostIndex, shape);
            }
            int mostGpusPerHost = gpusPerProcess * (int) members.stream().collect(java.util.stream.Collectors
                    .groupingBy(Member::hostId, java.util.stream.Collectors.counting())).values().stream()
                    .mapToLong(Long::longValue).max().orElse(1);
            List<StepOutcome> outcomes = new ArrayList<>();
            for (BringupStep step : BringupStep.values()) {
                String skip = step.skippedBecause(hostIndex.size(), mostGpusPerHost);
                if (skip != null) {
                    outcomes.add(StepOutcome.skipped(step, skip));
                    continue;
                }
                List<Long> sizes = step.sizes(allSizes);
                SweepPlan plan = plans.apply(step, step == BringupStep.NETWORK ? sizes.get(0) : null);
                if (job.rank() == 0) {
                    System.err.println("# bringup " + step.title() + ": " + step.tests());
                }
                // a step on fewer GPUs than a process drives takes passes over them all (step 1 with -g N: N,
                // the process's g-th GPU alone in pass g), so that none is left out
                int perPass = step.gpusPerProcess(gpusPerProcess);
                int passes = gpusPerProcess / perPass;
                List<String> subjects = new ArrayList<>();
                List<Sweep> sweeps = new ArrayList<>();
                try {
                    for (int g = 0; g < passes; g++) {
                        for (ColouredRun.Colour c : ColouredRun.run(job, probe, plan, gpusPerProcess, g * perPass,
                                p -> step.colour(members.get((int) p), hostIndex), step.what())) {
                            subjects.add(name(step, c, members, labels, hostIndex.size())
                                    + (passes > 1 ? ", GPU " + g * perPass + " of its " + gpusPerProcess : ""));
                            sweeps.add(c.sweep());
                        }
                    }
                } catch (HarnessException e) {
                    // the job is ending (a rank's NCCL error or loss): rank 0 still reports the steps so far, and
                    // its own NCCL lines, within the moments before the job's halt
                    if (job.rank() == 0) {
                        outcomes.add(StepOutcome.broken(step, e.getMessage()));
                        List<String> own = NcclDebugFiles.pattern(System.getenv()).map(pt -> NcclDebugFiles
                                .ownLines(pt, ProcessHandle.current().pid())).orElse(List.of());
                        outputs.write(new BringupReport("measured now: " + shape, outcomes, own.isEmpty() ? null
                                : Diagnoser.diagnose("rank 0's NCCL_DEBUG_FILE", own), "the job ended before the"
                                + " ranks could hand rank 0 their NCCL lines", args));
                    }
                    throw e;
                }
                byte[] stop = {0};
                if (job.rank() == 0) {
                    StepOutcome o = judge.judgeLive(step, subjects, sweeps);
                    outcomes.add(o);
                    stop[0] = (byte) (o.verdict() == Verdict.FAIL ? 1 : 0);
                }
                if (job.broadcast(stop)[0] == 1) {
                    break;
                }
            }
            Diagnosis diagnosis = NcclDebugFiles.diagnoseJob(job);
            if (job.rank() != 0) {
                return ExitCode.OK;
            }
            String none = NcclDebugFiles.pattern(System.getenv()).isPresent() ? "NCCL wrote no lines to"
                    + " NCCL_DEBUG_FILE that this job could read" : "NCCL_DEBUG was set without NCCL_DEBUG_FILE, or"
                    + " --no-diagnose given; run with " + NcclDebugFiles.HOW + " to see which transport NCCL used";
            BringupReport report = new BringupReport("measured now: " + shape, outcomes, diagnosis, none, args);
            return outputs.write(report);
        }
    }

    /** A subject as the report names it: the GPU's rank and host, the host, or the whole job. */
    static String name(BringupStep step, ColouredRun.Colour c, List<Member> members, Map<String, String> labels,
                       int hosts) {
        return switch (step) {
            case GPU -> "rank " + c.processes().get(0) + " on " + labels.get(members.get(c.processes().get(0)).hostId());
            case HOST -> c.hosts().get(0);
            case NETWORK, BASELINE -> hosts == 1 ? "the whole host" : "all " + hosts + " hosts";
        };
    }

    /**
     * The fastest run's row at the largest size: what the pair search judges a group by, so that a run a neighbour
     * disturbed does not make a healthy pair slow.
     */
    static Measurement fastestAtLargest(Sweep raw) {
        List<Measurement> fastest = RepeatedRuns.of(raw.rows()).fastest();
        return fastest.get(fastest.size() - 1);
    }
}
