package org.ncclharness.harness;

import org.ncclharness.harness.options.CliWording;
import org.ncclharness.harness.CliRun;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.PlainWording;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputFile;

/**
 * Every setting the calibration core asks for is one of this command line's flags, worded in one place; the core
 * says plain words until the command line installs its wording, and {@link Main} does before any command runs.
 */
class CliWordingTest {

    @TempDir
    Path dir;

    @AfterEach
    void commandLineWordingAgain() {
        CliWording.install();
    }

    @Test
    void everySettingIsAFlagOfSomeCommand() {
        Set<String> options = CalibrationNamesNoOptionTest.optionNames();
        List<String> notAFlag = new ArrayList<>();
        for (Setting s : Setting.values()) {
            String name = CliWording.INSTANCE.name(s);
            boolean known = name.endsWith("-*")
                    ? options.stream().anyMatch(o -> o.startsWith(name.substring(0, name.length() - 1)))
                    : options.contains(name);
            if (!known) {
                notAFlag.add(s + " -> " + name);
            }
        }
        assertThat(notAFlag).as("a setting the command line has no flag for").isEmpty();
    }

    @Test
    void eachSettingHasItsOwnFlagAndPlainWords() {
        Set<String> flags = new HashSet<>();
        Set<String> words = new HashSet<>();
        for (Setting s : Setting.values()) {
            assertThat(flags.add(CliWording.INSTANCE.name(s))).as("flag of " + s).isTrue();
            assertThat(words.add(PlainWording.INSTANCE.name(s))).as("words of " + s).isTrue();
            assertThat(PlainWording.INSTANCE.name(s)).doesNotStartWith("-");
        }
    }

    @Test
    void aUsageIsTheFlagAndWhatItTakes() {
        assertThat(CliWording.INSTANCE.usage(Setting.GPU_COUNT)).isEqualTo("--gpus N");
        assertThat(CliWording.INSTANCE.usage(Setting.COLLECTIVE)).isEqualTo("--collective NAME");
        assertThat(CliWording.INSTANCE.usage(Setting.OVERWRITE)).isEqualTo("--force");
        assertThat(PlainWording.INSTANCE.usage(Setting.GPU_COUNT)).isEqualTo("the GPU count");
    }

    @Test
    void theCoresMessagesSayPlainWordsUntilTheCommandLineInstallsItsFlags() throws IOException {
        Path existing = Files.createFile(dir.resolve("out.csv"));
        Advice.install(PlainWording.INSTANCE);
        assertThatThrownBy(() -> OutputFile.checkWritable(existing, false)).isInstanceOf(InputException.class)
                .hasMessage(existing + ": already exists; pass permission to overwrite to overwrite it, or choose"
                        + " another name");
        assertThat(new InputException(Setting.JOINT, "two runs needed")).hasMessage("the joint fit: two runs needed");
        CliWording.install();
        assertThatThrownBy(() -> OutputFile.checkWritable(existing, false))
                .hasMessage(existing + ": already exists; pass --force to overwrite it, or choose another name");
        assertThat(new InputException(Setting.JOINT, "two runs needed")).hasMessage("--joint: two runs needed");
    }

    @Test
    void theSettingsAreABottomPackageThatEveryOtherCanName() {
        classes().that().resideInAPackage("org.ncclharness.calibration.advice..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.ncclharness.calibration.advice..", "java..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.ncclharness.calibration.advice"));
    }

    @Test
    void mainInstallsTheFlagsBeforeAnyCommandRuns() {
        Advice.install(PlainWording.INSTANCE);
        CliRun run = CliRun.of("predict", "--dataset", "no_such_dataset", "--bytes", "1G");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("--dataset: no bundled dataset no_such_dataset; list them with: harness.jar"
                + " datasets\n");
        assertThat(Advice.wording()).isSameAs(CliWording.INSTANCE);

    }

}
