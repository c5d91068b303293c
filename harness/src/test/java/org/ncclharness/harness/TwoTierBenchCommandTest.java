package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TwoTierBenchCommandTest {

    @Test
    void printsOneRowPerGridSizeWithBothMethods() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("bench", "two-tier", "--points", "3,4", "--threads", "1")).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("synthetic run (a model prediction, not a measurement)")
                .containsPattern("(?m)^\\s+3\\s+243\\s")
                .containsPattern("(?m)^\\s+4\\s+1024\\s")
                .doesNotContain(" NO");
    }

    @Test
    void badArgumentsAreUsageErrors() {
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("bench", "two-tier", "--points", "1")).isEqualTo(ExitCode.USAGE);
        assertThat(Main.commandLine().execute("bench", "two-tier", "--form", "tree")).isEqualTo(ExitCode.USAGE);
        assertThat(Main.commandLine().execute("bench")).isEqualTo(ExitCode.USAGE);
    }
}
