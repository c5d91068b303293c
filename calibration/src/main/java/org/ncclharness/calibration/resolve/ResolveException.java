package org.ncclharness.calibration.resolve;

import org.ncclharness.calibration.measure.InputException;

/**
 * A run whose facts contradict each other or the user's hints: bad input, named by its {@link Contradiction} so
 * that the command line can say which of its flags to fix. The message says it in words for any other caller.
 */
public final class ResolveException extends InputException {
    private static final long serialVersionUID = 1L;

    private final transient Contradiction contradiction;

    public ResolveException(String file, Contradiction contradiction) {
        super(file, 0, words(contradiction));
        this.contradiction = contradiction;
    }

    public Contradiction contradiction() {
        return contradiction;
    }

    private static String words(Contradiction c) {
        if (c instanceof Contradiction.CountsDiffer d) {
            return "the input states " + d.fact() + " " + d.stated() + ", the hint " + d.hinted();
        }
        if (c instanceof Contradiction.RatesDiffer r) {
            return String.format(java.util.Locale.ROOT, "the input states %s %.4g GB/s, the hint %.4g GB/s", r.fact(),
                    r.statedGBps(), r.hintedGBps());
        }
        if (c instanceof Contradiction.CountBelowOne b) {
            return b.fact() + " must be at least 1, got " + b.value();
        }
        if (c instanceof Contradiction.UnevenHosts u) {
            return u.ranks() + " GPUs do not split evenly over " + u.hosts() + " nodes";
        }
        Contradiction.UnevenDomains d = (Contradiction.UnevenDomains) c;
        return d.ranks() + " GPUs do not split into domains of " + d.domainSize();
    }
}
