package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;

/**
 * The algorithm envelope fitted jointly on runs of one system at several configurations, as a {@link Fit}: θ
 * from {@link AlgorithmEnvelopeEstimator#estimateJoint}, the model at the first multi-domain configuration (θ
 * holds at every one), residuals of every run at its own configuration. Leave-one-out is estimated by
 * {@value Fitter#FOLDS}-fold cross-validation over all the runs' points (every {@value Fitter#FOLDS}th size of
 * each run left out per fold), since n joint refits of several runs cost too much for the gain.
 */
public final class JointAlgorithmFit {

    private JointAlgorithmFit() {
    }

    /**
     * @param allRunIds       per run, its id: the fit's {@link Fit#runs} are those of the runs it fits
     * @param allCeilingsGBps per run, the most busbw any algorithm moves between its domains, null where not known
     *                        ({@link AlgorithmEnvelopeEstimator#estimateJoint})
     */
    public static Fit fit(String name, String description, List<String> allRunIds,
                          List<AlgorithmEnvelopeModel> allModels, List<FitPoints> allPoints,
                          List<Double> allCeilingsGBps) {
        List<Integer> runs = fittedRuns(allModels);
        List<AlgorithmEnvelopeModel> models = runs.stream().map(allModels::get).toList();
        List<FitPoints> points = runs.stream().map(allPoints::get).toList();
        List<Double> ceilings = runs.stream().map(allCeilingsGBps::get).toList();
        double[] theta = AlgorithmEnvelopeEstimator.estimateJoint(models, points, ceilings);
        int folds = Fitter.FOLDS;
        double[][] held = new double[points.size()][];
        for (int r = 0; r < points.size(); r++) {
            held[r] = new double[points.get(r).size()];
        }
        IntStream.range(0, folds).parallel().forEach(f -> {
            List<FitPoints> train = points.stream().map(p -> p.keep(i -> i % folds != f)).toList();
            double[] th = AlgorithmEnvelopeEstimator.estimateJoint(models, train, ceilings);
            for (int r = 0; r < points.size(); r++) {
                double[] b = points.get(r).bytes();
                for (int i = f; i < b.length; i += folds) {
                    held[r][i] = models.get(r).timeUs(b[i], th);
                }
            }
        });
        List<Double> bytes = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        List<Double> heldOut = new ArrayList<>();
        List<Residual> residuals = new ArrayList<>();
        for (int r = 0; r < points.size(); r++) {
            FitPoints p = points.get(r);
            for (int i = 0; i < p.size(); i++) {
                double t = models.get(r).timeUs(p.bytes()[i], theta);
                bytes.add(p.bytes()[i]);
                measured.add(p.timeUs()[i]);
                predicted.add(t);
                heldOut.add(held[r][i]);
                residuals.add(Residual.of(p.bytes()[i], p.timeUs()[i], t));
            }
        }
        AlgorithmEnvelopeModel at = models.stream().filter(AlgorithmEnvelopeModel::multiDomain).findFirst()
                .orElse(models.get(0));
        double[] b = unbox(bytes);
        return new Fit(name, description + scope(models.size(), allModels.size() - runs.size()), at,
                theta, AlgorithmEnvelopeEstimator.freeParameters(models), residuals,
                Rmspe.of(b, unbox(measured), unbox(predicted)),
                Rmspe.of(b, unbox(measured), unbox(heldOut)), "estimated by " + folds + "-fold cross-validation over"
                        + (models.size() == 1 ? " the run's " : " the " + models.size() + " runs' ") + b.length
                        + " points", List.of(), runs.stream().map(allRunIds::get).toList());
    }

    /**
     * What the fit was fitted on, appended to its description: {@code fitted} runs (one is not "jointly", and
     * not "1 configurations"), and the {@code leftOut} runs on one domain that {@link #fittedRuns} set aside.
     */
    static String scope(int fitted, int leftOut) {
        String on = fitted == 1 ? " (fitted on one configuration" : " (fitted jointly on " + fitted + " configurations";
        String left = switch (leftOut) {
            case 0 -> "";
            case 1 -> "; 1 run on one domain left out: its bandwidth is the intra-domain tier's";
            default -> "; " + leftOut + " runs on one domain left out: their bandwidth is the intra-domain tier's";
        };
        return on + left + (leftOut == 0 ? "" : ", not the slower tier's that beta is across domains") + ")";
    }

    /**
     * The runs a joint fit uses: those across domains, where there are any. A run on one domain is another regime
     * of NCCL's: its ring never leaves NVLink (β would have to be that tier's bandwidth as well as the slower
     * tier's across domains), it runs P2P transports with no network proxy and its own channel count, and it says
     * nothing of ℓ_net or τ. Fitted with its 4-GPU run, the GH200 group's 2,048-GPU run was predicted at 49.8 %
     * RMSPE; with a bandwidth of its own for that run (one more parameter), 41.0 %; without it, 35.5 %.
     */
    public static List<Integer> fittedRuns(List<AlgorithmEnvelopeModel> models) {
        List<Integer> across = IntStream.range(0, models.size()).filter(r -> models.get(r).multiDomain()).boxed()
                .toList();
        return across.isEmpty() ? IntStream.range(0, models.size()).boxed().toList() : across;
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
