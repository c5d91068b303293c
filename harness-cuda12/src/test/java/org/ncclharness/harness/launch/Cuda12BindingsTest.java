package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The harness's classes were compiled against the CUDA 13 preset; harness-cuda12.jar runs them on the CUDA 12
 * one. Every binding method, constructor and field they use must exist there too, except inside
 * NewerNcclCalls, which is reached only where the loaded binding declares the call or field.
 */
class Cuda12BindingsTest {

    private static final ImportOption PRODUCT_ONLY = location -> !location.contains("/test-classes/")
            && !location.contains("-tests.jar");

    @Test
    void everyBindingMemberTheHarnessUsesOutsideNewerNcclCallsExistsInTheCuda12Preset() {
        JavaClasses classes = new ClassFileImporter().withImportOption(PRODUCT_ONLY).importPackages("org.ncclharness");
        List<String> missing = classes.stream()
                .flatMap(c -> Stream.<JavaAccess<?>>concat(Stream.concat(c.getMethodCallsFromSelf().stream(),
                        c.getConstructorCallsFromSelf().stream()), c.getFieldAccessesFromSelf().stream()))
                .filter(a -> a.getTargetOwner().getPackageName().startsWith("org.bytedeco"))
                .filter(a -> a.getTarget().resolveMember().isEmpty())
                .map(a -> a.getOriginOwner().getSimpleName() + " -> " + a.getTarget().getFullName()).distinct().toList();
        // the check sees what the CUDA 12 preset lacks: the calls and config fields kept behind the checks
        assertThat(missing).anyMatch(m -> m.startsWith("NewerNcclCalls -> org.bytedeco.cuda.global.nccl.ncclAlltoAll("))
                .anyMatch(m -> m.startsWith("NewerNcclCalls -> org.bytedeco.cuda.global.nccl.ncclGather("))
                .anyMatch(m -> m.startsWith("NewerNcclCalls -> org.bytedeco.cuda.nccl.ncclConfig_t.maxP2pPeers("));
        assertThat(missing).filteredOn(m -> !m.startsWith("NewerNcclCalls -> ")).isEmpty();
    }
}
