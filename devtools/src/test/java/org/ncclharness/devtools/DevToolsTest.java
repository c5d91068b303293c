package org.ncclharness.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine;

/** devtools.jar's command line: its two tools, their help, and the exit codes they share with harness.jar. */
class DevToolsTest {

    private record Run(int exitCode, String out, String err) { }

    private static Run run(String... args) {
        CommandLine cl = DevTools.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void fuzzHelpNamesItsKindsFromTheOneListInMutation() {
        Run help = run("fuzz", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).startsWith("Usage: devtools.jar fuzz").contains("truncate_text").contains("cut_row");
        assertThat(run("--help").out()).contains("fuzz").contains("two-tier");
    }

    @Test
    void aSmallFuzzRunCountsEveryCaseAndFindsNoDefect() {
        Run fuzz = run("fuzz", "--cases", "56", "--seed", "3");
        assertThat(fuzz.exitCode()).as(fuzz.out()).isEqualTo(ExitCode.OK);
        assertThat(fuzz.out()).startsWith("# fuzz: 56 cases, seed 3, ")
                .containsPattern("(?m)^total\\s+\\d+\\s+\\d+\\s+0$")
                .contains("defects: 0, of which silent drops: 0");
    }

    @Test
    void aBadCountIsAUsageError() {
        Run bad = run("fuzz", "--cases", "0");
        assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("--cases must be at least 1, got 0");
    }
}
