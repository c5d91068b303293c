package org.ncclharness.harness;

import org.ncclharness.harness.options.CliWording;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before each test class of this module, the calibration core words its settings as this command line does, as
 * {@link Main#execute} makes it for a user: a test that calls the core directly sees the same messages whatever
 * ran before it (registered in META-INF/services, with junit-platform.properties turning detection on).
 */
public final class CliWordingExtension implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        CliWording.install();
    }
}
