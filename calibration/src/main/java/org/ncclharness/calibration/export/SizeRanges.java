package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Splits the sizes from {@code from} to {@code to} (bytes, inclusive) into the ranges over which a choice stays the
 * same: sampled {@value #PER_OCTAVE} times per octave up to {@value #SCAN_TOP_POWER} powers of two (a choice that
 * held less than that nowhere matters), each change then bisected to the exact byte.
 */
final class SizeRanges {

    /** Samples per doubling of the size. */
    static final int PER_OCTAVE = 16;
    /** Beyond 2^50 B (1 PiB) the last choice is kept: no collective moves more. */
    static final int SCAN_TOP_POWER = 50;

    /** One range and its choice; {@code maxBytes} may be {@link TunerRow#ANY_SIZE} (unsigned: every size above). */
    record Range<T>(long minBytes, long maxBytes, T choice) {
    }

    private SizeRanges() {
    }

    /** @param probes sizes scanned besides the samples (a choice that may hold at one size alone: a measured one) */
    static <T> List<Range<T>> of(LongFunction<T> choice, long from, long to, List<Long> probes) {
        List<Range<T>> out = new ArrayList<>();
        long start = from;
        T current = choice.apply(from);
        long previous = from;
        for (long s : samples(from, to, probes)) {
            // more than one change between two samples: each found in turn, from the last one found
            while (!choice.apply(s).equals(current)) {
                long first = firstChange(choice, current, previous, s);
                out.add(new Range<>(start, first - 1, current));
                start = first;
                current = choice.apply(first);
                previous = first;
            }
            previous = s;
        }
        out.add(new Range<>(start, to, current));
        return out;
    }

    /** The sizes scanned after {@code from}, ascending, below {@code to} (unsigned). */
    private static List<Long> samples(long from, long to, List<Long> probes) {
        java.util.TreeSet<Long> out = new java.util.TreeSet<>();
        for (int i = 0; i <= SCAN_TOP_POWER * PER_OCTAVE; i++) {
            out.add((long) Math.floor(Math.pow(2, (double) i / PER_OCTAVE)));
        }
        out.addAll(probes);
        return out.stream().filter(s -> s > from && Long.compareUnsigned(s, to) <= 0).toList();
    }

    /** The first size in (lo, hi] whose choice is not {@code at}; lo has {@code at}, hi has not. */
    private static <T> long firstChange(LongFunction<T> choice, T at, long lo, long hi) {
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (choice.apply(mid).equals(at)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }
}
