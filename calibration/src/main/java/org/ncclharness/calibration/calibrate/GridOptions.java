package org.ncclharness.calibration.calibrate;

import java.util.Map;
import java.util.function.BiFunction;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.fit.twotier.GridProgress;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.fit.twotier.TwoTierProblem;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;

/**
 * {@code calibrate --grid}: run the faithful reference grid search (docs/two-tier.md) beside the exact fit of every
 * two-tier entry. The box is the data's default ({@link ParamRanges#defaultsFor}) at {@code pointsPerAxis}, with the
 * ranges the user gave (each with its own points) in place of the default ones.
 *
 * @param pointsPerAxis points on every axis the user gave no range for (at least 2)
 * @param ranges        the user's ranges, already checked ({@link ParamRange#parse})
 * @param progress      a progress sink per search, given the entry's id and the form searched (the command line
 *                      draws a bar)
 */
public record GridOptions(int pointsPerAxis, Map<TwoTierParam, ParamRange> ranges,
                          BiFunction<String, TwoTierForm, GridProgress> progress) {

    public GridOptions {
        if (pointsPerAxis < 2) {
            throw new InputException(Setting.GRID_POINTS, pointsPerAxis + " points per axis; give at least 2 (a "
                    + Advice.name(Setting.GRID_RANGES) + " range sets its own axis's points, 1 included)");
        }
        ranges = Map.copyOf(ranges);
    }

    /** The box the grid enumerates for this problem. */
    public ParamRanges box(TwoTierProblem p) {
        ParamRanges box = ParamRanges.defaultsFor(p, pointsPerAxis).with(ranges);
        box.combinations();
        return box;
    }
}
