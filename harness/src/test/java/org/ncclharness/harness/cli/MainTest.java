package org.ncclharness.harness.cli;

import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void aBadFlagIsOneLineAndWhereTheOptionsAreNotTheWholeUsage() {
        CliRun run = CliRun.of("datasets", "show");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().lines()).containsExactly("Missing required parameter: 'ID'",
                "(see: java -jar harness.jar datasets show --help)");
        assertThat(CliRun.of("--bogus").err().lines()).containsExactly("Unknown option: '--bogus'",
                "(see: java -jar harness.jar --help)");
        // picocli counts the unknown option's value and the run file as unmatched too: only the option is to blame
        CliRun check = CliRun.of("check", "--bogus", "3", "a100_allreduce_16gpu_2node_oci_roce");
        assertThat(check.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(check.err().lines()).containsExactly("Unknown option: '--bogus'",
                "(see: java -jar harness.jar check --help)");
        // a command about this machine given a log says which commands read one
        CliRun doctor = CliRun.of("doctor", "run.log");
        assertThat(doctor.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(doctor.err().lines()).containsExactly("doctor takes no file or other argument (got 'run.log'); the"
                + " commands that read a log are calibrate, check, convert, diagnose (NCCL INFO lines) and plot",
                "(see: java -jar harness.jar doctor --help)");
    }

    @Test
    void aMisspelledFlagGetsTheClosestValidOneAndEveryCommandHasHelp() {
        CliRun run = CliRun.of("calibrate", "--interconect", "NVLink4");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().lines().findFirst().orElse("")).isEqualTo(
                "Unknown option: '--interconect'; did you mean --interconnect or --intra or --inter?");
        for (String[] help : new String[][] {{"doctor", "--help"}, {"doctor", "-h"}, {"bench", "calibrate", "--help"}}) {
            CliRun h = CliRun.of(help);
            assertThat(h.exitCode()).as(String.join(" ", help)).isZero();
            assertThat(h.out()).startsWith("Usage: harness.jar " + help[0]);
        }
    }

    @Test
    void helpListsTheExitCodes() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(ExitCode.TABLE);
    }

    @Test
    void aStandardOutputThatCannotBeWrittenIsExitThreeNotSilence() {
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream savedErr = System.err;
        try {
            // what /dev/full does to a write: ENOSPC
            System.setOut(new java.io.PrintStream(new java.io.OutputStream() {
                @Override
                public void write(int b) throws java.io.IOException {
                    throw new java.io.IOException("No space left on device");
                }
            }, true));
            System.setErr(new java.io.PrintStream(err, true));
            assertThat(Main.execute("datasets")).isEqualTo(ExitCode.ENVIRONMENT);
        } finally {
            System.setOut(saved);
            System.setErr(savedErr);
        }
        assertThat(err.toString().strip()).startsWith("error: standard output could not be written").doesNotContain("\n");
    }

    /** A relaunched child starts from the entry point Program names by string, so that relaunching needs no import of Main. */
    @Test
    void theRelaunchedEntryPointIsMain() {
        assertThat(org.ncclharness.harness.options.Program.MAIN_CLASS).isEqualTo(Main.class.getName());
    }
}
