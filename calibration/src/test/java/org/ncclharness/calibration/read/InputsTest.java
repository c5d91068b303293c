package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.InputException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.Sweep;

/** What {@link Inputs} refuses in one line before any parsing, and what it reads however it is wrapped. */
class InputsTest {

    private static final String HEADER = "#       size         count      type   redop    root     time   algbw   "
            + "busbw #wrong     time   algbw   busbw #wrong";
    private static final String ROW = "     1048576        262144     float     sum      -1    20.00   52.43   "
            + "91.75      0    20.00   52.43   91.75      0";

    @TempDir
    Path dir;

    @Test
    void binaryInputIsRefusedAndGzipIsReadAsItIs() throws IOException {
        Path nul = dir.resolve("zero.bin");
        Files.write(nul, new byte[4096]);
        assertThatThrownBy(() -> Inputs.read(nul.toString())).hasMessageContaining("binary file");
        Path gz = dir.resolve("run.txt.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write((HEADER + "\n" + ROW + "\n").getBytes(StandardCharsets.UTF_8));
        }
        // a gzip'd log is read as it is (logs are often kept compressed); zstd is named
        assertThat(Inputs.read(gz.toString()).get(0).rows()).hasSize(1);
        Path zst = dir.resolve("run.txt.zst");
        Files.write(zst, new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0});
        assertThatThrownBy(() -> Inputs.read(zst.toString())).hasMessageContaining("zstd-compressed");
        Path cut = dir.resolve("cut.txt.gz");
        byte[] whole = Files.readAllBytes(gz);
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
        assertThatThrownBy(() -> Inputs.read(cut.toString())).isInstanceOf(InputException.class)
                .hasMessageContaining("damaged gzip");
        assertThatThrownBy(() -> Inputs.read(dir.toString())).hasMessageContaining("is a directory")
                .hasMessageContaining("pass them: " + dir + "/*");
    }

    @Test
    void aByteOrderMarkAndCrlfLineEndsReadInEveryFormat() throws IOException {
        Path log = Files.writeString(dir.resolve("bom.txt"), "\uFEFF" + HEADER + "\r\n" + ROW + "\r\n");
        List<Sweep> s = Inputs.read(log.toString());
        assertThat(s.get(0).rows()).hasSize(1);
        Path csv = Files.writeString(dir.resolve("bom.csv"), "\uFEFF" + MeasurementCsv.toString(s).replace("\n", "\r\n"));
        assertThat(Inputs.read(csv.toString()).get(0).rows()).isEqualTo(s.get(0).rows());
        Path json = Files.writeString(dir.resolve("bom.json"), "\uFEFF" + SweepJson.writeAll(s));
        assertThat(Inputs.read(json.toString()).get(0).rows()).isEqualTo(s.get(0).rows());
    }

    @Test
    void aLogIsReadLineByLineWhateverItsNoise() throws IOException {
        // 400,000 NCCL INFO lines (about 40 MB) around one table: streamed, only the row is kept
        Path log = dir.resolve("noisy.txt");
        try (BufferedWriter w = Files.newBufferedWriter(log)) {
            for (int i = 0; i < 200_000; i++) {
                w.write("node1:1234:5678 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n");
            }
            w.write(HEADER + "\n" + ROW + "\n");
            for (int i = 0; i < 200_000; i++) {
                w.write("node1:1234:5678 [0] NCCL INFO comm 0x55 rank 0 nranks 8 - Destroy COMPLETE\n");
            }
        }
        assertThat(Inputs.read(log.toString()).get(0).rows()).hasSize(1);
    }

    @Test
    void jsonFieldsOfTheWrongKindAreOneLine() {
        String json = SweepJson.writeAll(Inputs.parse("x", HEADER + "\n" + ROW + "\n"));
        for (String root : List.of("\"1.5\"", "\"x\"", "\"\"", "1e20")) {
            String bad = json.replaceFirst("\"root\" : \"[^\"]*\"", "\"root\" : " + root);
            assertThatThrownBy(() -> Inputs.parse("bad.json", bad)).as(root).isInstanceOf(InputException.class)
                    .hasMessageContaining(".root");
        }
        String noKind = json.replaceFirst("\"kind\" : \"[A-Z]+\",", "");
        assertThatThrownBy(() -> Inputs.parse("nokind.json", noKind)).isInstanceOf(InputException.class)
                .hasMessageContaining("provenance");
    }

    @Test
    void aCsvErrorNamesThePhysicalLineAndAQuotedLineBreakIsRefusedInOneLine() {
        String h = MeasurementCsv.HEADER + "\n";
        String good = "all_reduce,8,2,float,sum,-1,1,1,1,0,,1,1,1,0,,stored,c\n";
        String quoted = "all_reduce,16,4,\"flo\nat\",sum,-1,1,1,1,0,,1,1,1,0,,stored,c\n";
        String bad = "all_reduce,32,8,float,sum,-1,x,1,1,0,,1,1,1,0,,stored,c\n";
        assertThatThrownBy(() -> Inputs.parse("c.csv", h + good + good + bad)).hasMessageStartingWith("c.csv:4: ");
        assertThatThrownBy(() -> Inputs.parse("c.csv", h + good + quoted + good + bad))
                .hasMessageStartingWith("c.csv:3: type 'flo\\x0aat' is not a name");
    }
}
