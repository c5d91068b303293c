package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.check.HealthCheck.Against;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Severity;

/**
 * {@code check} as an unattended gate, on every bundled real run and on degraded copies of each (times × 1/0.55
 * above 16 MiB, × 3 below 64 KiB): a healthy run never FAILs, a degraded one never PASSes, with its healthy self as
 * the baseline and with no baseline at all (the expected curve of the other bundled runs, or the line rate). The
 * bundled runs whose source reports them as faults, or whose own series shows one ({@link #FAULTS}), are not
 * healthy: alone they FAIL, on the line rate and on nothing else.
 */
class CheckGateTest {

    static final long MIB = 1 << 20;

    /**
     * Bundled runs published as under-performing (or, one, plainly slower than the rest of its own published
     * series), at less than 25 % of their NICs' line rate: the line-rate rule FAILs them whatever the reference.
     * (Before it held with a bundled curve as the reference, a curve of the same GPU turned this FAIL into a WARN.)
     */
    static final java.util.Map<String, String> FAULTS = java.util.Map.of(
            // nccl-tests#290: Ring with the reporter's IB settings, 89.9 GB/s busbw at 8 GiB on 2 x 8 H100 with
            // 8 x 400 Gb/s NDR per host (22.5 %); the maintainer in the thread: 46-48 GB/s per NIC is expected
            "h100_allreduce_16gpu_2node_ib_ndr_ring_ncclTests290_partial", "22.5 % of the line rate",
            // the Azure NC48 post: the shipped graph file limits all-reduce to ~57 GB/s, ~225 GB/s without it
            "a100pcie_allreduce_2gpu_1node_nvlinkbridge_azure_nc48v4_graphfile", "19.2 % of the line rate",
            // not called a fault by its source (aistabci/abci2.0benchmark): the same script's 8-node run stays at
            // 12-16 GB/s from 2 to 32 MiB, where its 2-, 4- and 16-node runs reach 26-33 GB/s, and it is slower
            // than the 16-node run from 1 MiB up, as no healthy smaller run of one system at one setting is
            "a100_allreduce_64gpu_8node_ib_hdr_abci_anode_nccl284", "15.2 % of the line rate");
    private static final HardwareFacts FACTS = HardwareFacts.bundled();
    private static final HealthCheck CHECK = new HealthCheck(FACTS, CheckRules.defaults());

    static Stream<Dataset> runs() {
        return DatasetCatalog.bundled().all().stream().filter(d -> d.collective().known())
                .filter(d -> d.rows().stream().filter(r -> SizeBusBw.of(r) != null).count() >= 5);
    }

    /** A copy of the run slowed to 55 % of its bandwidth above 16 MiB and to a third of its speed below 64 KiB. */
    static Sweep degraded(Sweep s) {
        List<Measurement> rows = new ArrayList<>();
        for (Measurement m : s.rows()) {
            double slow = m.sizeBytes() > 16 * MIB ? 1 / 0.55 : m.sizeBytes() < 64 * 1024 ? 3 : 1;
            rows.add(new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(),
                    slower(m.outOfPlace(), slow), slower(m.inPlace(), slow)));
        }
        return s.withRows(rows);
    }

    private static Half slower(Half h, double k) {
        return new Half(h.timeUs() == null ? null : h.timeUs() * k, h.algBwGBps() == null ? null : h.algBwGBps() / k,
                h.busBwGBps() == null ? null : h.busBwGBps() / k, h.wrong(), h.maxError());
    }

    private static List<Dataset> others(Dataset self) {
        return DatasetCatalog.bundled().all().stream().filter(d -> !d.id().equals(self.id())).toList();
    }

    /**
     * Each run's report checked alone, healthy and degraded: the per-run test and the docs' figures read the same
     * reports, computed once (a pure function of the bundled data and the rules; issue 43).
     */
    private static final Map<String, CheckReport> ALONE = new ConcurrentHashMap<>();

    static CheckReport healthyAlone(Dataset d) {
        return ALONE.computeIfAbsent("healthy " + d.id(), k -> alone(d.id(), d.sweep(), d));
    }

    static CheckReport degradedAlone(Dataset d) {
        return ALONE.computeIfAbsent("degraded " + d.id(), k -> alone("degraded", degraded(d.sweep()), d));
    }

    static CheckReport alone(String name, Sweep run, Dataset self) {
        ExpectedCurves.Outcome o = ExpectedCurves.forRun(run, name, self.metadata().nicsPerHost(),
                self.metadata().algo(), others(self), FittedPeers.of(FACTS));
        return CHECK.check(name, run, new HealthCheck.Against(o.reference(), null, self.metadata().nics()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void aHealthyRunDoesNotFailAndItsDegradedCopyDoesNotPass(Dataset d) {
        Sweep healthy = d.sweep();
        Sweep bad = degraded(healthy);
        Reference self = Reference.baseline(d.id(), healthy);
        if (!FAULTS.containsKey(d.id())) {
            assertThat(CHECK.check(d.id(), healthy, self).verdict()).as("healthy vs itself")
                    .isNotEqualTo(Verdict.FAIL);
        }
        CheckReport vsBaseline = CHECK.check("degraded", bad, self);
        assertThat(vsBaseline.verdict()).as("degraded vs the healthy run: %s", vsBaseline.findings())
                .isNotEqualTo(Verdict.PASS);
        CheckReport healthyAlone = healthyAlone(d);
        if (FAULTS.containsKey(d.id())) {
            // the line-rate rule and the class floor (HealthyRanges), each naming the share of the line rate
            assertThat(healthyAlone.reasons()).as("a published fault alone").filteredOn(f -> f.severity()
                    == Severity.FAIL).isNotEmpty().allSatisfy(f -> assertThat(f.rule()).isIn("peak", "class-floor"))
                    .allSatisfy(f -> assertThat(f.message()).contains(FAULTS.get(d.id())));
        } else {
            assertThat(healthyAlone.verdict()).as("healthy alone: %s", healthyAlone.findings())
                    .isNotEqualTo(Verdict.FAIL);
        }
        CheckReport badAlone = degradedAlone(d);
        if (badAlone.verdict() == Verdict.PASS) {
            // Only possible where the bundled run it is compared with is slower than even the degraded copy:
            // then the degraded copy does reach what this hardware is known to reach elsewhere.
            CheckReport.SizeLine largest = badAlone.sizes().stream().filter(x -> x.pctOfReference() != null)
                    .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("degraded alone PASSES with no"
                            + " reference: " + badAlone.findings()));
            assertThat(largest.pctOfReference()).as("degraded alone passes only above its reference: %s",
                    badAlone.findings()).isGreaterThanOrEqualTo(CheckRules.defaults().warnBelowPct());
        }
    }

    /** The figures of docs/sweep-and-check.md's generated block, from the rules as they are. */
    @Test
    void theGateFiguresInTheDocsAreWhatTheRulesGive() throws IOException {
        List<Dataset> all = runs().toList();
        int[][] counts = new int[3][Verdict.values().length];
        List<String> dips = new ArrayList<>();
        List<String> notDips = new ArrayList<>();
        List<String> failedAlone = new ArrayList<>();
        for (Dataset d : all) {
            CheckReport healthy = healthyAlone(d);
            counts[0][healthy.verdict().ordinal()]++;
            healthy.reasons().stream().filter(f -> f.severity() == Severity.FAIL).forEach(f -> failedAlone.add("- `"
                    + d.id() + "`: " + f.message()));
            counts[1][degradedAlone(d).verdict().ordinal()]++;
            counts[2][CHECK.check("degraded", degraded(d.sweep()), Reference.baseline(d.id(), d.sweep())).verdict()
                    .ordinal()]++;
            healthy.findings().stream().filter(f -> f.rule().equals("dip")).forEach(f ->
                    (f.severity() == Severity.WARN ? dips : notDips).add("- `" + d.id() + "`: " + f.message()));
        }
        StringBuilder b = new StringBuilder();
        b.append("On the ").append(all.size()).append(" bundled real runs with at least 5 sizes, checked as a user"
                + " would without a baseline (the run itself left out of the expected curves), and on a degraded copy"
                + " of each (times x 1/0.55 above 16 MiB, x 3 below 64 KiB):\n\n");
        b.append("| | PASS | WARN | FAIL |\n|---|---:|---:|---:|\n");
        String[] rows = {"healthy, no baseline", "degraded copy, no baseline", "degraded copy, the healthy run as"
                + " baseline"};
        for (int i = 0; i < rows.length; i++) {
            b.append("| ").append(rows[i]);
            for (Verdict v : Verdict.values()) {
                b.append(" | ").append(counts[i][v.ordinal()]);
            }
            b.append(" |\n");
        }
        b.append("\nFAIL among the bundled runs checked alone (runs their source reports as faults): ")
                .append(failedAlone.size()).append("\n\n");
        failedAlone.forEach(l -> b.append(l).append('\n'));
        b.append("\nDip findings (WARN) on the healthy runs: ").append(dips.size()).append("\n\n");
        dips.forEach(l -> b.append(l).append('\n'));
        b.append("\nNot judged dips (INFO: a protocol switch, the reference dips too, or below the run's"
                + " latency/bandwidth crossover): ").append(notDips.size()).append("\n\n");
        notDips.forEach(l -> b.append(l).append('\n'));
        Path doc = Path.of("../docs/sweep-and-check.md");
        String text = Files.readString(doc);
        String begin = "<!-- check-gate:begin (written by CheckGateTest; mvn test -Ddocs.update=true rewrites it) -->\n";
        String endMark = "<!-- check-gate:end -->";
        int from = text.indexOf(begin) + begin.length();
        int to = text.indexOf(endMark);
        String regenerated = text.substring(0, from) + b + text.substring(to);
        if (Boolean.getBoolean("docs.update")) {
            Files.writeString(doc, regenerated);
        }
        assertThat(text).as("docs/sweep-and-check.md is stale: mvn test -Ddocs.update=true").isEqualTo(regenerated);
        assertThat(failedAlone).as("bundled runs that FAIL checked alone").extracting(l -> l.replaceAll("^- `|`:.*", ""))
                .containsOnlyElementsOf(FAULTS.keySet()).containsAll(FAULTS.keySet());
        // Each of these is a real slow size in the published times (a dip the glitch detector of calibrate also
        // lists, or a degraded run's); any other dip on a bundled run is a false alarm until reviewed.
        assertThat(dips).as("dip findings on the bundled real runs").extracting(l -> l.replaceAll(": busbw .*", ""))
                .containsExactlyInAnyOrder(
                        "- `a100_allreduce_16gpu_2node_oci_roce`: dip at 16 MiB",
                        "- `a100_allreduce_16gpu_2node_oci_roce`: dip at 64 MiB",
                        "- `gb200_allreduce_128gpu_32node_2rack_oci_oke`: dip at 1 GiB",
                        "- `gh200_allreduce_128gpu_32node_slingshot_alps_tunedcxi`: dip at 256 MiB",
                        "- `gh200_allreduce_256gpu_64node_slingshot_alps_tunedcxi`: dip at 512 MiB",
                        "- `gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi`: dip at 2 GiB",
                        // calibrate leaves it out as a glitch; the envelope fitted with β free switched from Simple
                        // to LL128 (LL128 faster than Simple) at 35 MiB, which excused it; with β from the sweep's
                        // end it switches from LL128 to Simple at 18.6 MiB
                        "- `gh200_allreduce_64gpu_16node_slingshot_alps_tunedcxi`: dip at 64 MiB",
                        // 68 % of its neighbours against the 70 % threshold: with η free the envelope pinned to the
                        // sweep's end carried it on LL128 above 1, so β was fitted with the rest (40.9 GB/s) and
                        // LL128 below 2 MiB, Simple above, excused it as a protocol switch; with η at most 1 Simple
                        // carries the end (β 36.7 GB/s), LL goes straight to Simple at 469 KiB, and the slow 2 MiB
                        // stands as it is in the published times
                        "- `a100_allreduce_8gpu_2node_slingshot_polaris_nccl2215`: dip at 2 MiB",
                        "- `rtx5090_broadcast_2rank_1gpu_1node_socket_ncclebpf`: dip at 2 MiB");
    }

    /**
     * One size of a healthy run planted at half its busbw (twice its time), at a bandwidth-bound size where the
     * envelope fitted to the run keeps one protocol across it and its neighbours: the dip rule finds it, in each
     * of 10 runs.
     */
    @Test
    void aPlantedDipAwayFromAnySwitchIsFoundInTenHealthyRuns() {
        int found = 0;
        List<String> tried = new ArrayList<>();
        for (Dataset d : runs().sorted(java.util.Comparator.comparing(Dataset::id)).toList()) {
            if (found == 10) {
                break;
            }
            Integer n = d.sweep().ranks();
            FitPoints p = FitPoints.from(d.sweep(), n == null || n < 2 ? 2 : n);
            ProtocolEnvelopeModel m = new ProtocolEnvelopeModel(d.collective(), n == null || n < 2 ? 2 : n, 1);
            if (p.size() < 8 || p.size() <= m.parameterNames().size()) {
                continue;
            }
            double[] theta = ProtocolEnvelopeEstimator.fitted("e", "e", m).estimate(p);
            double[] b = p.bytes();
            double[] t = p.timeUs();
            double crossover = HealthCheck.crossoverBytes(b[0], t[0], b[p.largest()], t[p.largest()]);
            int at = -1;
            for (int i = p.size() - 3; i >= 2; i--) {
                boolean oneProtocol = m.chosen(b[i - 2], theta) == m.chosen(b[i + 2], theta);
                if (b[i - 1] >= crossover && oneProtocol) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                continue;
            }
            long size = (long) b[at];
            List<Measurement> rows = new ArrayList<>();
            for (Measurement r : d.sweep().rows()) {
                rows.add(r.sizeBytes() == size ? new Measurement(r.sizeBytes(), r.count(), r.type(), r.redop(),
                        r.root(), slower(r.outOfPlace(), 2), slower(r.inPlace(), 2)) : r);
            }
            CheckReport report = CHECK.check(d.id(), d.sweep().withRows(rows), Against.nothing());
            tried.add(d.id() + " at " + size);
            assertThat(report.reasons()).as("%s, planted at %d", d.id(), size)
                    .anyMatch(f -> f.rule().equals("dip") && f.sizeBytes() == size);
            found++;
        }
        assertThat(found).as("runs with a size away from any switch: %s", tried).isEqualTo(10);
    }
}
