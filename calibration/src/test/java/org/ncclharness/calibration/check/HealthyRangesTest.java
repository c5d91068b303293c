package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * The bundled healthy ranges are what the learner gives on the bundled runs, byte for byte, and the rule reads
 * them as learned: a class of fewer than three runs gives way to its family.
 */
class HealthyRangesTest {

    private static final Path FILE = Path.of("src/main/resources/hardware/healthy-ranges.json");

    @Test
    void theBundledFileIsWhatTheLearnerWritesFromTheBundledRuns() throws IOException {
        String learned = new HealthyRangesLearner(HardwareFacts.bundled()).learn(DatasetCatalog.bundled().all())
                .json();
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8)).as("%s is stale: java -jar"
                + " harness/target/harness.jar datasets --healthy-ranges %s --force", FILE, FILE).isEqualTo(learned);
        assertThat(HealthyRanges.bundled().json()).isEqualTo(learned);
    }

    /** The margins, the runs that set them, and per range whether half bandwidth / 3x latency can be told. */
    @Test
    void theRangesInTheDocsAreTheBundledOnes() throws IOException {
        HealthyRanges r = HealthyRanges.bundled();
        StringBuilder b = new StringBuilder();
        b.append(String.format(java.util.Locale.ROOT, "Margins: busbw %.0f %% below a class's floor (%.0f %% below a"
                + " family's), latency %.0f %% above a class's ceiling (%.0f %% above a family's).\n\n",
                100 * r.busBwClass().share(), 100 * r.busBwFamily().share(), 100 * r.latencyClass().share(),
                100 * r.latencyFamily().share()));
        b.append("The closest bundled healthy runs, each judged by the others of its class or family:\n\n");
        for (String[] m : new String[][] {{"busbw, class", r.busBwClass().closest()},
            {"busbw, family", r.busBwFamily().closest()}, {"latency, class", r.latencyClass().closest()},
            {"latency, family", r.latencyFamily().closest()}}) {
            b.append("- ").append(m[0]).append(": ").append(m[1] == null ? "no run judged at this level" : m[1])
                    .append('\n');
        }
        b.append("\nRanges of at least ").append(HealthyRanges.MIN_RUNS).append(" runs (busbw as a share of the line"
                + " rate at the bandwidth-bound end; latency: the shortest time below 64 KiB):\n\n");
        b.append("| level | class | busbw runs | busbw range | half busbw told | latency runs | latency range |"
                + " 3x latency told |\n|---|---|---:|---|---|---:|---|---|\n");
        for (HealthyRanges.Range x : r.ranges()) {
            boolean bw = x.busBwRuns() >= HealthyRanges.MIN_RUNS;
            boolean lat = x.latencyRuns() >= HealthyRanges.MIN_RUNS;
            if (!bw && !lat) {
                continue;
            }
            b.append(String.format(java.util.Locale.ROOT, "| %s | %s | %d | %s | %s | %d | %s | %s |\n",
                    x.level().name().toLowerCase(java.util.Locale.ROOT), x.key(), x.busBwRuns(),
                    bw ? String.format(java.util.Locale.ROOT, "%.1f–%.1f %%", 100 * x.busBwMinShare(),
                            100 * x.busBwMaxShare()) : "", bw ? yes(x.halfBandwidthTold()) : "", x.latencyRuns(),
                    lat ? HealthCheck.num(x.latencyMinUs()) + "–" + HealthCheck.num(x.latencyMaxUs()) + " us" : "",
                    lat ? yes(x.tripleLatencyTold()) : ""));
        }
        Docs.replaceBlock("healthy-ranges", "HealthyRangesTest", b.toString());
    }

    private static String yes(Boolean b) {
        return Boolean.TRUE.equals(b) ? "yes" : "no";
    }

    @Test
    void aClassOfFewerThanThreeRunsGivesWayToItsFamilyAndAnUnknownFamilyToNothing() {
        HealthyRanges r = HealthyRanges.bundled();
        HealthyRanges.Range small = r.ranges().stream().filter(x -> x.level() == HealthyRanges.Level.CLASS
                && x.busBwRuns() > 0 && x.busBwRuns() < HealthyRanges.MIN_RUNS
                && !x.key().split(" / ")[1].equals(HardwareClass.UNKNOWN)
                // a family (one collective on one GPU family) with enough runs to give way to
                && r.ranges().stream().anyMatch(f -> f.level() == HealthyRanges.Level.FAMILY
                        && f.busBwRuns() >= HealthyRanges.MIN_RUNS && x.key().startsWith(f.key() + " / ")))
                .findFirst().orElseThrow();
        String[] parts = small.key().split(" / ");
        String family = parts[0] + " / " + parts[1];
        HardwareClass c = classOf(r, small.key());
        assertThat(r.busBw(c)).hasValueSatisfying(f -> {
            assertThat(f.range().level()).isEqualTo(HealthyRanges.Level.FAMILY);
            assertThat(f.range().key()).isEqualTo(family);
            assertThat(f.margin()).isEqualTo(r.busBwFamily());
        });
        assertThat(parts).hasSize(5);
        HardwareClass unknown = new HardwareClass("AllReduce", HardwareClass.UNKNOWN, "NVLink4", HardwareClass.NONE,
                HardwareClass.NONE, HardwareClass.Band.ONE_HOST);
        assertThat(r.busBw(unknown)).as("no class range of 3 and no family").isEmpty();
        HardwareClass otherCollective = new HardwareClass("NoSuchCollective", c.family(), c.intra(), c.network(),
                c.nicsPerHost(), c.band());
        assertThat(r.busBw(otherCollective)).as("another collective's ranges never judge this one").isEmpty();
    }

    @Test
    void aClassOfThreeOrMoreRunsJudgesByItsOwnRangeAndMargin() {
        HealthyRanges r = HealthyRanges.bundled();
        List<HealthyRanges.Range> big = r.ranges().stream().filter(x -> x.level() == HealthyRanges.Level.CLASS
                && x.busBwRuns() >= HealthyRanges.MIN_RUNS).toList();
        assertThat(big).isNotEmpty();
        for (HealthyRanges.Range x : big) {
            assertThat(r.busBw(classOf(r, x.key()))).hasValueSatisfying(f -> {
                assertThat(f.range()).isEqualTo(x);
                assertThat(f.margin()).isEqualTo(r.busBwClass());
            });
            assertThat(x.halfBandwidthTold()).isEqualTo(x.busBwMaxShare() / 2 < x.busBwMinShare()
                    * (1 - r.busBwClass().share()));
        }
    }

    /** The class a key names, parsed back (the key is what the file keeps). */
    private static HardwareClass classOf(HealthyRanges r, String key) {
        String[] p = key.split(" / ");
        HardwareClass.Band band = java.util.Arrays.stream(HardwareClass.Band.values())
                .filter(b -> b.label().equals(p[4])).findFirst().orElseThrow();
        String network = HardwareClass.NONE;
        String nics = HardwareClass.NONE;
        if (!p[3].equals("no network")) {
            network = p[3].substring(0, p[3].lastIndexOf(" x"));
            nics = p[3].substring(p[3].lastIndexOf(" x") + 2);
        }
        HardwareClass c = new HardwareClass(p[0], p[1], p[2], network, nics, band);
        assertThat(c.key()).isEqualTo(key);
        return c;
    }
}
