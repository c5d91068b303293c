package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;

/** rccl-tests' 16-column rows: {@code algo proto nchannels} after the in-place half, read and kept in a note. */
class TuningColumnsTest {

    private static final String FIXTURE = "coll_mi350x_rccl_allreduce_16rank_algo_proto_nchannels_sample";

    @Test
    void theRealSamplesRowsReadWithTheirTuningColumnsInANote() throws IOException {
        List<Sweep> sweeps = RealLogFixturesTest.read(Path.of("src/test/resources/logs/real"), FIXTURE);
        assertThat(sweeps).hasSize(1);
        Measurement first = sweeps.get(0).rows().get(0);
        assertThat(first.inPlace().timeUs()).isEqualTo(76.43);
        assertThat(first.inPlace().wrong()).isZero();
        assertThat(sweeps.get(0).run().library()).isEqualTo("rccl-tests");
        assertThat(Note.texts(sweeps.get(0).notes())).contains("rccl-tests' algo/proto/nchannels columns (what RCCL"
                + " ran each size with): Direct/SIMPLE, 32 channels at 1 MiB; RING/SIMPLE, 32 channels at 2 MiB to"
                + " 256 MiB");
    }

    @Test
    void anExcerptWithoutItsHeaderIsReadByTheRowsShape() {
        List<Sweep> sweeps = new NcclTestsLogReader("x.txt", null).read(List.of(
                "  1048576  262144  float  sum  -1  76.26  13.75  25.78  0  76.43  13.72  25.72  0  Direct  SIMPLE  32",
                "  2097152  524288  float  sum  -1  87.02  24.10  45.18  0  86.52  24.24  45.45  0  RING  SIMPLE  32"));
        assertThat(sweeps.get(0).rows()).hasSize(2);
        assertThat(sweeps.get(0).rows().get(1).outOfPlace().busBwGBps()).isEqualTo(45.18);
    }

    @Test
    void alltoallsNotApplicableColumnsRead() {
        List<Sweep> sweeps = new NcclTestsLogReader("x.txt", null).read(List.of(
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                        + "   busbw #wrong     algo     proto   nchannels",
                "     1048576         32768     float    none      -1    50.00   20.97   18.35      0    51.00   20.56"
                        + "   17.99    N/A      N/A       N/A         N/A"));
        assertThat(sweeps.get(0).rows()).hasSize(1);
        assertThat(Note.texts(sweeps.get(0).notes())).anyMatch(n -> n.contains("none (point to point) at 1 MiB"));
    }

    @Test
    void aDamagedTuningColumnNamesItsLine() {
        assertThatThrownBy(() -> new NcclTestsLogReader("x.txt", null).read(List.of(
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                        + "   busbw #wrong     algo     proto   nchannels",
                "     1048576        262144     float     sum      -1    76.26   13.75   25.78      0    76.43   13.72"
                        + "   25.72      0  Direct    SIMPLE          3.5")))
                .isInstanceOf(InputException.class).hasMessageContaining("x.txt:2")
                .hasMessageContaining("is not an algorithm, a protocol and a channel count");
    }
}
