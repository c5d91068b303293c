package org.ncclharness.harness.figure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;
import org.ncclharness.harness.MainClasses;

/** The calibration core stays free of AWT and charting: pictures are a writer, and writers of images live here. */
class ChartingStaysInHarnessTest {

    @Test
    void calibrationDrawsNothing() {
        noClasses().that().resideInAPackage("org.ncclharness.calibration..")
                .should().dependOnClassesThat().resideInAnyPackage("java.awt..", "javax.imageio..", "org.jfree..")
                .check(MainClasses.all());
    }
}
