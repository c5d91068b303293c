package org.ncclharness.harness.figure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The calibration core stays free of AWT and charting: pictures are a writer, and writers of images live here. */
class ChartingStaysInHarnessTest {

    @Test
    void calibrationDrawsNothing() {
        noClasses().that().resideInAPackage("org.ncclharness.calibration..")
                .should().dependOnClassesThat().resideInAnyPackage("java.awt..", "javax.imageio..", "org.jfree..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.ncclharness.calibration"));
    }
}
