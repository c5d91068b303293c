package org.ncclharness.harness.launch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.MainClasses;

/** The control plane stands alone: the sweep and the native timing loop use it, it uses neither. */
class LaunchArchitectureTest {

    private static final JavaClasses CLASSES = MainClasses.all();

    @Test
    void launchKnowsNoNcclNoCudaAndNoCommand() {
        noClasses().that().resideInAPackage("org.ncclharness.harness.launch..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ncclharness.gpu..", "org.bytedeco..",
                        "org.ncclharness.harness.doctor..", "org.ncclharness.calibration..")
                .check(CLASSES);
    }
}
