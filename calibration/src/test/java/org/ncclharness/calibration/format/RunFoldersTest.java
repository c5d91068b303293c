package org.ncclharness.calibration.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's temporary folders (README, "Outputs"): removed when done, a dead run's by the next, never a live one's. */
class RunFoldersTest {

    @TempDir
    Path tmp;

    @Test
    void aFolderIsRemovedWithWhatItHoldsWhenItsWorkIsDone() throws IOException {
        Path dir = RunFolders.create(tmp, "debug");
        assertThat(dir.getFileName().toString()).startsWith("nccl-harness-debug-" + ProcessHandle.current().pid()
                + "-");
        Files.writeString(Files.createDirectory(dir.resolve("sub")).resolve("nccl.host.1"), "INFO");
        RunFolders.remove(dir);
        assertThat(tmp.toFile().list()).isEmpty();
    }

    @Test
    void aDeadRunsFolderIsRemovedByTheNextRunAndALiveRunsIsKept() throws IOException, InterruptedException {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        Path dead = Files.createDirectory(tmp.resolve("nccl-harness-debug-" + done.pid() + "-123"));
        Files.writeString(dead.resolve("nccl.host.1"), "INFO");
        Process alive = new ProcessBuilder("sleep", "60").start();
        try {
            Path live = Files.createDirectory(tmp.resolve("nccl-harness-matrix-" + alive.pid() + "-456"));
            Path notOurs = Files.createDirectory(tmp.resolve("nccl-harness-debug12345"));
            Path mine = RunFolders.create(tmp, "matrix");
            assertThat(dead).doesNotExist();
            assertThat(live).exists();
            assertThat(notOurs).as("a name of another form").exists();
            RunFolders.remove(mine);
        } finally {
            alive.destroy();
        }
    }

    /** The name's pid is the only test: a file that looks like a folder's name is not touched. */
    @Test
    void onlyFoldersOfTheFormHaveAnOwner() throws IOException {
        assertThat(RunFolders.owner(Files.createFile(tmp.resolve("nccl-harness-debug-1-2")))).isEmpty();
        assertThat(RunFolders.owner(Files.createDirectory(tmp.resolve("nccl-harness-debug-77-2")))).contains(77L);
    }
}
