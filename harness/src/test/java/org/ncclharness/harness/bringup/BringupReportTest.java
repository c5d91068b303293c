package org.ncclharness.harness.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.Severity;

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
}
