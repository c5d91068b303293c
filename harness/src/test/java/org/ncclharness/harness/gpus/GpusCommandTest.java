package org.ncclharness.harness.gpus;

import org.ncclharness.harness.cli.Main;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.gpu.HostPlatform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GpusCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void onAMachineWithoutADriverItNamesTheMissingPieceAndExitsThree() throws Exception {
        assumeFalse(Files.exists(Path.of("/proc/driver/nvidia/version")), "an NVIDIA driver is loaded here");
        assertThat(run("gpus")).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(out.toString()).contains("driver:  not found").contains("devices: 0");
        // the architecture comes first, so a host whose natives the jar lacks says so before any probe error
        assertThat(out.toString()).startsWith("host:    " + HostPlatform.current().platform() + " (os.arch "
                + System.getProperty("os.arch") + "), JNI libraries in this jar: yes\n");
        assertThat(err.toString()).startsWith("error: NO_DRIVER: libcuda.so.1 not found").contains("Fix: ");
    }

    @Test
    void aNcclLibDirectoryWithoutTheLibraryIsAUsageError(@TempDir Path dir) {
        assertThat(run("gpus", "--nccl-lib", dir.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("--nccl-lib " + dir + ": no libnccl.so.2 in it");
    }
}
