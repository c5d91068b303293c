package org.ncclharness.harness;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The layout is the architecture: calibration knows nothing of GPUs, native nothing of fitting. */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.ncclharness");

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
    void noCommandDependsOnTheBenchmarks() {
        // calibrate drew its grid progress bar from bench once; shared pieces live in neutral packages
        noClasses().that().resideInAPackage("org.ncclharness.harness..")
                .and().resideOutsideOfPackages("org.ncclharness.harness.bench..", "org.ncclharness.harness")
                .should().dependOnClassesThat().resideInAPackage("org.ncclharness.harness.bench..")
                .check(CLASSES);
    }
}
