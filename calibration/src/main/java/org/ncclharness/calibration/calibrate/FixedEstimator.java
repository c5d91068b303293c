package org.ncclharness.calibration.calibrate;

import java.util.List;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.model.CostModel;

/** A model with nothing estimated from the data (NCCL's tuner): every subset gives the same, empty θ. */
public record FixedEstimator(String name, String description, CostModel model) implements Estimator {

    @Override
    public List<String> freeParameters() {
        return List.of();
    }

    @Override
    public double[] estimate(FitPoints points) {
        return new double[0];
    }
}
