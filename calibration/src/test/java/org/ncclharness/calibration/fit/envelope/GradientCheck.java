package org.ncclharness.calibration.fit.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.ncclharness.calibration.model.CostModel;

/** A model's closed-form gradient against a central difference of its time, component by component. */
final class GradientCheck {

    private GradientCheck() {
    }

    static void matchesCentralDifference(CostModel model, double[] theta, double... sizes) {
        for (double m : sizes) {
            double[] g = model.gradient(m, theta);
            for (int j = 0; j < theta.length; j++) {
                double h = theta[j] * 1e-6;
                double[] up = theta.clone();
                double[] down = theta.clone();
                up[j] += h;
                down[j] -= h;
                double numeric = (model.timeUs(m, up) - model.timeUs(m, down)) / (2 * h);
                assertThat(g[j]).as("d/d theta[%d] at %s B", j, m)
                        .isCloseTo(numeric, within(1e-6 * (1 + Math.abs(numeric))));
            }
        }
    }
}
