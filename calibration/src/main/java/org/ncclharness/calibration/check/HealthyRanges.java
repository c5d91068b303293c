package org.ncclharness.calibration.check;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * What a healthy run of each hardware class reaches, learned from the bundled real runs
 * ({@link HealthyRangesLearner}; {@code datasets --healthy-ranges FILE} writes it, the bundled copy is
 * {@code hardware/healthy-ranges.json}): per class the busbw at the bandwidth-bound end as a share of the line
 * rate, and the shortest time at the small sizes. A class of fewer than {@value #MIN_RUNS} runs gives way to its
 * collective's range on its GPU family ({@link HardwareClass#familyKey()}), and that to the line rate alone.
 *
 * @param schema         {@value #SCHEMA}
 * @param busBwClass      how far below a class's floor a run may fall before it FAILs: the least share that keeps
 *                        every bundled healthy run above the floor learned from the others of its class
 * @param busBwFamily     the same where the family's floor judges (its class has too few runs)
 * @param latencyClass    how far above a class's latency ceiling a run may take, as {@code busBwClass}
 * @param latencyFamily   the same for a family's ceiling
 * @param ranges          every class and family with a figure, classes first
 */
public record HealthyRanges(String schema, Margin busBwClass, Margin busBwFamily, Margin latencyClass,
                            Margin latencyFamily, List<Range> ranges) {

    /**
     * A margin and the bundled healthy run that set it.
     *
     * @param share   of the floor (below it) or the ceiling (above it)
     * @param closest the run that needed it, with its figure and the bound it was judged by; null where no run
     *                was judged at this level
     */
    public record Margin(double share, String closest) {

        public static final Margin NONE = new Margin(0, null);
    }

    public static final String SCHEMA = "nccl-harness/healthy-ranges/1";
    /** A class needs this many bundled runs with the figure: two runs are a pair, not a spread. */
    public static final int MIN_RUNS = 3;
    static final String RESOURCE = "/hardware/healthy-ranges.json";

    /** No ranges: the line-rate rule alone. */
    public static final HealthyRanges NONE = new HealthyRanges(SCHEMA, Margin.NONE, Margin.NONE, Margin.NONE,
            Margin.NONE, List.of());

    /** What a range is of: one class, or every class of one collective on one GPU family. */
    public enum Level { CLASS, FAMILY }

    /**
     * One class's (or family's) healthy figures; a figure no run gives is null.
     *
     * @param key                {@link HardwareClass#key()} or {@link HardwareClass#familyKey()}
     * @param busBwRuns          runs with a share of the line rate at their bandwidth-bound end
     * @param halfBandwidthTold  whether its best run at half its busbw falls below the floor less the margin
     * @param tripleLatencyTold  whether its fastest run at three times its small-size time exceeds the ceiling
     *                           plus the margin
     */
    public record Range(Level level, String key, int busBwRuns, Double busBwMinShare, Double busBwMaxShare,
                        int latencyRuns, Double latencyMinUs, Double latencyMaxUs, Boolean halfBandwidthTold,
                        Boolean tripleLatencyTold) {

        public Range {
            key = key == null ? "" : key;
        }
    }

    /** The range a run was judged by, and the margin of its level. */
    public record Found(Range range, Margin margin) {

        /** {@code its class AllReduce / H100 / ...} or {@code its family AllReduce / H100 (its class has ...)}. */
        String describe() {
            return range.level() == Level.CLASS ? "its class " + range.key()
                    : "its family " + range.key() + " (its class has fewer than " + MIN_RUNS + " bundled runs)";
        }
    }

    public HealthyRanges {
        busBwClass = busBwClass == null ? Margin.NONE : busBwClass;
        busBwFamily = busBwFamily == null ? Margin.NONE : busBwFamily;
        latencyClass = latencyClass == null ? Margin.NONE : latencyClass;
        latencyFamily = latencyFamily == null ? Margin.NONE : latencyFamily;
        ranges = List.copyOf(ranges);
    }

    private static final class Bundled {
        static final HealthyRanges VALUE = read();
    }

    public static HealthyRanges bundled() {
        return Bundled.VALUE;
    }

    private static HealthyRanges read() {
        try (InputStream in = HealthyRanges.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            HealthyRanges r = mapper().readValue(in, HealthyRanges.class);
            if (!SCHEMA.equals(r.schema())) {
                throw new IllegalStateException(RESOURCE + ": schema " + r.schema() + ", expected " + SCHEMA);
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("bundled healthy ranges are unreadable: " + e.getMessage(), e);
        }
    }

    /** The data file's text: stable bytes for the same catalogue (two-space indent, one trailing newline). */
    public String json() {
        try {
            DefaultPrettyPrinter p = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
            return mapper().writer(p).writeValueAsString(this) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    }

    /** The busbw range a run of this class is judged by: its class's, else its family's, else none. */
    public Optional<Found> busBw(HardwareClass c) {
        return find(c, true);
    }

    /** The latency ceiling a run of this class is judged by, as {@link #busBw}. */
    public Optional<Found> latency(HardwareClass c) {
        return find(c, false);
    }

    private Optional<Found> find(HardwareClass c, boolean busBw) {
        for (Level level : Level.values()) {
            String key = level == Level.CLASS ? c.key() : c.familyKey();
            if (key == null) {
                break;
            }
            Optional<Range> r = ranges.stream().filter(x -> x.level() == level && x.key().equals(key))
                    .filter(x -> (busBw ? x.busBwRuns() : x.latencyRuns()) >= MIN_RUNS).findFirst();
            if (r.isPresent()) {
                return Optional.of(new Found(r.get(), busBw ? level == Level.CLASS ? busBwClass : busBwFamily
                        : level == Level.CLASS ? latencyClass : latencyFamily));
            }
        }
        return Optional.empty();
    }
}
