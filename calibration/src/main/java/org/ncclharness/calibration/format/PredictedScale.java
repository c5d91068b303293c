package org.ncclharness.calibration.format;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;

/**
 * The configuration a prediction's label names ({@code PredictedSweep#heading}: {@code ..., for 64 GPUs in 8
 * domains of 8}), which the text table's and the CSV's readers alike take back as the table's hardware: one
 * prediction read from either gives the same facts.
 *
 * @param ranks     N predicted for
 * @param domains   the domains of a model across domains, null for one tier
 * @param perDomain GPUs per domain, null for one tier
 */
public record PredictedScale(int ranks, Integer domains, Integer perDomain) {

    private static final Pattern FOR = Pattern.compile(", for (\\d{1,9}) GPUs(?: in (\\d{1,9}) domains of"
            + " (\\d{1,9}))?$");

    /** The scale a predicted table's label states; empty for any other provenance, or a label that states none. */
    public static Optional<PredictedScale> of(Provenance p) {
        if (p == null || p.kind() != SourceKind.PREDICTED) {
            return Optional.empty();
        }
        Matcher m = FOR.matcher(p.label());
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new PredictedScale(Integer.parseInt(m.group(1)),
                m.group(2) == null ? null : Integer.valueOf(m.group(2)),
                m.group(3) == null ? null : Integer.valueOf(m.group(3))));
    }

    /** The hardware with the domains a model across domains was predicted for. */
    public Hardware on(Hardware hw) {
        return domains == null ? hw : new Hardware(hw.gpuModel(), hw.ranks(), hw.hosts(), perDomain, domains,
                hw.intra(), hw.inter());
    }
}
