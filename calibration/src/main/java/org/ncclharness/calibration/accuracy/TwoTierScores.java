package org.ncclharness.calibration.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import org.ncclharness.calibration.accuracy.HeldOut.Score;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * The two-tier fit (issue 4) scored like the other models: {@code calibrate}'s own {@link TwoTierCalibrator}, its
 * better form, refitted on the fitting half of each held-out split. Five free parameters (u_NV, β_IB, ℓ_nv, ℓ_ib,
 * T_sw).
 */
final class TwoTierScores {

    static final int FREE_PARAMETERS = 5;

    private final TwoTierCalibrator calibrator;
    /** For the held-out splits, which read the better form alone: no protocol-aware families fitted beside it. */
    private final TwoTierCalibrator formsOnly;
    private final List<CalibrationInput> all;

    TwoTierScores(TwoTierCalibrator calibrator, List<CalibrationInput> all) {
        this.calibrator = calibrator;
        this.formsOnly = calibrator.formsOnly();
        this.all = all;
    }

    /** The fitted calibration with its two-tier forms, or why there is none. */
    record Result(TwoTierCalibration calibration, String reason) {
    }

    Result fit(CalibrationInput in) {
        return fit(calibrator, in);
    }

    private Result fit(TwoTierCalibrator by, CalibrationInput in) {
        // another collective's entry holds the envelopes alone, which Candidates scores as they are
        Optional<String> noForms = TwoTierCalibrator.formsAbsent(in.sweep().collective());
        if (noForms.isPresent()) {
            return new Result(null, noForms.get());
        }
        CalibrationEntry e = by.calibrate(in, all);
        if (e instanceof TwoTierCalibration t) {
            return new Result(t, null);
        }
        return new Result(null, e instanceof DeferredCalibration d ? d.reason() : "not fitted");
    }

    /** The better form's model at a configuration, with its θ ({@code t} has its forms: AllReduce). */
    static TwoTierCostModel model(TwoTierCalibration t, TwoTierConfig at) {
        return new TwoTierCostModel(t.best().orElseThrow().form(), at, t.fabric().betaNvGBps(), t.fabric().hops());
    }

    static double[] theta(TwoTierCalibration t) {
        return TwoTierCostModel.theta(t.best().orElseThrow().params());
    }

    static TwoTierConfig config(Hardware h) {
        return new TwoTierConfig(h.domains(), h.domainSize());
    }

    Score interleaved(CalibrationInput in, FitPoints p) {
        return split(in, p, i -> i % 2 == 0);
    }

    Score extrapolation(CalibrationInput in, FitPoints p) {
        double[] b = p.bytes();
        return split(in, p, i -> b[i] <= HeldOut.EXTRAPOLATION_LIMIT_BYTES);
    }

    /** Refit on the sizes {@code fitOn} selects (the sweep's rows at those sizes), predict the others. */
    private Score split(CalibrationInput in, FitPoints p, IntPredicate fitOn) {
        Set<Long> fitSizes = new TreeSet<>();
        List<Integer> test = new ArrayList<>();
        for (int i = 0; i < p.size(); i++) {
            if (fitOn.test(i)) {
                fitSizes.add((long) p.bytes()[i]);
            } else {
                test.add(i);
            }
        }
        if (test.isEmpty()) {
            return Score.none("no point to predict");
        }
        int min = 2 * FREE_PARAMETERS;
        if (fitSizes.size() < min) {
            return Score.none(fitSizes.size() + " points to fit, " + min + " needed");
        }
        List<Measurement> rows = in.sweep().rows().stream().filter(r -> fitSizes.contains(r.sizeBytes())).toList();
        Result r = fit(formsOnly, in.withSweep(in.sweep().withRows(rows)));
        if (r.calibration() == null) {
            return Score.none(r.reason());
        }
        TwoTierCostModel m = model(r.calibration(), config(in.sweep().hardware()));
        return Score.of(m, theta(r.calibration()), HeldOut.subset(p, test));
    }

    /** A joint fit of {@code members} predicting {@code target}'s configuration. */
    Score crossScale(String name, List<CalibrationInput> members, CalibrationInput target, FitPoints predict) {
        if (members.size() < 2) {
            return Score.none("one smaller configuration: a joint fit needs at least two");
        }
        TwoTierCalibration t;
        try {
            t = calibrator.joint(name, members);
        } catch (InputException e) {
            return Score.none(e.getMessage());
        }
        return Score.of(model(t, config(target.sweep().hardware())), theta(t), predict);
    }
}
