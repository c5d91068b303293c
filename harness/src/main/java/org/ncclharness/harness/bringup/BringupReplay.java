package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.ncclharness.calibration.resolve.Comparability;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.RunDocument;

/**
 * {@code bringup --replay} without a GPU: bundled runs go through the same steps and the same judge, each
 * labelled as a replay, so the flow and its report can be tried on a laptop. Step 4 (and 3, from its largest
 * sizes) replays a bundled AllReduce run of several hosts ({@code --dataset}, else the two-host run with the most
 * sizes, the commonest first multi-host bring-up); step 2 a
 * one-host run of the same GPU family where one is bundled; step 1 has no bundled one-GPU run and is skipped.
 */
final class BringupReplay {

    private final StepJudge judge;
    private final String datasetId;
    private final BringupOutputs outputs;
    private final List<String> args;
    private final long minBytes;
    private final long maxBytes;

    /** @param minBytes, maxBytes {@code -b}/{@code -e}: the replayed rows are those in this range */
    BringupReplay(StepJudge judge, String datasetId, BringupOutputs outputs, List<String> args, long minBytes,
                  long maxBytes) {
        this.judge = judge;
        this.datasetId = datasetId;
        this.outputs = outputs;
        this.args = args;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
    }

    private Sweep inRange(Sweep s) {
        return inRange(s, minBytes, maxBytes);
    }

    /** The replayed rows within -b/-e, as a sweep of those sizes would have measured them. */
    static Sweep inRange(Sweep s, long minBytes, long maxBytes) {
        List<Measurement> rows = s.rows().stream().filter(r -> r.sizeBytes() >= minBytes && r.sizeBytes() <= maxBytes)
                .toList();
        if (rows.isEmpty()) {
            throw new InputException(s.provenance().label(), 0, "has no size from " + SizeText.exact(minBytes) + " to "
                    + SizeText.exact(maxBytes) + " (-b/-e); widen them");
        }
        return new Sweep(s.provenance(), s.collective(), s.run(), s.hardware(), s.devices(), rows, s.notes());
    }

    int run(String noGpu) {
        List<Dataset> all = DatasetCatalog.bundled().all().stream()
                .filter(d -> d.collective() == Collective.ALL_REDUCE && d.hardware().hosts() != null).toList();
        if (datasetId != null && DatasetCatalog.bundled().find(datasetId).isEmpty()) {
            throw new InputException(datasetId, 0, "no bundled dataset of this id; `datasets` lists them");
        }
        Dataset multi = datasetId != null ? DatasetCatalog.bundled().find(datasetId)
                .filter(d -> d.collective() == Collective.ALL_REDUCE && d.hardware().hosts() != null
                        && d.hardware().hosts() > 1)
                .orElseThrow(() -> new InputException(datasetId, 0, "is not a bundled AllReduce run of several hosts;"
                        + " `datasets` lists them (the hosts column)"))
                : all.stream().filter(d -> d.hardware().hosts() > 1).min(Comparator
                        .comparingInt((Dataset d) -> d.hardware().inter() == null ? 1 : 0) // a network between them
                        .thenComparingInt(d -> d.hardware().hosts() == 2 ? 0 : 1)
                        .thenComparing(d -> -d.rows().size()).thenComparing(Dataset::id)).orElseThrow();
        String family = Comparability.gpuFamily(multi.hardware().gpuModel()).orElse(null);
        Optional<Dataset> single = all.stream().filter(d -> d.hardware().hosts() == 1)
                .filter(d -> family != null && family.equals(Comparability.gpuFamily(d.hardware().gpuModel())
                        .orElse(null)))
                .max(Comparator.comparing((Dataset d) -> Objects.requireNonNullElse(d.hardware().ranks(), 0))
                        .thenComparing(Dataset::id, Comparator.reverseOrder()));
        List<StepOutcome> outcomes = new ArrayList<>();
        outcomes.add(StepOutcome.skipped(BringupStep.GPU, "a replay has no bundled run of one GPU"));
        if (single.isPresent()) {
            outcomes.add(judge.judgeReplayed(BringupStep.HOST, single.get().id(), single.get().document(),
                    inRange(single.get().replay())));
        } else {
            outcomes.add(StepOutcome.skipped(BringupStep.HOST, "no bundled one-host run of " + family));
        }
        // read once for steps 3 and 4, and for what baseline.json keeps of the run's source
        RunDocument multiDoc = multi.document();
        for (BringupStep step : List.of(BringupStep.NETWORK, BringupStep.BASELINE)) {
            if (outcomes.stream().anyMatch(o -> o.verdict() == org.ncclharness.calibration.check.Verdict.FAIL)) {
                break;
            }
            Sweep s = inRange(multi.replay());
            List<Long> sizes = step.sizes(s.rows().stream().map(Measurement::sizeBytes).distinct().toList());
            Sweep rows = new Sweep(s.provenance(), s.collective(), s.run(), s.hardware(), s.devices(),
                    s.rows().stream().filter(r -> sizes.contains(r.sizeBytes())).toList(), s.notes());
            // named by its id, so that the expected curve is never the replayed run itself
            outcomes.add(judge.judgeReplayed(step, multi.id(), multiDoc, rows));
        }
        String source = "REPLAY, not measured here (no GPU: " + noGpu + "): step 2 " + single.map(Dataset::id)
                .orElse("skipped") + ", steps 3 and 4 " + multi.id() + ", bundled runs as published, their sizes from "
                + SizeText.exact(minBytes) + " to " + SizeText.exact(maxBytes) + " (-b/-e); one run each: -N and the"
                + " spread do not apply";
        return outputs.write(new BringupReport(source, outcomes, null, "a replay runs no NCCL; `diagnose LOG` reads"
                + " the NCCL lines of a log", args, RunDiagnosis.kept(multiDoc)));
    }
}
