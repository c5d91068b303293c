package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.fit.SyntheticSweeps;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;

class CalibrationJsonTest {

    @Test
    void everyModelRebuildsFromTheReportAndPredictsExactlyWhatWasFitted() throws Exception {
        SingleTierCalibrator c = new SingleTierCalibrator(HardwareFacts.bundled(), CalibrationOptions.defaults());
        Hardware h200 = SyntheticSweeps.singleNode("NVIDIA H200", 8, "NVLink4");
        Hardware twoNode = new Hardware("NVIDIA H100", 16, 2, 8, 2, "NVLink4", "IB-NDR");
        CalibrationReport report = new CalibrationReport(List.of(
                c.calibrate(CalibrationInput.of("one", SyntheticSweeps.ring(Collective.ALL_REDUCE, h200, 30, 400,
                        1024, 1L << 30))),
                c.calibrate(CalibrationInput.of("two", SyntheticSweeps.ring(Collective.ALL_REDUCE, twoNode, 50, 90,
                        1024, 1L << 30)))));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CalibrationJson.write(report, out);
        String json = out.toString(StandardCharsets.UTF_8);
        assertThat(json).contains("\"schema\" : \"nccl-harness/calibration/2\"");

        CalibrationFile back = CalibrationFile.parse("report.json", json);
        assertThat(back.datasets()).extracting(CalibrationFile.Entry::id).containsExactly("one", "two");
        SingleTierCalibration original = (SingleTierCalibration) report.entries().get(0);
        CalibrationFile.Entry one = back.dataset("one");
        assertThat(one.best()).isEqualTo(original.best());
        assertThat(one.models()).hasSize(original.fits().size());
        for (Fit f : original.fits()) {
            CalibrationFile.CalibratedModel m = one.model(f.name()).orElseThrow();
            assertThat(m.model()).isEqualTo(f.model());
            assertThat(m.theta()).containsExactly(f.theta());
            for (Residual r : f.residuals()) {
                assertThat(m.timeUs(r.bytes())).isEqualTo(r.predictedUs());
            }
            assertThat(m.leaveOneOutRmspePct()).isEqualTo(f.leaveOneOut().overallPct().getAsDouble());
        }
        CalibrationFile.Entry two = back.dataset("two");
        assertThat(two.kind()).isEqualTo("deferred");
        assertThat(two.models()).isEmpty();
        assertThat(two.reason()).contains("two-tier");
    }

    /** The JSON's summary is the text summary's row as numbers: a script reads what a person reads. */
    @Test
    void theSummaryRowIsInTheJsonAsNumbers() throws Exception {
        SingleTierCalibrator c = new SingleTierCalibrator(HardwareFacts.bundled(), CalibrationOptions.defaults());
        Hardware h200 = SyntheticSweeps.singleNode("NVIDIA H200", 8, "NVLink4");
        CalibrationReport report = new CalibrationReport(List.of(c.calibrate(CalibrationInput.of("one",
                SyntheticSweeps.ring(Collective.ALL_REDUCE, h200, 30, 400, 1024, 1L << 30)))));
        java.io.StringWriter text = new java.io.StringWriter();
        CalibrationSummary.write(new java.io.PrintWriter(text), report);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CalibrationJson.write(report, out);
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toByteArray()).get("datasets")
                .get(0).get("summary");
        String row = text.toString().lines().filter(l -> l.startsWith("one ")).findFirst().orElseThrow();
        assertThat(row.split("\\s+")).containsSequence(summary.get("ranks").asText(), summary.get("model").asText(),
                String.format(java.util.Locale.ROOT, "%.1f", summary.get("score_pct").asDouble()),
                String.format(java.util.Locale.ROOT, "%.1f", summary.get("alpha_us").asDouble()),
                String.format(java.util.Locale.ROOT, "%.1f", summary.get("bus_bw_gbps").asDouble()));
    }

    @Test
    void anEmptyBandIsNullWithZeroPointsNeverZeroPercent() throws Exception {
        SingleTierCalibrator c = new SingleTierCalibrator(HardwareFacts.bundled(), CalibrationOptions.defaults());
        Hardware h200 = SyntheticSweeps.singleNode("NVIDIA H200", 8, "NVLink4");
        CalibrationReport report = new CalibrationReport(List.of(c.calibrate(CalibrationInput.of("big",
                SyntheticSweeps.ring(Collective.ALL_REDUCE, h200, 30, 400, 1L << 20, 1L << 30)))));
        String json = CalibrationJson.toJson(report).toString();
        assertThat(json).contains("\"< 1 MiB\":{\"pct\":null,\"points\":0}");
    }

    @Test
    void aFileThatIsNotACalibrationReportIsNamedWithItsLine() {
        assertThatThrownBy(() -> CalibrationFile.parse("x.json", "{\"schema\": \"other\"}"))
                .isInstanceOf(InputException.class).hasMessageStartingWith("x.json:1: not a calibration report");
        assertThatThrownBy(() -> CalibrationFile.parse("x.json", "{\n\"schema\": "))
                .isInstanceOf(InputException.class).hasMessageStartingWith("x.json:2: not valid JSON");
        // an nccl-tests log given as --calibration: what to run instead, not the JSON parser's complaint
        assertThatThrownBy(() -> CalibrationFile.parse("run.txt", "# nThread 1 nGpus 1\n#  Rank  0 Group  0"))
                .isInstanceOf(InputException.class).hasMessage("run.txt:1: not a calibration report but measurements"
                        + " (a log or CSV): calibrate them first, harness.jar calibrate run.txt a JSON report cal.json,"
                        + " then pass a calibration report cal.json");
    }

    /**
     * Version 1 (the values' Java names) is still read: a report calibrate wrote before the rename, committed, reads
     * as the same models as its version-2 form, and every field name a writer emits comes back to the name it was
     * written from.
     */
    @Test
    void aVersionOneReportReadsAsItsVersionTwoForm() throws Exception {
        String v1 = new String(getClass().getResourceAsStream("/json/calibration-v1.json").readAllBytes(),
                StandardCharsets.UTF_8);
        var tree = CalibrationJson.MAPPER.readTree(v1);
        assertThat(tree.get("schema").asText()).isEqualTo(CalibrationReport.SCHEMA_V1);
        var v2 = (com.fasterxml.jackson.databind.node.ObjectNode) org.ncclharness.calibration.format.JsonNames
                .toSnake(tree);
        v2.put("schema", CalibrationReport.SCHEMA);
        assertThat(v2.toString()).contains("\"ll_link_latency_us\"").doesNotContain("\"llLinkLatencyUs\"")
                .contains("\"bus_bw_gbps\"").contains("\"free_parameters\":[\"link_latency_us\",\"u_r\"]");
        assertThat(org.ncclharness.calibration.format.JsonNames.toCamel(v2).toString())
                .isEqualTo(tree.toString().replace(CalibrationReport.SCHEMA_V1, CalibrationReport.SCHEMA));
        CalibrationFile old = CalibrationFile.parse("old.json", v1);
        CalibrationFile now = CalibrationFile.parse("new.json", v2.toString());
        assertThat(old.datasets()).extracting(CalibrationFile.Entry::id).containsExactly(
                "h100_allreduce_8gpu_azure_ndv5", "a100_allreduce_16gpu_2node_aws_p4d_efa_eks",
                "a100_allreduce_10GiB_points_oci");
        for (CalibrationFile.Entry e : old.datasets()) {
            CalibrationFile.Entry n = now.dataset(e.id());
            assertThat(n.best()).isEqualTo(e.best());
            assertThat(n.models()).hasSameSizeAs(e.models());
            for (CalibrationFile.CalibratedModel m : e.models()) {
                CalibrationFile.CalibratedModel back = n.model(m.name()).orElseThrow();
                assertThat(back.model()).isEqualTo(m.model());
                assertThat(back.theta()).containsExactly(m.theta());
            }
        }
        assertThat(old.dataset("a100_allreduce_16gpu_2node_aws_p4d_efa_eks").models()).isNotEmpty();
    }
}
