package org.ncclharness.harness.doctor;

/** Where doctor gets its GPU facts: {@link NativeGpuInfo} in the command, a fixed answer in tests. */
public interface GpuInfoSource {

    /** Never throws for a missing driver or GPU: those are {@link Problem}s with exit code 3. */
    GpuFacts probe();
}
