package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.io.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The bring-up verdict of issue 8 for one run: the peak against β_phys, #wrong, the average busbw against
 * nccl-tests' NCCL_TESTS_MIN_BW rule, dips, and the per-size deviation from a baseline or a model.
 */
public final class HealthCheck {

    private final HardwareFacts facts;
    private final CheckRules rules;

    public HealthCheck(HardwareFacts facts, CheckRules rules) {
        this.facts = facts;
        this.rules = rules;
    }

    /**
     * @param reference a baseline or a model, null for the checks that need none
     * @throws IllegalArgumentException when the reference shares no size with the run (bad input: exit 2)
     */
    public CheckReport check(String runName, Sweep run, Reference reference) {
        return check(runName, run, reference, null);
    }

    /**
     * @param nicsPerHost NICs per host where known: across nodes the peak is also given against all of a
     *                    host's links, since a ring's busbw can use every NIC of a node at once
     */
    public CheckReport check(String runName, Sweep run, Reference reference, Integer nicsPerHost) {
        List<Measurement> rows = run.rows().stream().filter(r -> SizeBusBw.of(r) != null).toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(runName + ": no size has a busbw to check");
        }
        List<Finding> findings = new ArrayList<>();
        peak(run, rows.get(rows.size() - 1), nicsPerHost, findings);
        wrong(run, findings);
        average(run, findings);
        Set<Long> dips = dips(rows, findings);
        if (reference != null) {
            compare(runName, rows, reference, findings);
        }
        List<CheckReport.SizeLine> lines = new ArrayList<>();
        for (Measurement r : rows) {
            Double b = SizeBusBw.of(r);
            Double ref = reference == null ? null : reference.busBwGBps().get(r.sizeBytes());
            Double pct = ref == null || ref <= 0 ? null : 100 * b / ref;
            lines.add(new CheckReport.SizeLine(r.sizeBytes(), b, ref, pct, dips.contains(r.sizeBytes())));
        }
        return new CheckReport(runName, run.provenance(), reference, lines, findings, Verdict.of(findings));
    }

    /** The interconnect that bounds a ring's busbw: the network between domains, else the one inside. */
    static String bottleneck(Hardware hw) {
        if (hw == null) {
            return null;
        }
        boolean multiDomain = hw.domains() != null && hw.domains() > 1;
        if (multiDomain && hw.inter() != null) {
            return hw.inter();
        }
        return hw.intra() != null ? hw.intra() : hw.inter();
    }

    private void peak(Sweep run, Measurement largest, Integer nicsPerHost, List<Finding> out) {
        double b = SizeBusBw.of(largest);
        String name = bottleneck(run.hardware());
        Optional<Interconnect> ic = name == null ? Optional.empty() : facts.interconnect(name);
        String at = String.format(Locale.ROOT, "busbw at the largest size (%s): %s GB/s", SizeText.exact(
                largest.sizeBytes()), num(b));
        if (ic.isEmpty() || ic.get().betaPhysGBps() == null) {
            out.add(Finding.info("peak", at + "; no beta_phys to compare with ("
                    + (name == null ? "interconnect not stated: pass --interconnect" : name + " has no fixed figure")
                    + ")"));
            return;
        }
        double phys = ic.get().betaPhysGBps();
        String perHost = "";
        boolean network = name.equals(run.hardware().inter());
        if (network && nicsPerHost != null && nicsPerHost > 1) {
            perHost = String.format(Locale.ROOT, "; %.1f %% of the %d NICs per host together (%s GB/s)",
                    100 * b / (phys * nicsPerHost), nicsPerHost, num(phys * nicsPerHost));
        }
        String above = b <= phys || !perHost.isEmpty() ? "" : "; above the line rate: "
                + (ic.get().inNetworkReduction() != null ? "in-network reduction (" + ic.get().inNetworkReduction()
                + "), which the alpha-beta ring model cannot represent" : "more than one link per GPU, or a"
                + " misstated interconnect");
        out.add(Finding.info("peak", String.format(Locale.ROOT, "%s = %.1f %% of beta_phys %s (%s GB/s)%s%s", at,
                100 * b / phys, ic.get().name(), num(phys), perHost, above)));
    }

    private void wrong(Sweep run, List<Finding> out) {
        if (!rules.failOnWrong()) {
            return;
        }
        String stated = run.trailer().outOfBounds();
        boolean counted = run.rows().stream().anyMatch(r -> r.outOfPlace().hasWrongElements()
                || r.inPlace().hasWrongElements());
        if (stated != null && !stated.matches("0\\b.*") && !counted) {
            // The log's own data-check verdict (the older error column is judged by nccl-tests, not here)
            out.add(new Finding(Severity.FAIL, "wrong", null, "the log states 'Out of bounds values : " + stated
                    + "': the data check failed"));
        }
        for (Measurement r : run.rows()) {
            for (Half h : List.of(r.outOfPlace(), r.inPlace())) {
                if (h.hasWrongElements()) {
                    String which = h == r.outOfPlace() ? "out-of-place" : "in-place";
                    out.add(new Finding(Severity.FAIL, "wrong", r.sizeBytes(), String.format(Locale.ROOT,
                            "#wrong = %s at %s (%s): the data check failed", num(h.wrong()),
                            SizeText.exact(r.sizeBytes()), which)));
                }
            }
        }
    }

    private void average(Sweep run, List<Finding> out) {
        if (rules.minBusBwGBps() == null) {
            return;
        }
        double avg = NcclTestsTableWriter.averageBusBw(run.rows());
        double limit = CheckRules.NCCL_TESTS_MIN_BW_MARGIN * rules.minBusBwGBps();
        String text = String.format(Locale.ROOT, "average busbw %s GB/s %s 0.9 x %s = %s GB/s (nccl-tests'"
                + " NCCL_TESTS_MIN_BW rule)", num(avg), avg < limit ? "is below" : "meets",
                num(rules.minBusBwGBps()), num(limit));
        out.add(new Finding(avg < limit ? Severity.FAIL : Severity.INFO, "min-busbw", null, text));
    }

    private Set<Long> dips(List<Measurement> rows, List<Finding> out) {
        List<Measurement> precise = rows.stream()
                .filter(r -> SizeBusBw.printedSignificantDigits(SizeBusBw.of(r)) >= 2).toList();
        Set<Long> dips = new HashSet<>();
        // Only interior sizes have two neighbours to be compared with.
        for (int i = 1; i + 1 < precise.size(); i++) {
            double b = SizeBusBw.of(precise.get(i));
            double mean = (SizeBusBw.of(precise.get(i - 1)) + SizeBusBw.of(precise.get(i + 1))) / 2;
            if (b < rules.dipPct() / 100 * mean) {
                long size = precise.get(i).sizeBytes();
                dips.add(size);
                out.add(new Finding(Severity.WARN, "dip", size, String.format(Locale.ROOT,
                        "dip at %s: busbw %s GB/s is %.0f %% of its neighbours' mean %s GB/s (threshold %s %%)",
                        SizeText.exact(size), num(b), 100 * b / mean, num(mean), num(rules.dipPct()))));
            }
        }
        return dips;
    }

    private void compare(String runName, List<Measurement> rows, Reference ref, List<Finding> out) {
        // A reference of 0 GB/s (nccl-tests prints 0.00 for the tiniest sizes) gives no ratio to judge.
        List<Measurement> common = rows.stream()
                .filter(r -> ref.busBwGBps().getOrDefault(r.sizeBytes(), 0.0) > 0).toList();
        if (common.isEmpty()) {
            throw new IllegalArgumentException(runName + " and " + ref.label() + " have no size in common (run: "
                    + SizeText.exact(rows.get(0).sizeBytes()) + " .. " + SizeText.exact(rows.get(rows.size() - 1).sizeBytes())
                    + ", reference: " + SizeText.exact(ref.busBwGBps().firstKey()) + " .. "
                    + SizeText.exact(ref.busBwGBps().lastKey()) + ")");
        }
        String what = ref.predicted() ? "the model's prediction" : "the baseline";
        out.add(Finding.info("reference", "compared with " + (ref.predicted() ? "a prediction (not a measurement): "
                : "baseline ") + ref.label() + " at " + common.size() + " common sizes"));
        for (Measurement r : common) {
            double pct = 100 * SizeBusBw.of(r) / ref.busBwGBps().get(r.sizeBytes());
            if (pct < rules.warnBelowPct()) {
                out.add(new Finding(Severity.WARN, "below-reference", r.sizeBytes(), String.format(Locale.ROOT,
                        "%s: busbw %s GB/s is %.1f %% of %s (%s GB/s), below %s %%", SizeText.exact(r.sizeBytes()),
                        num(SizeBusBw.of(r)), pct, what, num(ref.busBwGBps().get(r.sizeBytes())),
                        num(rules.warnBelowPct()))));
            }
        }
        Measurement last = common.get(common.size() - 1);
        double pct = 100 * SizeBusBw.of(last) / ref.busBwGBps().get(last.sizeBytes());
        if (pct < rules.failBelowPct()) {
            out.add(new Finding(Severity.FAIL, "largest-below-reference", last.sizeBytes(), String.format(Locale.ROOT,
                    "largest common size %s: busbw %s GB/s is %.1f %% of %s (%s GB/s), below %s %%",
                    SizeText.exact(last.sizeBytes()), num(SizeBusBw.of(last)), pct, what,
                    num(ref.busBwGBps().get(last.sizeBytes())), num(rules.failBelowPct()))));
        }
    }

    /** Numbers as %g prints them: no trailing zeros, six significant digits. */
    static String num(double v) {
        return org.ncclharness.calibration.io.CFormat.g(v);
    }
}
