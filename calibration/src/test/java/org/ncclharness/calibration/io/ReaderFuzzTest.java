package org.ncclharness.calibration.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.ncclharness.calibration.fuzz.FuzzOracle;
import org.ncclharness.calibration.fuzz.FuzzTable;
import org.ncclharness.calibration.fuzz.Mutation;

/**
 * The fuzz of {@code bench fuzz}, bounded for {@code mvn verify}: every mutation kind on fresh random tables,
 * each case parsed exactly or refused naming its damaged line, never a defect.
 */
class ReaderFuzzTest {

    @Property(tries = 150)
    void everyKindIsReadExactlyOrRefusedAtItsLine(@ForAll long seed) {
        Random r = new Random(seed);
        for (Mutation kind : Mutation.values()) {
            Mutation.Case c = null;
            FuzzTable t = null;
            while (c == null) {
                t = FuzzTable.random(r);
                c = kind.apply(t, r);
            }
            FuzzOracle.Outcome o = FuzzOracle.judge(c, t.rows());
            assertThat(o.verdict()).as(kind + ": " + o.detail() + "\n" + c.text()).isNotEqualTo(FuzzOracle.Verdict.DEFECT);
        }
    }
}
