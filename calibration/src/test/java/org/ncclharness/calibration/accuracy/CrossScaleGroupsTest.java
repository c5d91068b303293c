package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Measurement;

/** accuracy/cross-scale.json: its groups, and the gjaion group's settings note against the runs it describes. */
class CrossScaleGroupsTest {

    private static final String GJAION = "H100 IB NDR (one user, NCCL tests 3.09)";
    private static final double GIB = 1 << 30;

    @Test
    void everyGroupNamesBundledRunsSmallestFirstAndOnlyTheGjaionGroupDiffersInSettings() {
        DatasetCatalog catalog = DatasetCatalog.bundled();
        List<CrossScaleGroups.Group> groups = CrossScaleGroups.bundled();
        assertThat(groups).isNotEmpty().allSatisfy(g -> {
            assertThat(g.datasets()).as(g.name()).hasSizeGreaterThanOrEqualTo(2);
            List<Integer> ranks = g.datasets().stream().map(id -> catalog.find(id).orElseThrow().sweep().hardware()
                    .ranks()).toList();
            assertThat(ranks).as(g.name()).isSorted();
        });
        assertThat(groups.stream().filter(g -> g.settingsNote().isPresent()).map(CrossScaleGroups.Group::name))
                .singleElement().asString().startsWith(GJAION);
    }

    /** What the note says of the 64-GPU run against the 32-GPU one holds in the bundled out-of-place times. */
    @Test
    void theGjaionNoteHoldsInItsRuns() {
        CrossScaleGroups.Group g = CrossScaleGroups.bundled().stream().filter(x -> x.name().startsWith(GJAION))
                .findFirst().orElseThrow();
        assertThat(g.settingsDiffer()).contains("NCCL_MIN_CTAS=24", "from 1 GiB up", "2 and 4 MiB");
        DatasetCatalog catalog = DatasetCatalog.bundled();
        Map<Long, Measurement> larger = bySize(catalog.find(g.datasets().get(2)).orElseThrow());
        Map<Long, Measurement> smaller = bySize(catalog.find(g.datasets().get(1)).orElseThrow());
        assertThat(larger.keySet().stream().filter(b -> b >= GIB)).isNotEmpty().allSatisfy(b ->
                assertThat(larger.get(b).outOfPlace().busBwGBps()).as("%d B", b)
                        .isGreaterThan(smaller.get(b).outOfPlace().busBwGBps()));
        for (long b : List.of(2L << 20, 4L << 20)) {
            assertThat(larger.get(b).outOfPlace().timeUs()).as("%d B", b)
                    .isLessThan(smaller.get(b).outOfPlace().timeUs());
        }
    }

    @Test
    void aBlankSettingsNoteIsRefusedNamingTheGroup() {
        assertThatThrownBy(() -> new CrossScaleGroups.Group("g", List.of("a", "b"), " "))
                .hasMessageContaining("group 'g' has a blank settingsDiffer");
    }

    private static Map<Long, Measurement> bySize(Dataset d) {
        return d.rows().stream().collect(Collectors.toMap(Measurement::sizeBytes, Function.identity()));
    }
}
