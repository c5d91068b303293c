package org.ncclharness.harness.doctor;

/**
 * Where doctor gets its GPU facts. {@link GpuInfoSources#current()} picks the implementation: for now
 * {@link DriverFilesGpuInfo}, which reads the driver's files without calling CUDA; the native bridge's
 * {@code org.ncclharness.gpu.Gpus.probe()} replaces it there, in that one class.
 */
public interface GpuInfoSource {

    /** Never throws for a missing driver or GPU: those are {@link Problem}s with exit code 3. */
    GpuFacts probe();
}
