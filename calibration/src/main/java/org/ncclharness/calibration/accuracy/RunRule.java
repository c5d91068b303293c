package org.ncclharness.calibration.accuracy;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.ncclharness.calibration.accuracy.AccuracyReport.DatasetScores;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.ModelChoice;

/**
 * One way to choose the model a multi-domain run is predicted with, from the fits the report already holds: one
 * family for every run, or a per-run pick. The leave-one-cluster-out scores choose among {@link #ALTERNATIVES}.
 *
 * @param name        as the report prints it
 * @param description one clause for the report's prose
 * @param model       the run's model under this rule, empty where the rule gives none
 */
public record RunRule(String name, String description, Function<DatasetScores, Optional<ModelScores>> model) {

    /** The families a multi-domain run is calibrated with, as {@code calibrate} picks among them. */
    public static final List<String> FAMILIES = List.of(Candidates.ENVELOPE, Candidates.TWO_TIER,
            Candidates.ALGORITHMS);

    /** The margin ModelChoice's comment records as tried before its own (1 point). */
    static final double WIDE_TIE_POINTS = 1.0;

    /** Today's rule: calibrate's per-run pick. */
    public static final RunRule PICK = new RunRule("picked", "calibrate's per-run pick: lowest out-of-sample"
            + " RMSPE, a tie to 0.1 point going to fewer parameters", d -> pick(d, ModelChoice.TIE_POINTS));

    /** Every rule the leave-one-cluster-out scores choose among, today's first (it wins a tie). */
    public static final List<RunRule> ALTERNATIVES = List.of(PICK,
            new RunRule("picked-wide-tie", "the same pick with the 1-point tie margin tried before",
                    d -> pick(d, WIDE_TIE_POINTS)),
            family(Candidates.ENVELOPE, "the protocol envelope, eta fitted"),
            family(Candidates.ENVELOPE_NCCL_ETA, "the protocol envelope with NCCL's eta held, the form's variant"),
            family(CeilingVariants.name(Candidates.ENVELOPE), "the protocol envelope without the NICs' ceiling on"
                    + " beta, the bound's alternative"),
            family(Candidates.TWO_TIER, "the two-tier fit"),
            family(Candidates.ALGORITHMS, "the algorithm envelope"),
            family(CeilingVariants.name(Candidates.ALGORITHMS), "the algorithm envelope without the NICs' ceiling"));

    static RunRule family(String model, String description) {
        return new RunRule(model, "every run on " + description, d -> d.model(model).filter(ModelScores::applies));
    }

    /**
     * The family calibrate would pick for a run: lowest out-of-sample RMSPE ({@link ModelChoice}, with the tie
     * margin given), else the envelope; empty where the envelope was not fitted.
     */
    static Optional<ModelScores> pick(DatasetScores d, double tiePoints) {
        List<ModelScores> fitted = FAMILIES.stream().flatMap(m -> d.model(m).stream())
                .filter(ModelScores::applies).toList();
        if (fitted.stream().noneMatch(m -> m.model().equals(Candidates.ENVELOPE))) {
            return Optional.empty();
        }
        List<ModelChoice.Family> families = fitted.stream().map(RunRule::family).toList();
        String picked = ModelChoice.of(families, Candidates.ENVELOPE, "as calibrate falls back", tiePoints).picked();
        return fitted.stream().filter(m -> m.model().equals(picked)).findFirst();
    }

    /** A fitted family as calibrate's pick sees it. */
    static ModelChoice.Family family(ModelScores m) {
        return new ModelChoice.Family(m.model(), m.leaveOneOutPct(), m.inSample().overallPct(), m.k(),
                m.inSample().points());
    }
}
