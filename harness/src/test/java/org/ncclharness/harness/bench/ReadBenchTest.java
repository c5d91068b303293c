package org.ncclharness.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.CliRun;

class ReadBenchTest {

    @Test
    void everyFormatsStoredRowsHoldABoundedHeapPerRow() {
        CliRun r = CliRun.of("bench", "read", "--rows", "20000");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).startsWith("bench read: 20,000 rows from bundled dataset ");
        assertThat(lines.subList(1, 4)).extracting(l -> l.strip().split(" ")[0]).containsExactly("log", "csv", "json");
        for (String l : lines.subList(1, 4)) {
            assertThat(l).contains(" 20,000 rows in ").contains("MiB per 100,000 rows");
            // a row is a Measurement, two Halves and their boxed numbers (README states the figure): far below
            // the 400 bytes it took before the names and the zero #wrong were shared
            long perRow = Long.parseLong(l.replaceAll(".*\\((\\d+) bytes a row\\)$", "$1"));
            assertThat(perRow).as(l).isBetween(100L, 330L);
        }
    }
}
