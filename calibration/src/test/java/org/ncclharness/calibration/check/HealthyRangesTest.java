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

    @Test
    void aClassOfFewerThanThreeRunsGivesWayToItsFamilyAndAnUnknownFamilyToNothing() {
        HealthyRanges r = HealthyRanges.bundled();
        HealthyRanges.Range small = r.ranges().stream().filter(x -> x.level() == HealthyRanges.Level.CLASS
                && x.busBwRuns() > 0 && x.busBwRuns() < HealthyRanges.MIN_RUNS
                && !x.key().startsWith(HardwareClass.UNKNOWN)).findFirst().orElseThrow();
        String family = small.key().substring(0, small.key().indexOf(' '));
        String[] parts = small.key().split(" / ");
        HardwareClass c = classOf(r, small.key());
        assertThat(r.busBw(c)).hasValueSatisfying(f -> {
            assertThat(f.range().level()).isEqualTo(HealthyRanges.Level.FAMILY);
            assertThat(f.range().key()).isEqualTo(family);
            assertThat(f.margin()).isEqualTo(r.busBwFamily());
        });
        assertThat(parts).hasSize(4);
        HardwareClass unknown = new HardwareClass(HardwareClass.UNKNOWN, "NVLink4", HardwareClass.NONE,
                HardwareClass.NONE, HardwareClass.Band.ONE_HOST);
        assertThat(r.busBw(unknown)).as("no class range of 3 and no family").isEmpty();
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
                .filter(b -> b.label().equals(p[3])).findFirst().orElseThrow();
        String network = HardwareClass.NONE;
        String nics = HardwareClass.NONE;
        if (!p[2].equals("no network")) {
            network = p[2].substring(0, p[2].lastIndexOf(" x"));
            nics = p[2].substring(p[2].lastIndexOf(" x") + 2);
        }
        HardwareClass c = new HardwareClass(p[0], p[1], network, nics, band);
        assertThat(c.key()).isEqualTo(key);
        return c;
    }
}
