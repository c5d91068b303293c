package org.ncclharness.devtools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The fuzz of {@code devtools.jar fuzz}, bounded for {@code mvn verify}: every mutation kind of a log, a CSV and a
 * JSON on fresh random tables, each case parsed exactly or refused naming its damaged line or row, never a defect;
 * and random command lines, each within the exit-code contract with no Java type on stderr.
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

    @Property(tries = 100)
    void everyCsvAndJsonKindIsReadExactlyOrRefusedNamingItsRow(@ForAll long seed) {
        Random r = new Random(seed);
        for (DocumentMutation kind : DocumentMutation.values()) {
            FuzzOracle.Outcome o = FuzzRun.judge(kind, r);
            assertThat(o.verdict()).as(kind + ": " + o.detail()).isEqualTo(kind.damage() == DocumentMutation.Damage.NONE
                    ? FuzzOracle.Verdict.PARSED_EXACTLY : FuzzOracle.Verdict.CLEAN_REFUSAL);
        }
    }

    @Test
    void aJavaTypeNameInARefusalIsADefect() {
        assertThat(DocumentOracle.JAVA_NAME.matcher("fuzz.json: Cannot deserialize value of type"
                + " `org.ncclharness.calibration.measure.SourceKind`").find()).isTrue();
        assertThat(DocumentOracle.JAVA_NAME.matcher("expected java.lang.Integer").find()).isTrue();
        assertThat(DocumentOracle.JAVA_NAME.matcher("x: NumberFormatException").find()).isTrue();
        assertThat(DocumentOracle.JAVA_NAME.matcher("fuzz.csv:3: type 'x' is not a datatype nccl-tests prints; error:"
                + " the Error column").find()).isFalse();
    }

    @Test
    void randomCommandLinesEndInTheExitCodeContractWithNoJavaNameOnStderr() throws Exception {
        CommandLineFuzz cli = CommandLineFuzz.run(7, 40);
        assertThat(cli.defects()).isEmpty();
        assertThat(cli.lines()).isEqualTo(40);
        assertThat(cli.exitCodes().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(40);
        assertThat(cli.exitCodes().keySet()).allMatch(c -> c >= 0 && c <= 3);
    }
}
