package org.ncclharness.devtools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.ncclharness.calibration.read.NcclTestsLogReader;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Random tables rendered in every layout the reader knows (each generation's columns, with or without a
 * header, behind any chain of launcher prefixes) read back to exactly the values rendered. The tables are the
 * fuzz's own ({@link FuzzTable}): one generator for both.
 */
class LayoutRoundTripTest {

    @Property(tries = 400)
    void everyLayoutReadsBackExactly(@ForAll long seed) {
        FuzzTable t = FuzzTable.random(new Random(seed));
        List<Sweep> back = new NcclTestsLogReader("t.txt", null).read(t.lines());
        assertThat(back).as(String.join("\n", t.lines())).hasSize(1);
        List<Measurement> got = back.get(0).rows();
        assertThat(got).as(String.join("\n", t.lines())).isEqualTo(t.rows());
    }
}
