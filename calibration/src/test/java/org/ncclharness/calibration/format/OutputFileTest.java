package org.ncclharness.calibration.format;

import org.ncclharness.calibration.measure.InputException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The output rules (README, "Exit codes"): all or nothing, regular files only, no directory the user did not name. */
class OutputFileTest {

    @TempDir
    Path dir;

    private static OutputFile.Content text(String s) {
        return o -> o.write(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void allOutputsOfACommandAreCommittedTogetherOrNotAtAll() {
        Map<Path, OutputFile.Content> outs = new LinkedHashMap<>();
        outs.put(dir.resolve("ok.csv"), text("a"));
        outs.put(dir.resolve("bad.json"), o -> {
            throw new IOException("No space left on device");
        });
        assertThatThrownBy(() -> OutputFile.writeAll(outs, false)).isInstanceOf(OutputException.class)
                .hasMessageContaining("No space left on device");
        assertThat(dir.resolve("ok.csv")).doesNotExist();
        assertThat(dir.toFile().list()).isEmpty();
    }

    @Test
    void anInputOfTheCommandIsNeverReplacedEvenWithForceWhateverNameReachesIt() throws IOException {
        Path input = Files.writeString(dir.resolve("r.png"), "the run");
        Files.createDirectories(dir.resolve("sub"));
        try {
            OutputFile.protectInputs(java.util.List.of(input.toRealPath()));
            // the figure a --markdown r.md derives (r.png), by its own name and through sub/..
            for (Path name : java.util.List.of(input, dir.resolve("sub/../r.png"))) {
                assertThatThrownBy(() -> OutputFile.write(name, true, text("a figure")))
                        .isInstanceOf(InputException.class).hasMessageContaining("is an input of this command");
            }
            assertThat(input).hasContent("the run");
            // the next command names its own inputs: this file is free again
            OutputFile.protectInputs(java.util.List.of());
            OutputFile.write(input, true, text("a figure"));
            assertThat(input).hasContent("a figure");
        } finally {
            OutputFile.protectInputs(java.util.List.of());
        }
    }

    @Test
    void forceReplacesRegularFilesOnlyNeverALinkOrADevice() throws IOException {
        Path target = Files.writeString(dir.resolve("target.csv"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), target);
        assertThatThrownBy(() -> OutputFile.write(link, true, text("x"))).isInstanceOf(InputException.class)
                .hasMessageContaining("not a regular file");
        assertThat(Files.readString(target)).isEqualTo("keep");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThatThrownBy(() -> OutputFile.checkWritable(Path.of("/dev/null"), true))
                .hasMessageContaining("not a regular file");
    }

    @Test
    void aMissingDirectoryIsNamedAndNotCreated() {
        Path out = dir.resolve("no/such/x.csv");
        assertThatThrownBy(() -> OutputFile.write(out, false, text("x"))).isInstanceOf(InputException.class)
                .hasMessageContaining("does not exist; create it first");
        assertThat(dir.resolve("no")).doesNotExist();
    }

    /** /proc takes no new file, even from root, whose permission bits say nothing: refused before any work. */
    @Test
    void aDirectoryThatTakesNoFileIsRefusedBeforeTheWork() {
        assertThatThrownBy(() -> OutputFile.checkWritable(Path.of("/proc/x.json"), false))
                .isInstanceOf(OutputException.class).hasMessageStartingWith("cannot write /proc/x.json: ")
                .hasMessageEndingWith(" (in /proc; choose another place)");
        assertThat(dir.toFile().list()).isEmpty();
        OutputFile.checkWritable(dir.resolve("x.json"), false);
        assertThat(dir.toFile().list()).as("the probe leaves nothing behind").isEmpty();
    }

    @Test
    void aDeadProcesssTemporaryFileIsRemovedOnTheNextWriteThere() throws IOException {
        // pid 2^22 + 1 is above Linux's pid_max default range of live processes in a test container
        Path stale = Files.writeString(dir.resolve(".out.csv.4194305.123.tmp"), "half");
        Path mine = Files.writeString(dir.resolve(".out.csv." + ProcessHandle.current().pid() + ".5.tmp"), "live");
        Path otherName = Files.writeString(dir.resolve(".run.v2.json.4194305.77.tmp"), "half");
        Path notOurs = Files.writeString(dir.resolve(".notes.tmp"), "the user's");
        OutputFile.write(dir.resolve("out.csv"), false, text("whole"));
        assertThat(stale).doesNotExist();
        assertThat(otherName).as("a dead writer's file of another output in the folder").doesNotExist();
        assertThat(notOurs).exists();
        assertThat(mine).exists();
        assertThat(Files.readString(dir.resolve("out.csv"))).isEqualTo("whole");
    }

    @Test
    void aWriteErrorNamesItsRealCause() throws IOException {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        ro.toFile().setWritable(false);
        try {
            // root ignores the mode bits; sysfs refuses new files even to root
            Path target = Files.isWritable(ro) ? Path.of("/sys/nccl-harness-output-test.csv") : ro.resolve("x.csv");
            org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(target.getParent()));
            assertThatThrownBy(() -> OutputFile.write(target, false, text("x")))
                    .isInstanceOf(OutputException.class).hasMessageContaining("permission denied");
        } finally {
            ro.toFile().setWritable(true);
        }
    }

    /** A file system that refuses hard links (some network and FUSE mounts), as Linux reports it. */
    private static final OutputFile.Links NO_LINKS = (target, existing) -> {
        throw new java.nio.file.FileSystemException(target.toString(), existing.toString(), "Operation not supported");
    };

    @Test
    void withoutHardLinksTheFileIsStillWrittenWholeAndNothingIsLeftBeside() throws IOException {
        Map<Path, OutputFile.Content> outs = new LinkedHashMap<>();
        outs.put(dir.resolve("a.csv"), text("a"));
        outs.put(dir.resolve("b.json"), text("b"));
        OutputFile.writeAll(outs, false, NO_LINKS);
        assertThat(Files.readString(dir.resolve("a.csv"))).isEqualTo("a");
        assertThat(Files.readString(dir.resolve("b.json"))).isEqualTo("b");
        assertThat(dir.toFile().list()).containsExactlyInAnyOrder("a.csv", "b.json");
        // a link call the file system does not offer at all, as a provider says it
        OutputFile.writeAll(Map.of(dir.resolve("c.csv"), text("c")), false, (t, e) -> {
            throw new UnsupportedOperationException();
        });
        assertThat(Files.readString(dir.resolve("c.csv"))).isEqualTo("c");
        assertThat(dir.toFile().list()).containsExactlyInAnyOrder("a.csv", "b.json", "c.csv");
    }

    /**
     * Without hard links a file that appears while the output is written is still never replaced: the exclusive
     * create that claims the name fails as the link would.
     */
    @Test
    void withoutHardLinksAFileThatAppearsMeanwhileIsKept() {
        Path target = dir.resolve("out.csv");
        OutputFile.Links theirsFirst = (t, e) -> {
            Files.writeString(t, "theirs");
            NO_LINKS.link(t, e);
        };
        assertThatThrownBy(() -> OutputFile.writeAll(Map.of(target, text("mine")), false, theirsFirst))
                .isInstanceOf(InputException.class).hasMessageContaining("appeared while writing");
        assertThat(target).hasContent("theirs");
        assertThat(dir.toFile().list()).containsExactly("out.csv");
    }

    @Test
    void anInterruptedWriteNamesTheSignalAndTheFiles() {
        assertThat(OutputFile.interruptedLine("SIGTERM", java.util.List.of("out.csv", "out.json")))
                .isEqualTo("interrupted by SIGTERM; nothing written (out.csv, out.json)");
        assertThat(OutputFile.interruptedLine(null, java.util.List.of("out.csv")))
                .isEqualTo("interrupted; nothing written (out.csv)");
    }
}
