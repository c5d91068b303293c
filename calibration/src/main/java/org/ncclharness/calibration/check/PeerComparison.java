package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.measure.Severity;

/**
 * Like against like: the GPUs, hosts or pairs of hosts of one bring-up step measured at the same time on the same
 * sizes, each compared with the median of them all (with two, with the faster). It needs no expected curve, so it
 * names the bad host on hardware no bundled run describes; it cannot see a fault that every peer shares, which
 * is what the expected curve is for.
 */
public final class PeerComparison {

    /** One subject and its figure (higher is better: busbw or algbw at the step's largest size). */
    public record Peer(String subject, double value) { }

    private PeerComparison() {
    }

    /**
     * WARN below {@code rules.warnBelowPct()} % of the reference, FAIL below {@code rules.failBelowPct()} %.
     *
     * @param metric how the figure reads, e.g. {@code busbw at 64 MiB}
     */
    public static List<Finding> compare(String metric, List<Peer> peers, CheckRules rules) {
        List<Peer> valid = peers.stream().filter(p -> Double.isFinite(p.value())).toList();
        if (valid.size() < 2) {
            return List.of();
        }
        double[] v = valid.stream().mapToDouble(Peer::value).toArray();
        double ref = valid.size() == 2 ? Math.max(v[0], v[1]) : new Median().evaluate(v);
        String of = valid.size() == 2 ? "the faster of 2" : "the median of " + valid.size();
        List<Finding> out = new ArrayList<>();
        for (Peer p : valid) {
            double pct = ref > 0 ? 100 * p.value() / ref : 100;
            Severity s = pct < rules.failBelowPct() ? Severity.FAIL : pct < rules.warnBelowPct() ? Severity.WARN : null;
            if (s != null) {
                out.add(new Finding(s, "peers", null, String.format(Locale.ROOT, "%s: %s %.2f GB/s is %.0f %% of %s"
                        + " (%.2f GB/s); %s below %.0f %%", p.subject(), metric, p.value(), pct, of, ref,
                        s == Severity.FAIL ? "FAIL" : "WARN", s == Severity.FAIL ? rules.failBelowPct()
                                : rules.warnBelowPct())));
            }
        }
        return out;
    }
}
