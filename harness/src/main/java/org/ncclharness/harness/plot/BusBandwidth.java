package org.ncclharness.harness.plot;

import org.ncclharness.calibration.measure.Collective;

/** nccl-tests' definition (SPEC §2): algbw = S / t / 1e9, busbw = algbw × the collective's factor. */
final class BusBandwidth {

    private BusBandwidth() {
    }

    static double gbps(Collective collective, int ranks, long bytes, double timeUs) {
        return bytes / (timeUs * 1e3) * collective.busFactor(ranks);
    }
}
