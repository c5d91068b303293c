package org.ncclharness.harness.launch;

import org.junit.jupiter.api.BeforeAll;

/**
 * An integration test that runs the harness on the gcc-built CUDA/NCCL stand-ins: they are built once per test
 * JVM ({@link StandIns#shared()}) before its first test, and every such test reads them from here.
 */
abstract class UsesStandIns {

    static StandIns standIns;

    @BeforeAll
    static void buildStandIns() throws Exception {
        standIns = StandIns.shared();
    }
}
