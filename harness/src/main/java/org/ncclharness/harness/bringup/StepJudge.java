package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.resolve.Comparability;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.check.DiagnosisFindings;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.check.PeerComparison;
import org.ncclharness.calibration.check.RepeatedRuns;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.harness.runs.JudgedReference;
import org.ncclharness.harness.runs.RunSource;

/**
 * Judges one step as {@code check} judges a run: each subject's kept run against the expected curve (step 4
 * against {@code --baseline} when given), and the subjects against each other ({@link PeerComparison}, on each
 * subject's fastest run). Step 1's
 * single GPUs move no bytes between GPUs (a one-rank AllReduce has bus factor 0), so they are judged on their data
 * check and on their algbw against each other, not on a bus bandwidth.
 */
final class StepJudge {

    /** Runs of one step whose times at the largest size spread more than this are not stable. */
    static final double SPREAD_WARN_PCT = 10;

    private final HardwareFacts facts;
    private final CheckRules rules;
    private final Baseline baseline;
    private final boolean allowMismatch;
    private final Hints hints;

    /** bringup's reference a user vouches for, as check's messages name theirs. */
    static final String REFERENCES = "--baseline (an earlier bring-up, for step 4)";

    /** An earlier bring-up's step 4, and how the user named it. */
    record Baseline(String label, Sweep sweep) { }

    /**
     * @param allowMismatch compare step 4 with a baseline of other hardware or shape anyway (check's flag)
     * @param hints         what the flags state ({@code --interconnect}, {@code --nics-per-host}, {@code --nic-speed}),
     *                      for what a run does not
     */
    StepJudge(HardwareFacts facts, CheckRules rules, Baseline baseline, boolean allowMismatch, Hints hints) {
        this.facts = facts;
        this.rules = rules;
        this.baseline = baseline;
        this.allowMismatch = allowMismatch;
        this.hints = hints;
    }

    /** A bundled run replayed as a step's subject: its facts resolved from its document as {@code check} does. */
    ResolvedRun replayed(RunDocument dataset, Sweep rows) {
        return RunSource.judged(dataset, rows, hints);
    }

    /**
     * A bundled run replayed as the step's one subject, judged as {@code check} judges it: with the diagnosis of its
     * source's lines, whose FAIL findings fail the step ({@link DiagnosisFindings}).
     */
    StepOutcome judgeReplayed(BringupStep step, String name, RunDocument dataset, Sweep rows) {
        return judge(step, List.of(name), List.of(replayed(dataset, rows)),
                RunDiagnosis.of(dataset).map(DiagnosisFindings::of).orElse(List.of()));
    }

    /** Each subject's sweeps measured now, resolved with the flags' hints (the job states the rest). */
    StepOutcome judgeLive(BringupStep step, List<String> names, List<Sweep> measured) {
        List<ResolvedRun> runs = new ArrayList<>();
        for (int i = 0; i < measured.size(); i++) {
            runs.add(RunSource.judged(RunDocument.live(names.get(i), measured.get(i)), measured.get(i), hints));
        }
        return judge(step, names, runs);
    }

    /** @param measured each subject's name and its rows, every run in turn, with their facts */
    StepOutcome judge(BringupStep step, List<String> names, List<ResolvedRun> measured) {
        return judge(step, names, measured, List.of());
    }

    /** @param diagnosis what the lines of the subjects' log say, as verdict findings (none for a live run) */
    private StepOutcome judge(BringupStep step, List<String> names, List<ResolvedRun> measured,
                              List<Finding> diagnosis) {
        List<StepOutcome.Subject> subjects = new ArrayList<>();
        List<PeerComparison.Peer> peers = new ArrayList<>();
        List<Finding> stepFindings = new ArrayList<>();
        for (int i = 0; i < measured.size(); i++) {
            Sweep raw = measured.get(i).sweep();
            ResolvedRun resolved = measured.get(i);
            RepeatedRuns runs = RepeatedRuns.of(raw.rows());
            Sweep kept = new Sweep(raw.provenance(), raw.collective(), raw.run(), raw.hardware(), raw.devices(),
                    runs.median(), List.of(Note.info("median of " + runs.atLargest().runs() + " runs per size (-N)")));
            String name = names.get(i);
            CheckReport report;
            JudgedReference ref = null;
            if (step == BringupStep.GPU) {
                report = dataCheckOnly(name, kept);
            } else {
                List<Finding> first = new ArrayList<>();
                ref = reference(step, resolved, kept, name, first);
                report = new HealthCheck(facts, rules, REFERENCES).check(name, kept, new HealthCheck.Against(
                        ref.rule(), null, resolved.nics()));
                if (ref.why() != null) {
                    first.add(Finding.info("reference", ref.why()));
                }
                report = report.withFindings(first, diagnosis);
            }
            RepeatedRuns.SizeSpread top = runs.atLargest();
            if (top.runs() > 1 && top.spreadPct() > SPREAD_WARN_PCT) {
                report = report.withFindings(List.of(), List.of(new Finding(Severity.WARN, "spread", top.sizeBytes(),
                        String.format(Locale.ROOT, "the %d runs at %s spread %.1f %% (slowest − fastest over the"
                                + " median time), above %.0f %%: the system is not stable", top.runs(),
                                SizeText.exact(top.sizeBytes()), top.spreadPct(), SPREAD_WARN_PCT))));
            }
            // a replayed step judged another machine's stored rows: never a PASS, and it says why
            Optional<Finding> notMeasured = HealthCheck.notMeasured(kept);
            if (notMeasured.isPresent()) {
                report = report.withFindings(List.of(), List.of(notMeasured.get()));
            }
            subjects.add(new StepOutcome.Subject(name, runs, kept, report, ref == null ? null : ref.series()));
            // peers compared on their fastest run: one run a neighbour disturbed must not accuse a host
            Measurement largest = runs.fastest().get(runs.fastest().size() - 1);
            Double v = step == BringupStep.GPU ? largest.outOfPlace().algBwGBps() : largest.outOfPlace().busBwGBps();
            peers.add(new PeerComparison.Peer(name, v == null ? Double.NaN : v));
        }
        if (!peers.isEmpty()) {
            long size = subjects.get(0).runs().atLargest().sizeBytes();
            stepFindings.addAll(PeerComparison.compare("fastest " + (step == BringupStep.GPU ? "algbw" : "busbw")
                    + " at " + SizeText.exact(size), peers, rules));
        }
        List<Finding> all = new ArrayList<>(stepFindings);
        subjects.forEach(s -> all.addAll(s.report().findings()));
        return new StepOutcome(step, subjects, stepFindings, Verdict.of(all), null);
    }

    /**
     * Step 4 against the baseline where it is comparable (as {@code check} decides it), else, as every other step,
     * against the expected curve; a baseline of other hardware or shape is said, and used only with
     * {@code --allow-mismatch}, marked NOT COMPARABLE.
     */
    private JudgedReference reference(BringupStep step, ResolvedRun run, Sweep kept, String name,
                                      List<Finding> notes) {
        if (step != BringupStep.BASELINE || baseline == null) {
            return JudgedReference.expected(run, kept, name);
        }
        List<String> differ = Comparability.differences(Comparability.Side.of(kept),
                Comparability.Side.of(baseline.sweep()));
        JudgedReference ref = JudgedReference.baseline(baseline.label(), baseline.sweep());
        if (differ.isEmpty()) {
            return ref;
        }
        if (allowMismatch) {
            return new JudgedReference(ref.rule().withNotes(List.of("NOT COMPARABLE (--allow-mismatch): "
                    + String.join(", ", differ))), ref.series(), null);
        }
        notes.add(new Finding(Severity.WARN, "baseline", null, "baseline " + baseline.label() + " is not comparable ("
                + String.join(", ", differ) + "): step 4 is judged against the reference (another cluster's run)"
                + " instead;"
                + " --allow-mismatch compares them anyway"));
        return JudgedReference.expected(run, kept, name);
    }

    /** One GPU alone: every #wrong fails, nothing else can be judged. */
    private CheckReport dataCheckOnly(String name, Sweep kept) {
        List<Finding> findings = new ArrayList<>();
        for (Measurement r : kept.rows()) {
            double wrong = (r.outOfPlace().wrong() == null ? 0 : r.outOfPlace().wrong())
                    + (r.inPlace().wrong() == null ? 0 : r.inPlace().wrong());
            if (wrong > 0 && rules.failOnWrong()) {
                findings.add(new Finding(Severity.FAIL, "wrong", r.sizeBytes(), String.format(Locale.ROOT,
                        "%s: %.0f wrong elements at %s: the GPU or the install computes wrong results", name, wrong,
                        SizeText.exact(r.sizeBytes()))));
            }
        }
        return new CheckReport(name, kept.provenance(), null, List.of(), findings, Verdict.of(findings));
    }
}
