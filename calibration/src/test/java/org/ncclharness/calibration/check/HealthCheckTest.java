package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Severity;

/** The verdict rules of issue 8 on the bundled OCI A100 2-node run and on doctored copies of it. */
class HealthCheckTest {

    static final String OCI = "a100_allreduce_16gpu_2node_oci_roce";
    static final long MIB = 1 << 20;

    private final HealthCheck check = new HealthCheck(HardwareFacts.bundled(), CheckRules.defaults());

    static Sweep oci() {
        return DatasetCatalog.bundled().get(OCI).sweep();
    }

    @Test
    void theOciRunAgainstItselfPassesItsTwoDipsAreSharedWithTheBaselineAndAloneTheyWarn() {
        CheckReport r = check.check(OCI, oci(), Reference.baseline(OCI, oci()));
        assertThat(r.verdict()).isEqualTo(Verdict.PASS);
        assertThat(r.findings()).filteredOn(f -> f.rule().equals("dip")).hasSize(2)
                .allMatch(f -> f.severity() == Severity.INFO && f.message().contains("as in the reference (baseline)"));
        assertThat(r.sizes()).allMatch(s -> s.pctOfReference() == null ? s.busBwGBps() == 0 : Math.abs(s.pctOfReference() - 100) < 1e-9);
        CheckReport alone = check.check(OCI, oci(), (Reference) null);
        assertThat(alone.reasons()).filteredOn(f -> f.rule().equals("dip")).extracting(Finding::sizeBytes)
                .containsExactly(16 * MIB, 64 * MIB);
    }

    /**
     * Agreeing with a baseline that was not measured (the bundled run's replay, or the same rows marked as a
     * prediction) shows nothing of the system: at least WARN, saying what the baseline is; the run measured as
     * the baseline, and a calibrated model (a reference that is a model by design), add no such finding.
     */
    @Test
    void aBaselineThatIsAReplayOrAPredictionMakesTheVerdictAtLeastWarn() {
        Sweep replay = DatasetCatalog.bundled().get(OCI).replay();
        CheckReport r = check.check(OCI, oci(), Reference.baseline("day1", replay));
        assertThat(r.verdict()).isEqualTo(Verdict.WARN);
        assertThat(r.reasons()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("reference-not-measured");
            assertThat(f.message()).startsWith("the reference (baseline) is a replay: another machine's stored measurements");
        });
        Sweep predicted = oci().withProvenance(new Provenance(SourceKind.PREDICTED, "p.txt", null, "predicted by x"));
        Reference fromPrediction = Reference.baseline("p.txt", predicted);
        assertThat(fromPrediction.predicted()).isTrue();
        assertThat(check.check(OCI, oci(), fromPrediction).reasons()).extracting(Finding::rule)
                .containsExactly("reference-not-measured");
        assertThat(check.check(OCI, oci(), Reference.baseline(OCI, oci())).verdict()).isEqualTo(Verdict.PASS);
        Reference model = Reference.model("a model", oci(), oci().collective(), 16, bytes -> 10 + bytes / 1e4);
        assertThat(model.notMeasured()).isFalse();
    }

    /**
     * A real log (AWS p4d over EFA, -b 8 -e 4G -f 2) cut after its 1 MiB row, as a crashed or killed run leaves it:
     * a WARN says the sweep stopped short; the whole log, and a log whose author trimmed rows but kept the trailer,
     * get none.
     */
    @Test
    void aSweepThatStopsBeforeItsMaxBytesWithoutATrailerDidNotFinish() throws Exception {
        List<String> raw = java.nio.file.Files.readAllLines(java.nio.file.Path.of(
                "../datasets/raw/a100_allreduce_16gpu_2node_aws_p4d_efa_eks.txt"));
        List<String> log = raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size());
        int cut = java.util.stream.IntStream.range(0, log.size())
                .filter(i -> log.get(i).matches(".*<stdout>:\\s+1048576\\s.*")).findFirst().orElseThrow();
        Sweep whole = read(log);
        Sweep stopped = read(log.subList(0, cut + 1));
        assertThat(stopped.run().maxBytes()).isEqualTo(4294967296L);
        assertThat(check.check("cut.log", stopped, (Reference) null).reasons()).filteredOn(f -> f.rule()
                .equals("unfinished")).singleElement().satisfies(f -> assertThat(f.message()).startsWith("the sweep"
                        + " stops at 1 MiB of the 4 GiB it was started for (maxBytes)"));
        assertThat(check.check("whole.log", whole, (Reference) null).findings()).noneMatch(f -> f.rule()
                .equals("unfinished"));
        List<String> trimmed = new ArrayList<>(log.subList(0, cut + 1));
        trimmed.addAll(log.stream().filter(l -> l.contains("# Out of bounds") || l.contains("# Avg bus")).toList());
        assertThat(check.check("trimmed.log", read(trimmed), (Reference) null).findings()).noneMatch(f -> f.rule()
                .equals("unfinished"));
    }

    /**
     * A real log (2019 layout, no program named) whose times were doubled after the run: it is still read as the
     * AllReduce its busbw/algbw pair says, and the check says the columns disagree.
     */
    @Test
    void aLogWhoseTimesDisagreeWithItsAlgbwWarns() throws Exception {
        List<String> raw = java.nio.file.Files.readAllLines(java.nio.file.Path.of(
                "../datasets/raw/a100_allreduce_16gpu_2node_aws_p4d_efa_eks.txt"));
        List<String> log = new ArrayList<>(raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===")
                + 1, raw.size()));
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("^(.*<stdout>:\\s+\\d+\\s+\\d+\\s+float\\s+sum"
                + "\\s+)([\\d.]+)(.*)$"); // this 2019 layout has no root column
        assertThat(check.check("whole.log", read(log), (Reference) null).findings()).noneMatch(f -> f.rule()
                .equals("time-algbw"));
        log.replaceAll(l -> {
            java.util.regex.Matcher m = row.matcher(l);
            return m.matches() ? m.group(1) + 2 * Double.parseDouble(m.group(2)) + m.group(3) : l;
        });
        // the log names no program: the collective comes from the printed busbw/algbw pair, not the changed times
        assertThat(read(log).collective()).isEqualTo(org.ncclharness.calibration.measure.Collective.ALL_REDUCE);
        assertThat(check.check("doubled.log", read(log), (Reference) null).reasons()).filteredOn(f -> f.rule()
                .equals("time-algbw")).singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARN);
                    assertThat(f.message()).contains("time and algbw disagree").endsWith("take the log as nccl-tests"
                            + " wrote it");
                });
    }

    /**
     * NVIDIA/nccl-tests#293 (2 hosts x 1 A100 PCIe, GPU and NIC on different sockets): 256 KiB to 1 MiB each take
     * longer than 2 MiB does, a stretch of sizes on a slower path; the bundled runs show none but the 2019 macOS
     * reduce, whose 64-256 B take longer than its 512 B.
     */
    @Test
    void aStretchOfSizesSlowerThanALargerSizeWarns() throws Exception {
        List<String> all = java.nio.file.Files.readAllLines(java.nio.file.Path.of("src/test/resources/logs/ncclinfo/"
                + "ib_hdr_gdr_sys_shm_disabled_1gpu_per_host_nccl2215_tests293.txt"));
        Sweep run = read(all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW")));
        assertThat(check.check("293.log", run, (Reference) null).reasons()).filteredOn(f -> f.rule()
                .equals("slower-than-larger")).singleElement().satisfies(f -> {
                    assertThat(f.sizeBytes()).isEqualTo(MIB);
                    assertThat(f.message()).startsWith("256 KiB–1 MiB take longer than 2 MiB does (up to 3332.3 us"
                            + " against 365.5 us)");
                });
        // two sizes 3x slower than a larger one: a real 16-GPU RoCE run (512 KiB-1 MiB against 2 MiB)
        List<String> rtx = java.nio.file.Files.readAllLines(java.nio.file.Path.of("src/test/resources/logs/real/"
                + "twohost_rtx6000d_2x8_spcx_mca_lines_in_table.txt"));
        Sweep two = read(rtx.subList(rtx.indexOf("=== RAW (copied verbatim from the source) ===") + 1,
                rtx.indexOf("=== END RAW ===")));
        assertThat(check.check("6kd.log", two, (Reference) null).reasons()).filteredOn(f -> f.rule()
                .equals("slower-than-larger")).singleElement().satisfies(f -> assertThat(f.message())
                .startsWith("512 KiB–1 MiB take longer than 2 MiB does (up to 1288.7 us against 396.23 us)"));
        List<String> flagged = new ArrayList<>();
        for (var d : DatasetCatalog.bundled().all()) {
            if (!SlowerThanLarger.find(d.sweep().rows()).isEmpty()) {
                flagged.add(d.id());
            }
        }
        // the 2-rank socket broadcast takes 927 us at 256 KiB against 227 us at 512 KiB: two sizes, 4x slower
        assertThat(flagged).containsExactly("gtx1080_reduce_2gpu_1node_macos_ncclosx",
                "rtx5090_broadcast_2rank_1gpu_1node_socket_ncclebpf");
    }

    /** A replay's numbers are another machine's: the verdict is never a plain PASS on them. */
    @Test
    void aReplayIsAtLeastAWarnSayingSo() {
        Sweep stored = oci();
        Sweep replay = stored.withProvenance(new org.ncclharness.calibration.measure.Provenance(
                org.ncclharness.calibration.measure.SourceKind.REPLAY, OCI, OCI, "replay of stored measurements: " + OCI));
        CheckReport r = check.check(OCI, stored, Reference.baseline(OCI, stored));
        assertThat(r.verdict()).isEqualTo(Verdict.PASS);
        assertThat(HealthCheck.notMeasured(stored)).isEmpty();
        Finding f = HealthCheck.notMeasured(replay).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.message()).startsWith("these numbers are a replay (replay of stored");
        assertThat(r.withFindings(List.of(f), List.of()).verdict()).isEqualTo(Verdict.WARN);
    }

    /** A prediction read back, judged only where the user asked: the verdict is at least a WARN saying so. */
    @Test
    void aPredictionIsAtLeastAWarnSayingSo() {
        Sweep predicted = oci().withProvenance(new org.ncclharness.calibration.measure.Provenance(
                org.ncclharness.calibration.measure.SourceKind.PREDICTED, "m", null, "predicted by envelope from x"));
        Finding f = HealthCheck.notMeasured(predicted).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.message()).startsWith("these numbers are a prediction (predicted by envelope from x), not a"
                + " measurement");
    }

    /**
     * The real nccl-tests#319 excerpt (2 hosts x 8 H100, 44 GB/s busbw = 11 % of its 8 x 50 GB/s) FAILs on the
     * line rate whatever it is compared with: nothing, a baseline (itself), the busbw it is expected to reach; a
     * bundled run at 117 % of the same line rate does not.
     */
    /**
     * A sweep whose rows stop at half its header's maxBytes, with no trailer, FAILs as unfinished; the same rows
     * from a source its poster trimmed (a bundled {@code partial} dataset) are not judged unfinished.
     */
    @Test
    void aRunThatStopsBeforeMaxBytesFailsUnlessItsSourceWasTrimmed() {
        Sweep cut = VerdictTableTest.cut(DatasetCatalog.bundled().get("h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk")
                .sweep());
        org.ncclharness.calibration.hardware.Nics eight = new org.ncclharness.calibration.hardware.Nics(8, null);
        CheckReport ran = check.check("cut", cut, new HealthCheck.Against(null, null, eight, false));
        assertThat(ran.reasons()).filteredOn(f -> f.rule().equals("unfinished")).singleElement()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.FAIL));
        assertThat(ran.verdict()).isEqualTo(Verdict.FAIL);
        CheckReport trimmed = check.check("cut", cut, new HealthCheck.Against(null, null, eight, true));
        assertThat(trimmed.findings()).noneMatch(f -> f.rule().equals("unfinished"));
    }

    @Test
    void theLineRateFaultAcrossHostsFailsWhateverTheReference() throws Exception {
        Sweep slow = read(java.nio.file.Files.readAllLines(java.nio.file.Path.of(
                "src/test/resources/logs/ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")));
        slow = slow.withHardware(new org.ncclharness.calibration.measure.Hardware(slow.gpuName(), 16, 2, 8, 2, null,
                "IB-NDR"));
        org.ncclharness.calibration.hardware.Nics eight = new org.ncclharness.calibration.hardware.Nics(8, null);
        List<HealthCheck.Against> references = List.of(new HealthCheck.Against(null, null, eight),
                new HealthCheck.Against(Reference.baseline("itself", slow), null, eight),
                new HealthCheck.Against(null, 44.0, eight));
        for (HealthCheck.Against against : references) {
            CheckReport r = check.check("tests319", slow, against);
            assertThat(r.verdict()).as("%s", against).isEqualTo(Verdict.FAIL);
            assertThat(r.reasons()).as("%s", against).filteredOn(f -> f.severity() == Severity.FAIL
                    && f.rule().equals("peak")).singleElement().satisfies(f -> assertThat(f.message())
                    .contains("= 11.1 % of the line rate of 8 IB-NDR NICs per host")
                    .contains("below 25 % of the line rate across hosts is a fault"));
            // and below the H100 family's healthy floor (HealthyRanges), whatever the reference too
            assertThat(r.reasons()).as("%s", against).filteredOn(f -> f.severity() == Severity.FAIL
                    && f.rule().equals("class-floor")).singleElement().satisfies(f -> assertThat(f.message())
                    .contains("11.1 % of the line rate (400 GB/s), below the healthy floor"));
        }
        Sweep fast = DatasetCatalog.bundled().get("h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk").sweep();
        CheckReport ok = check.check("qoofyk", fast, new HealthCheck.Against(Reference.baseline("itself", fast), null,
                eight));
        assertThat(ok.verdict()).isEqualTo(Verdict.PASS);
    }

    private static Sweep read(List<String> lines) {
        return new org.ncclharness.calibration.read.NcclTestsLogReader("run.log", null).read(lines).get(0);
    }

    @Test
    void minBusBwFollowsNcclTestsRule() {
        CheckReport r = new HealthCheck(HardwareFacts.bundled(), CheckRules.defaults().withMinBusBw(200.0))
                .check(OCI, oci(), (Reference) null);
        assertThat(r.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(r.reasons()).anyMatch(f -> f.rule().equals("min-busbw") && f.message().contains("0.9 x 200"));
        // The OCI run averages about 30 GB/s over every printed result: 0.9 x 33 = 29.7 passes, 0.9 x 40 fails.
        double avg = org.ncclharness.calibration.format.NcclTestsTableWriter.averageBusBw(oci().rows());
        CheckReport ok = new HealthCheck(HardwareFacts.bundled(), CheckRules.defaults().withMinBusBw(avg / 0.9 - 0.01))
                .check(OCI, oci(), (Reference) null);
        assertThat(ok.reasons()).noneMatch(f -> f.rule().equals("min-busbw"));
    }

    @Test
    void halfTheBandwidthAtTheLargestSizeFails() {
        Sweep run = scaled(oci(), oci().rows().size() - 1, 0.5);
        CheckReport r = check.check("copy", run, Reference.baseline(OCI, oci()));
        assertThat(r.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(r.reasons()).anyMatch(f -> f.rule().equals("largest-below-reference")
                && f.sizeBytes() == 8192 * MIB);
    }

    @Test
    void halfTheBandwidthAtTheMiddleSizeWarns() {
        int middle = oci().rows().size() / 2;
        Sweep run = scaled(oci(), middle, 0.5);
        long size = run.rows().get(middle).sizeBytes();
        CheckReport r = check.check("copy", run, Reference.baseline(OCI, oci()));
        assertThat(r.verdict()).isEqualTo(Verdict.WARN);
        // judged on time where the size is latency-bound, on busbw where it is not: either way this size
        assertThat(r.reasons()).anyMatch(f -> (f.rule().equals("below-reference") || f.rule().equals("latency"))
                && f.sizeBytes() == size);
    }

    @Test
    void aThreeFoldLatencyRegressionIsOneLineOnTimeAndASlowLinkOneRangeAndAFail() {
        Sweep bad = CheckGateTest.degraded(oci());
        CheckReport r = check.check("degraded", bad, Reference.baseline(OCI, oci()));
        assertThat(r.verdict()).isEqualTo(Verdict.FAIL);
        List<Finding> latency = r.reasons().stream().filter(f -> f.rule().equals("latency")).toList();
        assertThat(latency).singleElement().extracting(Finding::message).asString()
                .startsWith("64 B–32 KiB: latency ").contains("of the reference (baseline; 3.0 x), above 1.5 x");
        assertThat(r.reasons()).filteredOn(f -> f.rule().equals("below-reference")).singleElement()
                .extracting(Finding::message).asString().startsWith("32 MiB–8 GiB: busbw ")
                .contains("is 55.0 % of the reference (baseline");
        assertThat(r.reasons()).anyMatch(f -> f.severity() == Severity.FAIL
                && f.rule().equals("largest-below-reference"));
    }

    @Test
    void anyWrongElementFails() {
        List<Measurement> rows = new ArrayList<>(oci().rows());
        Measurement m = rows.get(3);
        Half h = m.inPlace();
        rows.set(3, new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(), m.outOfPlace(),
                new Half(h.timeUs(), h.algBwGBps(), h.busBwGBps(), 2.0)));
        CheckReport r = check.check("copy", oci().withRows(rows), (Reference) null);
        assertThat(r.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(r.reasons()).anyMatch(f -> f.rule().equals("wrong") && f.message().contains("in-place"));
    }

    /**
     * A baseline swept with another step (every other size of the run's grid) shares no size with the run: it is
     * read between its own sizes, said so, and never beyond them; the run against its own odd sizes passes.
     */
    @Test
    void aBaselineOnAnotherSizeGridIsReadBetweenItsSizes() {
        List<Measurement> all = oci().rows();
        List<Measurement> even = new ArrayList<>();
        List<Measurement> odd = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            (i % 2 == 0 ? even : odd).add(all.get(i));
        }
        CheckReport r = check.check("odd", oci().withRows(odd), Reference.baseline("even", oci().withRows(even)));
        assertThat(r.findings()).anyMatch(f -> f.message().startsWith("even measured none of the run's sizes: its"
                + " busbw and time are read between its neighbouring sizes"));
        assertThat(r.verdict()).isNotEqualTo(Verdict.FAIL);
        // a run at a third of the bandwidth is still caught through the interpolated baseline
        List<Measurement> slow = odd.stream().map(m -> new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(),
                m.root(), thirds(m.outOfPlace()), thirds(m.inPlace()))).toList();
        assertThat(check.check("slow", oci().withRows(slow), Reference.baseline("even", oci().withRows(even)))
                .verdict()).isEqualTo(Verdict.FAIL);
    }

    private static Half thirds(Half h) {
        return new Half(h.timeUs() == null ? null : h.timeUs() * 3, h.algBwGBps() == null ? null : h.algBwGBps() / 3,
                h.busBwGBps() == null ? null : h.busBwGBps() / 3, h.wrong());
    }

    @Test
    void noSizeInCommonIsBadInput() {
        Sweep small = oci().withRows(oci().rows().subList(0, 3));
        Sweep large = oci().withRows(oci().rows().subList(10, 13));
        assertThatThrownBy(() -> check.check("small", small, Reference.baseline("large", large)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no size in common");
    }

    @Test
    void latencyBoundSizesAreNotCalledDips() {
        // 64 B .. 2 KiB print busbw 0, 0.01, 0.03: a few microseconds of jitter, no dip may be reported there
        CheckReport r = check.check(OCI, oci(), (Reference) null);
        assertThat(r.reasons()).filteredOn(f -> f.rule().equals("dip")).allMatch(f -> f.sizeBytes() >= MIB);
    }

    @Test
    void peakIsReportedAgainstTheBottleneckInterconnect() {
        CheckReport r = check.check(OCI, oci(), (Reference) null);
        assertThat(r.findings().get(0).message()).contains("8 GiB").contains("71.56 GB/s").contains("RoCE-100G");
    }

    /** A copy of a sweep whose row {@code index} has {@code factor} times the bandwidth (time divided). */
    static Sweep scaled(Sweep s, int index, double factor) {
        List<Measurement> rows = new ArrayList<>(s.rows());
        Measurement m = rows.get(index);
        rows.set(index, new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(),
                scale(m.outOfPlace(), factor), scale(m.inPlace(), factor)));
        return s.withRows(rows);
    }

    static Half scale(Half h, double f) {
        return new Half(h.timeUs() == null ? null : h.timeUs() / f, h.algBwGBps() == null ? null : h.algBwGBps() * f,
                h.busBwGBps() == null ? null : h.busBwGBps() * f, h.wrong());
    }
}
