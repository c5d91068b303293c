package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParams;
import org.apache.commons.math3.random.Well19937c;

/**
 * Synthetic two-tier runs: model predictions from known parameters with multiplicative Gaussian noise, for the
 * tests and the benchmark. They are predictions, never measurements; labels say "synthetic".
 */
public final class TwoTierSynthetic {

    private TwoTierSynthetic() {
    }

    /**
     * @param noiseRel relative standard deviation of the noise (0.003 = 0.3 %); 0 for exact model values
     * @param seed     the noise is reproducible from it
     */
    public static TwoTierRun run(TwoTierForm form, TwoTierConfig c, double betaNvGBps, int hops, TwoTierParams truth,
                                 double[] bytes, double noiseRel, long seed) {
        Well19937c rng = new Well19937c(seed);
        double[] t = new double[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            double exact = TwoTierModel.timeUs(form, c, betaNvGBps, hops, truth, bytes[i]);
            t[i] = exact * (1 + noiseRel * rng.nextGaussian());
        }
        return new TwoTierRun("synthetic " + form.id() + " " + c.label(), c, bytes, t);
    }

    /** Powers of two from {@code minBytes} to {@code maxBytes} inclusive (nccl-tests' {@code -f 2}). */
    public static double[] powersOfTwo(long minBytes, long maxBytes) {
        int n = 0;
        for (long b = minBytes; b <= maxBytes; b *= 2) {
            n++;
        }
        double[] out = new double[n];
        long b = minBytes;
        for (int i = 0; i < n; i++, b *= 2) {
            out[i] = b;
        }
        return out;
    }
}
