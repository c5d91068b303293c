package org.ncclharness.harness.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.RepeatedRuns;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.exit.ExitCode;

class BringupReportTest {

    @Test
    void theTextShowsThreeOfARuleAndCountsTheRestSoTheOneFailureStaysInSight() {
        List<Finding> reasons = new ArrayList<>();
        for (int h = 0; h < 64; h++) {
            reasons.add(new Finding(Severity.WARN, "peak", null, "node" + h + ": no line rate to compare with"));
        }
        reasons.add(new Finding(Severity.FAIL, "peers", null, "node17: fastest busbw at 1 GiB is 31 % of the median"));
        StringWriter s = new StringWriter();
        BringupReport.printReasons(new PrintWriter(s, true), reasons);
        List<String> lines = s.toString().lines().toList();
        assertThat(lines).containsExactly("  WARN  node0: no line rate to compare with",
                "  WARN  node1: no line rate to compare with", "  WARN  node2: no line rate to compare with",
                "  FAIL  node17: fastest busbw at 1 GiB is 31 % of the median",
                "  WARN  … and 61 more of rule peak (all of them on the page)");
    }

    /**
     * A replay judged other machines' stored rows: whatever its steps found, it ends in WARN (never PASS, never the
     * FAIL exit), and says what the replayed rows failed; the same step measured here ends in FAIL.
     */
    @Test
    void aReplayEndsInWarnWhateverItsStepsFound(@TempDir Path dir) {
        Sweep replay = DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce").replay();
        Sweep measured = replay.withProvenance(new Provenance(SourceKind.MEASURED, "node1,node2", null, "measured now"));
        Finding wrong = new Finding(Severity.FAIL, "wrong", null, "#wrong = 3 at 8 B: the data check failed");
        for (Sweep rows : List.of(replay, measured)) {
            CheckReport failed = new CheckReport("all 2 hosts", rows.provenance(), null, List.of(), List.of(wrong),
                    Verdict.FAIL);
            StepOutcome step3 = new StepOutcome(BringupStep.NETWORK, List.of(new StepOutcome.Subject("all 2 hosts",
                    RepeatedRuns.of(rows.rows()), rows, failed, null)), List.of(), Verdict.FAIL, null);
            BringupReport r = new BringupReport("source", List.of(step3), null, "none", List.of("bringup"));
            int exit = new BringupOutputs(dir.resolve(rows.provenance().kind().label()), false, false).write(r);
            if (rows == replay) {
                assertThat(r.verdict()).isEqualTo(Verdict.WARN);
                assertThat(exit).isEqualTo(ExitCode.OK);
                assertThat(r.text()).contains("Verdict: WARN (a replay of stored runs, not measured here: it neither"
                        + " passes nor fails this machine; the replayed rows fail step 3 (all hosts, largest sizes):"
                        + " #wrong = 3 at 8 B: the data check failed)");
                assertThat(r.page().title()).isEqualTo("bringup (REPLAY, not measured here): WARN");
            } else {
                assertThat(r.verdict()).isEqualTo(Verdict.FAIL);
                assertThat(exit).isEqualTo(ExitCode.FAIL);
                assertThat(r.text()).contains("Verdict: FAIL at step 3 (all hosts, largest sizes): #wrong = 3");
            }
        }
    }
}
