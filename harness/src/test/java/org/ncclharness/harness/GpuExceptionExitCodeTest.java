package org.ncclharness.harness;

import org.ncclharness.harness.cli.Main;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.ncclharness.gpu.GpuEnvironmentException;
import org.ncclharness.gpu.GpuJobException;
import org.ncclharness.gpu.ProbeFailure;
import org.ncclharness.gpu.ProbeProblem;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The bridge's two exception types reach the user as one line with exit codes 3 and 4 (README, "Exit codes"). */
class GpuExceptionExitCodeTest {
    @Command(name = "throws")
    static final class Throws implements Callable<Integer> {
        private final RuntimeException e;

        Throws(RuntimeException e) {
            this.e = e;
        }

        @Override
        public Integer call() {
            throw e;
        }
    }

    private static String[] run(RuntimeException e) {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.addSubcommand("throws", new Throws(e));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute("throws");
        return new String[] {String.valueOf(rc), err.toString().trim()};
    }

    @Test
    void environmentIsThreeAndJobIsFour() {
        String[] env = run(new GpuEnvironmentException(new ProbeProblem(ProbeFailure.NCCL_TOO_OLD, "ncclAvg needs NCCL 2.10.0")));
        assertThat(env[0]).isEqualTo("3");
        assertThat(env[1]).startsWith("error: NCCL_TOO_OLD: ncclAvg needs NCCL 2.10.0. Fix: ");
        String[] job = run(new GpuJobException("ncclCommInitRank (ranks 0..0 of 2): remote process exited or there was a network error (6)"));
        assertThat(job[0]).isEqualTo("4");
        assertThat(job[1]).isEqualTo("error: ncclCommInitRank (ranks 0..0 of 2): remote process exited or there was a network error (6)");
    }
}
