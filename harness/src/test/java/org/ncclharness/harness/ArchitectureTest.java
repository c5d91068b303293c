package org.ncclharness.harness;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * The layout is the architecture: calibration knows nothing of GPUs, native nothing of fitting; the packages of both
 * modules form no cycle, and commands depend on shared services, never on each other.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = MainClasses.all();

    @Test
    void calibrationKnowsNoNativeCodeAndNoCuda() {
        noClasses().that().resideInAPackage("org.ncclharness.calibration..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ncclharness.gpu..", "org.bytedeco..",
                        "org.ncclharness.harness..")
                .check(CLASSES);
    }

    @Test
    void calibrationOpensNoSocketsAndStartsNoProcesses() {
        noClasses().that().resideInAPackage("org.ncclharness.calibration..")
                .should().dependOnClassesThat().resideInAnyPackage("java.net..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ProcessBuilder.class.getName())
                .check(CLASSES);
    }

    @Test
    void nativeKnowsNoFittingNoFormatsAndNoCommandLine() {
        noClasses().that().resideInAPackage("org.ncclharness.gpu..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ncclharness.calibration.fit..",
                        "org.ncclharness.calibration.model..", "org.ncclharness.calibration.read..",
                        "org.ncclharness.calibration.format..", "org.ncclharness.harness..", "picocli..")
                .check(CLASSES);
    }

    @Test
    void calibrationsPackagesFormNoCycle() {
        slices().matching("org.ncclharness.calibration.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void harnesssPackagesFormNoCycle() {
        slices().matching("org.ncclharness.harness.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    /**
     * Commands share services (runs, figure, live, options, ...), never each other: a package that holds a command
     * depends on no other such package; only cli, which wires them, knows them all.
     */
    @Test
    void noCommandDependsOnAnother() {
        Set<String> commands = CLASSES.stream().filter(c -> c.isAnnotatedWith(Command.class))
                .map(JavaClass::getPackageName).filter(p -> !p.endsWith(".cli")).collect(Collectors.toSet());
        assertThat(commands).as("command packages").hasSizeGreaterThan(10);
        for (String p : commands) {
            noClasses().that().resideInAPackage(p)
                    .should().dependOnClassesThat().resideInAnyPackage(commands.stream().filter(o -> !o.equals(p))
                            .toArray(String[]::new))
                    .check(CLASSES);
        }
    }
}
