package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierParam;

/**
 * One parameter's profile: the range of values over which the best RMSPE attainable with the parameter held
 * there (the other four re-fitted) stays within the tolerance of the minimum ({@link TwoTierFitter#PROFILE_RELATIVE}).
 *
 * @param value          the fitted value
 * @param lowest         lowest value inside the tolerance
 * @param highest        highest value inside the tolerance
 * @param touchesMin     the profile reaches the search range's lower end
 * @param touchesMax     the profile reaches the search range's upper end
 * @param needsPrior     determined only because a prior was given (the data alone cannot separate it)
 */
public record ParamProfile(TwoTierParam param, double value, double lowest, double highest, boolean touchesMin,
                           boolean touchesMax, Identifiability status, boolean needsPrior) {
}
