package org.ncclharness.devtools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The fuzz of {@code devtools.jar fuzz}, bounded for {@code mvn verify}: every mutation kind on fresh random tables,
 * each case parsed exactly or refused naming its damaged line, never a defect.
 */
class ReaderFuzzTest {

    @Property(tries = 150)
    void everyKindIsReadExactlyOrRefusedAtItsLine(@ForAll long seed) {
        Random r = new Random(seed);
        for (Mutation kind : Mutation.values()) {
            FuzzOracle.Outcome o = FuzzRun.judge(kind, r);
            assertThat(o.verdict()).as(kind + ": " + o.detail()).isNotEqualTo(FuzzOracle.Verdict.DEFECT);
        }
    }
}
