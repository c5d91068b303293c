package org.ncclharness.harness;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The main classes of every module, imported once per test JVM for all the ArchUnit rules: each import reads
 * every class and resolves its dependencies from the class path, seconds of work that the rules of several test
 * classes need not repeat (issue 43: the suite in minutes).
 */
public final class MainClasses {

    private MainClasses() {
    }

    /** Every main (non-test) class under {@code org.ncclharness}. */
    public static JavaClasses all() {
        return Holder.ALL;
    }

    /** Imported on first use, by the class loader's lock: once, whichever test asks first. */
    private static final class Holder {
        static final JavaClasses ALL = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.ncclharness");
    }
}
