package org.ncclharness.harness.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.harness.runs.JudgedReference;
import org.ncclharness.harness.runs.RunSource;

/**
 * {@code check ID} and {@code bringup --replay} of the same bundled run resolve one set of facts: the NICs, hosts,
 * fabric, forced algorithm and expected curve, each taken where each command takes it ({@code check}: the
 * dataset's published table; {@code bringup}: its replay through the step judge, from -b 8 to its largest size).
 * The table of every bundled run is written into docs/sweep-and-check.md; {@code -Ddocs.update=true} rewrites it.
 */
class RunFactsTableTest {

    private static final Path DOC = Path.of("../docs/sweep-and-check.md");
    private static final String BEGIN = "<!-- run-facts:begin (written by RunFactsTableTest; mvn test"
            + " -Ddocs.update=true rewrites it) -->\n";
    private static final String END = "<!-- run-facts:end -->";
    private static final long DEFAULT_MIN = 8;

    /** The facts a verdict rests on, as one row of the table. */
    private record Facts(Integer ranks, Integer hosts, String intra, String inter, Integer nicsPerHost,
                         Double nicGBps, String algo, String reference) {

        static Facts of(ResolvedRun run, JudgedReference ref) {
            Hardware h = run.hardware();
            return new Facts(h.ranks(), h.hosts(), h.intra(), h.inter(), run.nics().perHost(),
                    run.nics().rateGBps(h.inter() == null ? null
                            : HardwareFacts.bundled().interconnect(h.inter()).orElse(null)),
                    run.forcedAlgo(), ref.rule() != null ? ref.rule().label() : "none: " + ref.why());
        }

        String row(String id) {
            return "| `" + id + "` | " + or(ranks) + " | " + or(hosts) + " | " + or(intra) + " | " + or(inter) + " | "
                    + or(nicsPerHost) + " | " + (nicGBps == null ? "?" : String.format(Locale.ROOT, "%.1f", nicGBps))
                    + " | " + or(algo) + " | " + reference.replace("|", "\\|") + " |";
        }

        private static String or(Object o) {
            return o == null ? "?" : o.toString();
        }
    }

    @Test
    void checkAndBringupResolveTheSameFactsForEveryBundledRun() throws IOException {
        StepJudge judge = new StepJudge(HardwareFacts.bundled(), CheckRules.defaults(), null, false, Hints.NONE);
        List<String> rows = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            RunDocument doc = d.document();
            Sweep published = doc.sweeps().get(0);
            ResolvedRun checked = RunSource.judged(doc, published, Hints.NONE);
            Facts byCheck = Facts.of(checked, JudgedReference.expected(checked, checked.sweep(), d.id()));
            // -e at the run's largest size, as a user replaying it whole would give
            Sweep replayed = BringupReplay.inRange(d.replay(), DEFAULT_MIN, d.rows().get(d.rows().size() - 1)
                    .sizeBytes());
            ResolvedRun stepRun = judge.replayed(doc, replayed);
            Facts byBringup = Facts.of(stepRun, JudgedReference.expected(stepRun, stepRun.sweep(), d.id()));
            assertThat(byBringup).as("bringup's facts of %s against check's", d.id()).isEqualTo(byCheck);
            rows.add(byCheck.row(d.id()));
        }
        String table = "Every bundled run as `check ID` and `bringup --replay` resolve it (the same rows from both;"
                + " `?` where neither the run nor its metadata says):\n\n"
                + "| run | GPUs | hosts | inside a host | between hosts | NICs/host | NIC GB/s | NCCL_ALGO | reference (another cluster's run) |\n"
                + "|---|---:|---:|---|---|---:|---:|---|---|\n" + String.join("\n", rows) + "\n";
        org.ncclharness.harness.GeneratedBlock.hold(DOC, BEGIN, END, table);
    }
}
