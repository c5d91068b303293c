package org.ncclharness.calibration.accuracy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Fold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.RunScore;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Split;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.SplitScore;
import org.ncclharness.calibration.measure.SizeText;

/**
 * Why the held-out extrapolation misses its target where it does: per run above it, the busbw the fitted sizes
 * reached, the busbw measured at the largest predicted size and the model's there. A bound on the fit (the NICs'
 * ceiling, η ≤ 1) can only lower a model's bandwidth, so it can only help the runs the model moves too fast; the
 * count of each kind says how much of the miss such a bound can reach.
 */
final class ExtrapolationMissesMarkdown {

    private ExtrapolationMissesMarkdown() {
    }

    static void render(StringBuilder sb, LeaveOneClusterOut l, double targetPct) {
        List<Map.Entry<RunScore, SplitScore>> misses = l.folds().stream().flatMap(f -> f.runs().stream())
                .map(r -> Map.entry(r, r.splits().get(Split.EXTRAPOLATION)))
                .filter(e -> e.getValue().pct().isPresent() && e.getValue().pct().getAsDouble() > targetPct
                        && e.getValue().end().isPresent())
                .toList();
        if (misses.isEmpty()) {
            return;
        }
        long slow = misses.stream().filter(e -> e.getValue().end().orElseThrow().tooSlow()).count();
        sb.append("Extrapolation above ").append(String.format(Locale.ROOT, "%.0f", targetPct))
                .append(" %, read at each run's largest size: the most busbw its fitted sizes (<= 256 MiB) measured,"
                        + " the busbw measured at its largest size, the held-out model's there and what carries that"
                        + " size on the model (an envelope's protocol, and across domains its algorithm; `-` for"
                        + " another model). `slower`: the run's busbw rose past what its fitted sizes showed and the"
                        + " model, fitted on them, stays below it (a bound on the fit, which can only lower a"
                        + " bandwidth, cannot reach these); `faster`: the model's bandwidth stands above what the run"
                        + " reached. ")
                .append(slow).append(" of ").append(misses.size()).append(" are slower.\n\n")
                .append("| cluster | dataset | extrapolation | largest size | busbw fitted (GB/s) |"
                        + " busbw measured there | the model's | carried on | the model against the run |\n"
                        + "|---|---|---|---|---|---|---|---|---|\n");
        for (Fold f : l.folds()) {
            for (Map.Entry<RunScore, SplitScore> e : misses) {
                if (!f.runs().contains(e.getKey())) {
                    continue;
                }
                SplitScore s = e.getValue();
                HeldOut.End end = s.end().orElseThrow();
                sb.append(String.format(Locale.ROOT,
                        "| %s | `%s` | %.1f %% (%s) | %s | %.1f | %.1f | %.1f | %s | %s |%n",
                        f.cluster(), e.getKey().id(), s.pct().getAsDouble(), s.rule().orElseThrow(),
                        SizeText.approx(end.largestBytes()), end.fittedBusBwGBps(), end.measuredBusBwGBps(),
                        end.predictedBusBwGBps(), end.carrier() == null ? "-" : end.carrier(),
                        end.tooSlow() ? "slower" : "faster"));
            }
        }
        sb.append('\n');
    }
}
