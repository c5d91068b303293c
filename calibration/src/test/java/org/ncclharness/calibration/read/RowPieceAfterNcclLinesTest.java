package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;

/**
 * A row whose size, count and type went before NCCL's INFO lines and whose times came after them: the measured part
 * alone cannot say which size it was, so it is named in a note and not read; the same line anywhere else in a table
 * is still a damaged row.
 */
class RowPieceAfterNcclLinesTest {

    private static final String HEADER = "#       size         count      type   redop    root     time   algbw   busbw"
            + " #wrong     time   algbw   busbw #wrong";
    private static final String PIECE = "    579.3    0.00    0.00      0    137.0    0.00    0.00      0";
    private static final String ROW = "           2             1  bfloat16     sum      -1   2500.6    0.00    0.00"
            + "      0   3291.0    0.00    0.00      0";

    @Test
    void theRealSamplesPieceIsNamedAndItsWholeRowsRead() throws IOException {
        List<Sweep> sweeps = RealLogFixturesTest.read(Path.of("src/test/resources/logs/real"),
                "coll_h200_allreduce_16rank_bf16_ncclinfo_inside_first_row_sample");
        assertThat(sweeps).singleElement().satisfies(s -> {
            assertThat(s.rows()).hasSize(31);
            assertThat(s.rows().get(0).sizeBytes()).isZero();
            assertThat(Note.texts(s.notes())).anyMatch(n -> n.startsWith("line 26: '" + PIECE.strip())
                    && n.contains("size, count and type are not in the text"));
        });
    }

    @Test
    void withoutNcclLinesBeforeItTheSameLineIsADamagedRow() {
        assertThatThrownBy(() -> new NcclTestsLogReader("x.txt", null).read(List.of(HEADER, PIECE, ROW)))
                .isInstanceOf(InputException.class).hasMessageContaining("x.txt:");
    }

    @Test
    void aPieceOfAnotherWidthAfterNcclLinesIsStillRefused() {
        assertThatThrownBy(() -> new NcclTestsLogReader("x.txt", null).read(List.of(HEADER,
                "host:1:2 [0] NCCL INFO Connected all trees", "    579.3    0.00    0.00      0    137.0", ROW)))
                .isInstanceOf(InputException.class);
    }
}
