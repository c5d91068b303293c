package org.ncclharness.harness.live;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.ProbeProblem;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * A sweep on a machine without a GPU (docs/sweep-and-check.md): the reason in one line, then a bundled dataset,
 * restricted to the requested sizes, through the very writers a live sweep uses — labelled as a replay in every
 * output (the table's heading, the JSON's provenance, the CSV's provenance columns), so that it reads back as one.
 */
public final class ReplaySweep {

    private final SweepPlan plan;
    private final PrintWriter out;
    private final DatasetCatalog catalog;
    private final int jobGpus;

    public ReplaySweep(SweepPlan plan, PrintWriter out, DatasetCatalog catalog, int jobGpus) {
        this.plan = plan;
        this.out = out;
        this.catalog = catalog;
        this.jobGpus = jobGpus;
    }

    public int run(ProbeProblem why) {
        Dataset d;
        String reason;
        if (plan.datasetId() != null) {
            d = catalog.get(plan.datasetId());
            if (plan.collectiveSet() && d.collective() != plan.collective()) {
                throw new HarnessException(ExitCode.USAGE, "--dataset " + d.id() + " is " + d.collective().testName()
                        + ", not the requested --collective " + plan.collective().cliName());
            }
            reason = "chosen by --dataset";
        } else {
            ReplayChooser.Choice c = ReplayChooser.choose(catalog.all(), plan.collective(), plan.sizes(), jobGpus);
            if (c == null) {
                throw new HarnessException(ExitCode.ENVIRONMENT, "no GPU (" + why.oneLine() + "), and no bundled "
                        + plan.collective().testName() + " dataset has any of the requested sizes to replay");
            }
            d = c.dataset();
            reason = c.why();
        }
        Sweep replay = d.replay();
        Set<Long> wanted = new HashSet<>(plan.sizes());
        List<Measurement> rows = replay.rows().stream().filter(m -> wanted.contains(m.sizeBytes())).toList();
        if (rows.isEmpty()) {
            throw new HarnessException(ExitCode.USAGE, "dataset " + d.id() + " has none of the requested sizes ("
                    + plan.sizes().get(0) + " .. " + plan.sizes().get(plan.sizes().size() - 1) + " B); see"
                    + " datasets show " + d.id());
        }
        List<String> heading = new ArrayList<>();
        heading.add("# no GPU: " + why.oneLine());
        heading.add("# replaying " + d.id() + ": " + reason);
        heading.add("# " + replay.provenance().label());
        if (rows.size() < plan.sizes().size()) {
            heading.add("# note: " + rows.size() + " of the " + plan.sizes().size() + " requested sizes are in the"
                    + " dataset; the others are not shown (nothing is interpolated)");
        }
        replay.notes().forEach(n -> heading.add("# note: " + n.text()));
        notApplicable().forEach(n -> heading.add("# note: " + n));
        String storedType = rows.get(0).type();
        String storedOp = rows.get(0).redop();
        boolean typeAsked = plan.types().stream().anyMatch(t -> t.testName().equals(storedType));
        boolean opAsked = !plan.collective().reduces() || plan.ops().stream().anyMatch(o -> o.testName().equals(storedOp));
        if (!typeAsked || !opAsked || plan.types().size() > 1 || (plan.collective().reduces() && plan.ops().size() > 1)) {
            heading.add("# note: the stored run is " + storedType + " " + storedOp + "; -d/-o choose what a GPU run"
                    + " measures, a replay shows what was stored");
        }
        SweepResult result = new SweepResult(new Combination(d.metadata().algo(), d.metadata().proto()),
                List.of(), replay.withRows(rows), List.of());
        var harness = SweepJson.object();
        var r = harness.putObject("replay");
        r.put("dataset", d.id());
        r.put("source_url", d.metadata().sourceUrl());
        r.put("why_chosen", reason);
        r.put("no_gpu_reason", why.reason().name());
        r.put("no_gpu_detail", why.detail());
        // the algorithm block holds the stored run's NCCL_ALGO/PROTO; what this command asked for is kept here
        var asked = r.putArray("requested_combinations");
        plan.combinations().forEach(c -> asked.add(c.label()));
        var notHonoured = r.putArray("not_honoured");
        notApplicable().forEach(notHonoured::add);
        // the JSON keeps what the replayed run's source states (its NICs, network, NCCL lines' diagnosis), so that a
        // check of the file knows what a check of the dataset knows
        return new SweepOutputs(plan.asReplay(), out).emit(List.of(result), heading,
                new SweepOutputs.RunFacts(null, null, null, d.metadata().algo(), d.metadata().flags(), harness,
                        RunDiagnosis.kept(d.document())));
    }

    /** What the user asked for that stored numbers cannot honour; said, never silently dropped. */
    private List<String> notApplicable() {
        List<String> notes = new ArrayList<>();
        if (plan.isMatrix()) {
            notes.add("--algo/--proto need a GPU: a fresh communicator per combination; the replay shows the"
                    + " stored run as published");
        }
        if (plan.cycles() > 1) {
            notes.add("-N " + plan.cycles() + ": a dataset holds one cycle; it is shown once");
        }
        if (plan.perIter()) {
            notes.add("-I 1: the bundled datasets have no per-iteration samples");
        }
        return notes;
    }
}
