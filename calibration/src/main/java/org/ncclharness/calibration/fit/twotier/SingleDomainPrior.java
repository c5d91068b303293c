package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.measure.InputException;

/**
 * Priors on u_NV and ℓ_nv from single-domain runs of the same GPU class (issue 4). The single-domain runs are
 * fitted with T_sw held at 0, the single-tier method-B convention (α = 2(N−1)·hops·ℓ), so ℓ_nv carries the fixed
 * costs as the single-tier calibration does. Only what that fit pins down (determined, or bounded within a
 * narrow profile) becomes a prior; its sigma is the
 * half-width of the 1 % profile, at least {@link #MIN_RELATIVE_SIGMA} of the value (a single-domain run is
 * another machine of the same class, not the same machine).
 */
public final class SingleDomainPrior {

    public static final double MIN_RELATIVE_SIGMA = 0.10;
    /**
     * A bounded parameter (its profile meets the search box on one side, typically u_NV at the floor the largest
     * message sets) still makes a prior when its profile is this narrow relative to its value.
     */
    public static final double MAX_RELATIVE_WIDTH = 0.5;

    private SingleDomainPrior() {
    }

    public static List<Prior> from(TwoTierProblem singleDomain, String source) {
        for (TwoTierConfig c : singleDomain.configurations()) {
            if (c.domains() != 1) {
                throw new InputException(source, 0, "a prior from single-domain runs needs d = 1; got "
                        + c.label());
            }
        }
        ParamRanges box = ParamRanges.defaultsFor(singleDomain, 2)
                .with(Map.of(TwoTierParam.T_SW, new ParamRange(0, 0, 1)));
        // the profiles are what a prior is made of: no leave-one-out
        TwoTierFit fit = TwoTierFitter.inSample(singleDomain, TwoTierForm.HIERARCHICAL, box, List.of()).fit();
        List<Prior> out = new ArrayList<>();
        for (TwoTierParam q : List.of(TwoTierParam.U_NV, TwoTierParam.ELL_NV)) {
            ParamProfile p = fit.profile(q);
            boolean narrow = p.highest() - p.lowest() <= MAX_RELATIVE_WIDTH * p.value();
            if (p.value() > 0 && (p.status() == Identifiability.DETERMINED
                    || (p.status() == Identifiability.BOUNDED && narrow))) {
                double sigma = Math.max(0.5 * (p.highest() - p.lowest()), MIN_RELATIVE_SIGMA * p.value());
                out.add(new Prior(q, p.value(), sigma, source));
            }
        }
        return out;
    }
}
