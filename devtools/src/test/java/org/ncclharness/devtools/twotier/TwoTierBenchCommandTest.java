package org.ncclharness.devtools.twotier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.ncclharness.devtools.DevTools;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine;

class TwoTierBenchCommandTest {

    @Test
    void printsOneRowPerGridSizeWithBothMethods() {
        CommandLine cl = DevTools.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("two-tier", "--points", "3,4", "--threads", "1", "--grid-u-nv", "0.5:1:2"))
                .isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("synthetic run (a model prediction, not a measurement)")
                .containsPattern("(?m)^\\s+3\\s+243\\s")
                .containsPattern("(?m)^\\s+4\\s+1024\\s")
                .doesNotContain(" NO");
    }

    @Test
    void aBundledDatasetCanBeTheBenchmarksData() {
        CommandLine cl = DevTools.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("two-tier", "--points", "3", "--threads", "1", "--dataset",
                "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion")).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("dataset h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion (measured),"
                + " 4x8, 14 points, NVLink4 beta_NV 450 GB/s, hops 2").doesNotContain(" NO");
        assertThat(usageError("two-tier", "--dataset", "nope")).contains("no bundled dataset nope");
    }

    @Test
    void badArgumentsAreUsageErrorsWithTheReason() {
        assertThat(usageError("two-tier", "--points", "1")).contains("--points: 1 points per axis");
        assertThat(usageError("two-tier", "--form", "tree")).contains("expected hierarchical or flat-ring");
        assertThat(usageError("two-tier", "--threads", "0")).contains("--threads: 0");
        assertThat(usageError("two-tier", "--grid-beta-ib", "-5:100:3")).contains(
                "--grid-beta-ib: beta_IB range -5:100:3: beta_IB is a bandwidth (or a fraction of one) and must be > 0");
        assertThat(usageError("two-tier", "--grid-ell-nv", "2:1:3")).contains("min > max");
        assertThat(usageError("two-tier", "--grid-t-sw", "0:10:0")).contains("0 points");
    }

    private static String usageError(String... args) {
        CommandLine cl = DevTools.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute(args)).isEqualTo(ExitCode.USAGE);
        return err.toString();
    }
}
