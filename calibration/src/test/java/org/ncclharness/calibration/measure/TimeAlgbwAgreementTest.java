package org.ncclharness.calibration.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.read.NcclTestsLogReader;

/** Time and algbw from one timing: every bundled run agrees, a real log with its times changed does not. */
class TimeAlgbwAgreementTest {

    /** A result row of the p5 EFA log: prefix, size, count ... root, then the out-of-place time. */
    private static final Pattern ROW = Pattern.compile("^(.*<stdout>:\\s+)(\\d+)(\\s+\\d+\\s+float\\s+sum\\s+-1\\s+)"
            + "([\\d.]+)(.*)$");

    @Test
    void everyBundledRunAgreesOldAllGatherTablesWithTheirNMinusOneRatioToo() {
        for (var d : DatasetCatalog.bundled().all()) {
            assertThat(TimeAlgbwAgreement.find(d.sweep().rows())).as(d.metadata().id()).isEmpty();
        }
        // nccl-tests of 2019 printed algbw as (N-1)/N of size/time for all_gather: 2 ranks, half
        Sweep old = DatasetCatalog.bundled().get("gtx1080_allgather_2gpu_1node_macos_ncclosx").sweep();
        Measurement m = old.rows().get(old.rows().size() - 1);
        assertThat(m.sizeBytes() / 1e3 / m.outOfPlace().timeUs() / m.outOfPlace().algBwGBps()).isBetween(1.98, 2.02);
    }

    @Test
    void aRealLogWithItsOutOfPlaceTimesDoubledByHandIsFoundAtItsFirstComparableRow() throws Exception {
        List<String> log = p5Log();
        List<String> doubled = new ArrayList<>();
        int firstLine = -1;
        for (int i = 0; i < log.size(); i++) {
            Matcher r = ROW.matcher(log.get(i));
            if (r.matches()) {
                doubled.add(r.group(1) + r.group(2) + r.group(3) + 2 * Double.parseDouble(r.group(4)) + r.group(5));
                firstLine = firstLine < 0 && Long.parseLong(r.group(2)) == 131072 ? i + 1 : firstLine;
            } else {
                doubled.add(log.get(i));
            }
        }
        assertThat(TimeAlgbwAgreement.find(read(log).rows())).isEmpty();
        Sweep s = read(doubled);
        TimeAlgbwAgreement.Disagreement d = TimeAlgbwAgreement.find(s.rows()).orElseThrow();
        assertThat(d.row().sizeBytes()).isEqualTo(131072); // the first size whose algbw reaches 0.5 GB/s
        assertThat(d.placement()).isEqualTo(Placement.OUT_OF_PLACE);
        assertThat(d.printedGBps() / d.fromTimeGBps()).isBetween(1.98, 2.02);
        assertThat(d.disagreeing()).isEqualTo(d.compared() / 2); // every out-of-place half, no in-place one
        int line = firstLine;
        assertThat(Note.texts(s.notes())).anySatisfy(n -> assertThat(n).startsWith("line " + line + ": time and algbw"
                + " disagree in " + d.disagreeing() + " of " + d.compared() + " placements (first: 131072 B"
                + " out-of-place"));
    }

    @Test
    void oneEditedRowAmongAgreeingOnesIsFound() throws Exception {
        List<String> log = new ArrayList<>(p5Log());
        for (int i = 0; i < log.size(); i++) {
            Matcher r = ROW.matcher(log.get(i));
            if (r.matches() && r.group(2).equals("268435456")) {
                log.set(i, r.group(1) + r.group(2) + r.group(3) + Double.parseDouble(r.group(4)) * 1.1 + r.group(5));
            }
        }
        TimeAlgbwAgreement.Disagreement d = TimeAlgbwAgreement.find(read(log).rows()).orElseThrow();
        assertThat(d.row().sizeBytes()).isEqualTo(268435456L);
        assertThat(d.disagreeing()).isEqualTo(1);
    }

    private static List<String> p5Log() throws Exception {
        List<String> raw = Files.readAllLines(Path.of("../datasets/raw/h100_allreduce_16gpu_2node_aws_p5_efa_eks.txt"));
        return raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size());
    }

    private static Sweep read(List<String> lines) {
        return new NcclTestsLogReader("run.log", null).read(lines).get(0);
    }
}
