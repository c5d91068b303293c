package org.ncclharness.calibration.check;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.fit.TailBandwidth;
import org.ncclharness.calibration.hardware.LineRate;
import org.ncclharness.calibration.hardware.Nics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Glitches;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.TimeAlgbwAgreement;
import org.ncclharness.calibration.measure.Trailer;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.Protocol;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.measure.Severity;

/**
 * The bring-up verdict for one run: #wrong, the average busbw against nccl-tests' NCCL_TESTS_MIN_BW rule, dips,
 * and the run against what it should reach: per size against a reference (a baseline, a model or the expected
 * curve of bundled runs of the same hardware), against an expected peak ({@code --expect-busbw}), or, with
 * neither, the busbw at the largest size against the hardware's line rate.
 */
public final class HealthCheck {

    /** nccl-tests' {@code step:} field: {@code 2(factor)} or {@code 1048576(bytes)}. */
    private static final Pattern STEP = Pattern.compile("(\\d+(?:\\.\\d+)?)\\((factor|bytes)\\)");

    /** Practitioners call a run healthy when the largest size reaches 80-90 % of what the hardware allows. */
    public static final double HEALTHY_SHARE_OF_LINE_RATE_PCT = 80;
    /**
     * Across hosts, with the NICs' count and speed known, a busbw below this share of their line rate FAILs where
     * the sweep reached its bandwidth-bound end, whatever else the run is compared with: RDMA NICs reach 0.8-0.95
     * of it, a run without GPUDirect RDMA still about half, and no bundled run checked alone FAILs on it
     * ({@code CheckGateTest}). A reference found for the run (a bundled curve of the same GPU) adds rules; it must
     * not turn this fault into a WARN, or more reference data would make a verdict more lenient.
     */
    public static final double BROKEN_SHARE_OF_LINE_RATE_PCT = 25;

    /**
     * The sizes below this one give a run's latency figure ({@link #smallSizeTimeUs}): there every bundled run is
     * latency-bound (its own latency/bandwidth crossover lies above), so the time is NCCL's and the fabric's
     * latency, not the bandwidth's.
     */
    public static final long SMALL_SIZE_BELOW_BYTES = 64 * 1024;

    private final HardwareFacts facts;
    private final CheckRules rules;
    private final String references;
    private final HealthyRanges ranges;

    public HealthCheck(HardwareFacts facts, CheckRules rules) {
        this(facts, rules, checkReferences());
    }

    /** {@code check}'s settings for a reference the user vouches for, as its messages name them. */
    public static String checkReferences() {
        return Advice.name(Setting.BASELINE) + ", " + Advice.usage(Setting.EXPECTED_BUSBW) + " or "
                + Advice.name(Setting.CALIBRATION);
    }

    /**
     * @param references how the calling command's messages name its flags for a reference that can FAIL a run
     *                   (e.g. {@code bringup}'s {@code --baseline} of step 4)
     */
    public HealthCheck(HardwareFacts facts, CheckRules rules, String references) {
        this(facts, rules, references, HealthyRanges.bundled());
    }

    /** @param ranges the healthy ranges per hardware class ({@link HealthyRanges#NONE}: the line rate only) */
    public HealthCheck(HardwareFacts facts, CheckRules rules, String references, HealthyRanges ranges) {
        this.facts = facts;
        this.rules = rules;
        this.references = references;
        this.ranges = ranges;
    }

    /**
     * What the run is compared with, beside the rules that need nothing.
     *
     * @param reference      a baseline, a model or the expected curve; null for none
     * @param expectBusBwGBps the busbw a healthy run of this hardware reaches at its largest sizes; null for none
     * @param nics           the host's NICs as stated: across hosts the line rate is all of a host's NICs together
     */
    public record Against(Reference reference, Double expectBusBwGBps, Nics nics, boolean trimmedBySource) {

        public Against {
            nics = nics == null ? Nics.UNKNOWN : nics;
        }

        /** A run whose source is the run as it ran (not an excerpt its poster trimmed). */
        public Against(Reference reference, Double expectBusBwGBps, Nics nics) {
            this(reference, expectBusBwGBps, nics, false);
        }

        public static Against nothing() {
            return new Against(null, null, Nics.UNKNOWN);
        }
    }

    /**
     * @param reference a baseline or a model, null for the checks that need none
     * @throws IllegalArgumentException when the reference shares no size with the run (bad input: exit 2)
     */
    public CheckReport check(String runName, Sweep run, Reference reference) {
        return check(runName, run, new Against(reference, null, Nics.UNKNOWN));
    }

    public CheckReport check(String runName, Sweep run, Against against) {
        List<Measurement> rows = run.rows().stream().filter(r -> SizeBusBw.of(r) != null).toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(runName + ": no size has a busbw to check");
        }
        Reference reference = against.reference();
        List<Finding> findings = new ArrayList<>();
        Curve curve = Curve.of(run);
        boolean lineRateIsTheReference = reference == null && against.expectBusBwGBps() == null;
        Measurement largest = rows.get(rows.size() - 1);
        Double line = peak(run, curve, largest, against.nics(), lineRateIsTheReference, findings);
        HardwareClass hardwareClass = HardwareClass.of(run, against.nics());
        CheckReport.Levels levels = new CheckReport.Levels(line, null, null);
        if (line != null && atBandwidthEnd(run, curve)) {
            levels = healthyFloor(hardwareClass, largest, line, findings).map(f -> new CheckReport.Levels(line,
                    f.range().busBwMinShare() * (1 - f.margin().share()) * line, f.range().key())).orElse(levels);
        } else if (line != null && curve != null && run.collective().known()) {
            floorNotJudged(run, curve, hardwareClass, findings);
        }
        latencyCeiling(run, hardwareClass, findings);
        wrong(run, findings);
        RepeatedRows.of(run).ifPresent(findings::add);
        if (!against.trimmedBySource()) {
            unfinished(run, largest, findings);
        }
        agreement(run, findings);
        average(run, findings);
        if (against.expectBusBwGBps() != null) {
            expected(rows.get(rows.size() - 1), against.expectBusBwGBps(), findings);
        }
        fall(rows, findings);
        slowerThanLarger(rows, findings);
        Set<Long> dips = dips(run, curve, reference, findings);
        Set<Long> latencyBound = new HashSet<>();
        if (reference != null) {
            latencyBound = compare(runName, run, rows, reference, findings);
        }
        List<CheckReport.SizeLine> lines = new ArrayList<>();
        for (Measurement r : rows) {
            Double b = SizeBusBw.of(r);
            Double ref = reference == null ? null : reference.busBwGBps().get(r.sizeBytes());
            Double pct = ref == null || ref <= 0 ? null : 100 * b / ref;
            Double refTime = reference == null ? null : reference.timeUs().get(r.sizeBytes());
            lines.add(new CheckReport.SizeLine(r.sizeBytes(), b, ref, pct, SizeBusBw.timeOf(r), refTime,
                    latencyBound.contains(r.sizeBytes()), dips.contains(r.sizeBytes())));
        }
        return new CheckReport(runName, run.provenance(), reference, lines, findings, Verdict.of(findings), levels);
    }

    /** The interconnect that bounds a ring's busbw: the network between domains, else the one inside. */
    static String bottleneck(Hardware hw) {
        if (hw == null) {
            return null;
        }
        // Several hosts without a stated domain count: the hosts are the domains (the usual HGX case)
        boolean multiDomain = hw.domains() != null ? hw.domains() > 1 : hw.hosts() != null && hw.hosts() > 1;
        if (multiDomain && hw.inter() != null) {
            return hw.inter();
        }
        return hw.intra() != null ? hw.intra() : hw.inter();
    }

    /**
     * The busbw at the largest size against the bottleneck's line rate. Across hosts a ring's busbw can use every
     * NIC of a host at once, so the line rate is NICs per host × one NIC's rate, and without the NIC count there
     * is nothing to compare with. As the reference (no other given) it warns below
     * {@value #HEALTHY_SHARE_OF_LINE_RATE_PCT} %; otherwise it informs, except that across hosts below
     * {@value #BROKEN_SHARE_OF_LINE_RATE_PCT} % it FAILs whatever the reference. Returns the line rate the busbw
     * was judged against, null where there is none.
     */
    private Double peak(Sweep run, Curve curve, Measurement largest, Nics nics, boolean isReference,
                        List<Finding> out) {
        double b = SizeBusBw.of(largest);
        String name = bottleneck(run.hardware());
        Optional<Interconnect> ic = name == null ? Optional.empty() : facts.interconnect(name);
        String at = String.format(Locale.ROOT, "busbw at the largest size (%s): %s GB/s", SizeText.exact(
                largest.sizeBytes()), num(b));
        if (run.ranks() != null && run.ranks() == 1) {
            out.add(new Finding(Severity.WARN, "peak", null, at + "; one rank (N = 1) communicates with nobody:"
                    + " busbw is 0 by definition and the times are a copy inside one GPU, so no link was tested; run"
                    + " on 2 or more GPUs (" + Advice.with(Setting.GPUS_PER_THREAD, 2) + ", or mpirun -np 2)"));
            return null;
        }
        if (curve == null) {
            // one size, or sizes that give no curve: nothing tells whether it is latency- or bandwidth-bound
            out.add(new Finding(isReference ? Severity.WARN : Severity.INFO, "peak", null, at + "; the run gives no"
                    + " curve (fewer than two sizes with a time), so nothing says whether this size is bound by"
                    + " latency or bandwidth, and the line rate says nothing about it" + (isReference ? "; the"
                    + " bandwidth is not judged: sweep a range of sizes (" + Advice.with(Setting.MIN_BYTES, 8) + " "
                    + Advice.with(Setting.MAX_BYTES, "8G") + " " + Advice.with(Setting.STEP_FACTOR, 2) + ")" : "")));
            return null;
        }
        if (curve.latencyOnly()) {
            out.add(new Finding(isReference ? Severity.WARN : Severity.INFO, "peak", null, at + "; every size is"
                    + " latency-bound (the largest is below the run's latency/bandwidth crossover), so the line rate"
                    + " says nothing about it" + (isReference ? "; the bandwidth is not judged: sweep to larger sizes"
                    + " (" + Advice.with(Setting.MAX_BYTES, "8G") + "), or give " + Advice.name(Setting.BASELINE)
                    : "")));
            return null;
        }
        String noReference = isReference ? "; the bandwidth is not judged: give " + references : "";
        // A gate that could not judge the bandwidth must not say PASS
        Severity unjudged = isReference ? Severity.WARN : Severity.INFO;
        boolean network = name != null && name.equals(run.hardware().inter()) && run.hardware().hosts() != null
                && run.hardware().hosts() > 1;
        // a stated NIC speed is the network's; a fabric inside a host has its own figure
        Double rate = ic.isEmpty() ? null : network ? nics.rateGBps(ic.get()) : ic.get().betaPhysGBps();
        if (rate == null) {
            out.add(new Finding(unjudged, "peak", null, at + "; no line rate to compare with ("
                    + (name == null ? "interconnect not stated: pass " + Advice.name(Setting.INTERCONNECT)
                    : name + " has no fixed figure" + (network ? ": pass " + Advice.name(Setting.NIC_SPEED)
                    + " (one NIC's, e.g. 100Gb/s)" + (nics.perHost() == null ? " and "
                    + Advice.name(Setting.NICS_PER_HOST) : "") : ""))
                    + ")" + noReference));
            return null;
        }
        double nic = rate;
        if (network && nics.perHost() == null) {
            out.add(new Finding(unjudged, "peak", null, at + "; " + ic.get().name() + " is " + num(nic) + " GB/s per NIC and the"
                    + " NICs per host are not known (pass " + Advice.name(Setting.NICS_PER_HOST) + "; a log with"
                    + " NCCL_DEBUG=INFO states them)"
                    + noReference));
            return null;
        }
        double nicsLine = network ? LineRate.networkGBps(nics.perHost(), nic) : nic;
        String nicsText = network ? String.format(Locale.ROOT, "%d %s NICs per host at %s GB/s (%s GB/s)",
                nics.perHost(), ic.get().name(), num(nic), num(nicsLine)) : null;
        String of = network ? "the line rate of " + nicsText : String.format(Locale.ROOT,
                "the line rate of %s (%s GB/s)", ic.get().name(), num(nicsLine));
        Double ceiling = network ? ceiling(run, nicsLine) : Double.valueOf(nicsLine);
        if (ceiling == null) {
            out.add(new Finding(unjudged, "peak", null, at + "; " + of + " does not bound the busbw of "
                    + run.collective().ncclName() + " (one rank's data at a time through the NICs near it)"
                    + noReference));
            return null;
        }
        double line = ceiling;
        if (line != nicsLine) {
            of = String.format(Locale.ROOT, "the %s GB/s busbw that %s carry for %s of %d GPUs in hosts of %d (only"
                    + " (N-g)/N of each rank's data leaves its host)", num(line), nicsText,
                    run.collective().ncclName(), run.ranks(), perHost(run));
        }
        double pct = 100 * b / line;
        String above = b <= line ? "" : "; above the line rate: " + LineRate.whyAbove(ic.get(), network,
                run.collective());
        // across hosts, NICs whose count and speed are known reach 0.8-0.95 of their line rate with RDMA: a
        // quarter of it is no tuning matter but a fault (a port trained at a lower speed, a NIC missing, TCP),
        // whatever else the run is compared with. A FAIL threshold the user gave holds for any line rate where the
        // line rate is the reference (with another reference, --fail-below is that reference's)
        boolean stated = isReference && rules.lineRateFailPct() != null;
        double failPct = stated ? rules.lineRateFailPct() : BROKEN_SHARE_OF_LINE_RATE_PCT;
        double warnPct = rules.lineRateWarnPct() != null ? rules.lineRateWarnPct() : HEALTHY_SHARE_OF_LINE_RATE_PCT;
        // the default only where the sweep reached its bandwidth-bound end (a sweep that stops small is slow by
        // latency); a threshold the user stated holds at the largest size, as against a baseline
        boolean broken = pct < failPct && (stated || network && atBandwidthEnd(run, curve));
        boolean low = isReference && pct < warnPct;
        String text = String.format(Locale.ROOT, "%s = %.1f %% of %s%s", at, pct, of, above)
                + (broken && stated ? String.format(Locale.ROOT, "; below %s %s %% of the line rate",
                Advice.name(Setting.FAIL_BELOW), num(failPct))
                : broken ? String.format(Locale.ROOT, "; below %s %% of the line rate across hosts is a fault, not"
                + " tuning: a port that trained at a lower speed (ibstat, ethtool), a NIC or GPUDirect path missing,"
                + " or NCCL on TCP sockets (diagnose the log of a NCCL_DEBUG=INFO run)", num(failPct))
                : low ? String.format(Locale.ROOT, "; a healthy run reaches %s %% or more (no baseline given: the"
                + " line rate is the reference)", num(warnPct)) : "");
        out.add(new Finding(broken ? Severity.FAIL : low ? Severity.WARN : Severity.INFO, "peak",
                low ? largest.sizeBytes() : null, text));
        return line;
    }

    /**
     * The busbw at the largest size as a share of the line rate it is judged against, where the sweep reached its
     * bandwidth-bound end: the figure {@link HealthyRanges} learns per hardware class.
     */
    public Optional<Double> bandwidthBoundShare(Sweep run, Nics nics) {
        List<Measurement> rows = run.rows().stream().filter(r -> SizeBusBw.of(r) != null).toList();
        Curve curve = Curve.of(run);
        if (rows.isEmpty() || curve == null) {
            return Optional.empty();
        }
        Measurement largest = rows.get(rows.size() - 1);
        Double line = peak(run, curve, largest, nics, false, new ArrayList<>());
        return line == null || !atBandwidthEnd(run, curve) ? Optional.empty()
                : Optional.of(SizeBusBw.of(largest) / line);
    }

    /**
     * The run's latency figure: its shortest time at a size below {@value #SMALL_SIZE_BELOW_BYTES} bytes (the
     * shortest, so that one slow size is not taken for the latency); empty where it has no such size.
     */
    public static Optional<Double> smallSizeTimeUs(Sweep run) {
        if (run.ranks() != null && run.ranks() < 2) {
            return Optional.empty();
        }
        return run.rows().stream().filter(r -> r.sizeBytes() > 0 && r.sizeBytes() < SMALL_SIZE_BELOW_BYTES)
                .map(SizeBusBw::timeOf).filter(t -> t != null && t > 0 && Double.isFinite(t))
                .min(Double::compare);
    }

    /**
     * The sweep reached the sizes where its busbw holds ({@link TailBandwidth}) and has levelled off there
     * ({@link TailBandwidth#levelledOff}): only then is its largest-size busbw what the hardware reaches, to be
     * set against the line rate or the saturated runs of its class. A sweep stopped while busbw still climbs is
     * compared at its own sizes (a reference's), not against saturated runs.
     */
    private static boolean atBandwidthEnd(Sweep run, Curve curve) {
        return run.collective().known() && !curve.latencyOnly()
                && TailBandwidth.of(curve.points(), run.collective().busFactor(curve.ranks())).isPresent()
                && TailBandwidth.levelledOff(curve.points());
    }

    /**
     * Says why a run with a class floor was not judged by it: its sweep ends while busbw still climbs, so the
     * floor (learned from saturated runs) does not apply at its largest size.
     */
    private void floorNotJudged(Sweep run, Curve curve, HardwareClass hardwareClass, List<Finding> out) {
        Optional<HealthyRanges.Found> found = ranges.busBw(hardwareClass);
        if (found.isEmpty() || curve.latencyOnly()) {
            return;
        }
        FitPoints p = curve.points();
        double largest = p.bytes()[p.largest()];
        out.add(Finding.info("class-floor", String.format(Locale.ROOT, "NOT-JUDGED: the sweep ends at %s while its"
                + " busbw still climbs (a size within %s octaves below it is under %.0f %% of the largest's busbw), so"
                + " the healthy floor of %s, learned from saturated runs, does not apply there; compare with a run"
                + " at the same sizes (%s) or sweep further (%s)", SizeText.exact((long) largest),
                num(TailBandwidth.OCTAVES), 100 * TailBandwidth.PLATEAU_SHARE, found.get().describe(),
                Advice.name(Setting.BASELINE), Advice.with(Setting.MAX_BYTES, "8G"))));
    }

    /**
     * The busbw at the largest size against the healthy floor of the run's hardware class (docs/sweep-and-check.md,
     * "Healthy ranges"): below the lowest share of the line rate a bundled healthy run of the class reached, less
     * the margin that keeps every bundled healthy run above it, the run FAILs whatever else it is compared with.
     */
    private Optional<HealthyRanges.Found> healthyFloor(HardwareClass hardwareClass, Measurement largest, double line,
                                                       List<Finding> out) {
        Optional<HealthyRanges.Found> found = ranges.busBw(hardwareClass);
        if (found.isEmpty()) {
            return found;
        }
        HealthyRanges.Found f = found.get();
        double share = SizeBusBw.of(largest) / line;
        double floor = f.range().busBwMinShare() * (1 - f.margin().share());
        boolean below = share < floor;
        out.add(new Finding(below ? Severity.FAIL : Severity.INFO, "class-floor", below ? largest.sizeBytes() : null,
                String.format(Locale.ROOT, "busbw at the largest size (%s) is %.1f %% of the line rate (%s GB/s), %s"
                        + " the healthy floor %.1f %% of %s (%.1f %%, the lowest of %d bundled healthy runs, less the"
                        + " %.0f %% margin)", SizeText.exact(largest.sizeBytes()), 100 * share, num(line),
                        below ? "below" : "at or above", 100 * floor, f.describe(), 100 * f.range().busBwMinShare(),
                        f.range().busBwRuns(), 100 * f.margin().share())));
        return found;
    }

    /**
     * The run's shortest time at the small sizes against the latency ceiling of its hardware class: above the
     * slowest a bundled healthy run of the class took, plus the margin, the run FAILs.
     */
    private void latencyCeiling(Sweep run, HardwareClass hardwareClass, List<Finding> out) {
        Optional<Double> t = smallSizeTimeUs(run);
        Optional<HealthyRanges.Found> found = ranges.latency(hardwareClass);
        if (t.isEmpty() || found.isEmpty()) {
            return;
        }
        HealthyRanges.Found f = found.get();
        double ceiling = f.range().latencyMaxUs() * (1 + f.margin().share());
        boolean above = t.get() > ceiling;
        out.add(new Finding(above ? Severity.FAIL : Severity.INFO, "latency-ceiling", null, String.format(Locale.ROOT,
                "shortest time below %s: %s us, %s the latency ceiling %s us of %s (%s us, the slowest of %d bundled"
                        + " healthy runs, plus the %.0f %% margin)", SizeText.exact(SMALL_SIZE_BELOW_BYTES),
                num(t.get()), above ? "above" : "within", significant(ceiling, 3), f.describe(),
                num(f.range().latencyMaxUs()), f.range().latencyRuns(), 100 * f.margin().share())));
    }

    /** The network's bound on this collective's busbw ({@link LineRate#busBwCeilingGBps}), null where none. */
    private static Double ceiling(Sweep run, double nicsLine) {
        Integer perHost = perHost(run);
        return run.ranks() == null || perHost == null ? null
                : LineRate.busBwCeilingGBps(run.collective(), run.ranks(), perHost, nicsLine);
    }

    private static Integer perHost(Sweep run) {
        Hardware hw = run.hardware();
        if (hw.domainSize() != null) {
            return hw.domainSize();
        }
        return run.ranks() != null && hw.hosts() != null && hw.hosts() > 0 && run.ranks() % hw.hosts() == 0
                ? run.ranks() / hw.hosts() : null;
    }

    /**
     * The run's times as the fits read them (derived from busbw where the source gives busbw only) and its own
     * latency/bandwidth crossover; null when the rows give fewer than two points.
     */
    private record Curve(FitPoints points, int ranks, double crossoverBytes) {

        static Curve of(Sweep run) {
            int ranks = run.ranks() != null && run.ranks() >= 2 ? run.ranks() : 2;
            FitPoints p;
            try {
                p = FitPoints.from(run, ranks);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (p.size() < 2) {
                return null;
            }
            double[] b = p.bytes();
            double[] t = p.timeUs();
            return new Curve(p, ranks, HealthCheck.crossoverBytes(b[0], t[0], b[p.largest()], t[p.largest()]));
        }

        /** The whole sweep below its own crossover: its time barely grows with the size (a small-message sweep). */
        boolean latencyOnly() {
            return points.bytes()[points.largest()] < crossoverBytes;
        }
    }

    /** {@code --expect-busbw}: the largest size against the peak a healthy run of this hardware reaches. */
    private void expected(Measurement largest, double expectGBps, List<Finding> out) {
        double b = SizeBusBw.of(largest);
        double pct = 100 * b / expectGBps;
        Severity s = pct < rules.failBelowPct() ? Severity.FAIL : pct < rules.warnBelowPct() ? Severity.WARN
                : Severity.INFO;
        out.add(new Finding(s, "expected-peak", largest.sizeBytes(), String.format(Locale.ROOT,
                "largest size %s: busbw %s GB/s is %.1f %% of the expected %s GB/s (%s)%s",
                SizeText.exact(largest.sizeBytes()), num(b), pct, num(expectGBps), Advice.name(Setting.EXPECTED_BUSBW),
                s == Severity.INFO ? ""
                        : ", below " + num(s == Severity.FAIL ? rules.failBelowPct() : rules.warnBelowPct()) + " %")));
    }

    private void wrong(Sweep run, List<Finding> out) {
        if (!rules.failOnWrong()) {
            return;
        }
        String stated = run.trailer().outOfBounds();
        boolean counted = run.rows().stream().anyMatch(r -> r.outOfPlace().hasWrongElements()
                || r.inPlace().hasWrongElements());
        // 'N/A': nothing was checked (a prediction read back), not a failed check
        if (stated != null && !stated.matches("0\\b.*") && !stated.startsWith("N/A") && !counted) {
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

    /** Sizes slower than a larger size: they took a slower path than the sizes above ({@link SlowerThanLarger}). */
    private static void slowerThanLarger(List<Measurement> rows, List<Finding> out) {
        for (SlowerThanLarger.Stretch s : SlowerThanLarger.find(rows)) {
            out.add(new Finding(Severity.WARN, "slower-than-larger", s.to(), String.format(Locale.ROOT,
                    "%s–%s take longer than %s does (up to %s us against %s us): these sizes ran a slower path than"
                            + " the larger ones (a protocol or algorithm NCCL's tuner picked wrongly for this machine, or"
                            + " a path small messages pay more for); compare runs with NCCL_PROTO=Simple and with"
                            + " NCCL_ALGO=Ring", SizeText.exact(s.from()), SizeText.exact(s.to()),
                    SizeText.exact(s.faster()), num(s.slowUs()), num(s.fastUs()))));
        }
    }

    /**
     * Numbers that were not measured on the machine being judged, whatever format they were read from: a replay
     * (a bundled run of another machine, shown where no GPU was), a run timed by a test clock (a stand-in's virtual
     * time, not the GPU's) or a prediction (a model's own curve, judged only where the user asked for it). A PASS on
     * them would pass a node that measured nothing, so the verdict is at least this WARN, and it says why; a
     * bring-up replay's steps get it too.
     */
    public static Optional<Finding> notMeasured(Sweep run) {
        SourceKind kind = run.provenance() == null ? null : run.provenance().kind();
        if (kind == SourceKind.REPLAY) {
            return Optional.of(new Finding(Severity.WARN, "replay", null, "these numbers are a replay (" + run
                    .provenance().label() + "): another machine's stored measurements, not this one's; the rules"
                    + " judge them, not this machine. Measure on the GPU node (sweep " + Advice.name(Setting.NO_REPLAY)
                    + ", or bringup without " + Advice.name(Setting.REPLAY) + ")"));
        }
        if (kind == SourceKind.PREDICTED) {
            return Optional.of(new Finding(Severity.WARN, "predicted", null, "these numbers are a prediction ("
                    + run.provenance().label() + "), not a measurement: the rules judge the model's curve, not any"
                    + " hardware"));
        }
        if (kind == SourceKind.TEST_CLOCK) {
            return Optional.of(new Finding(Severity.WARN, "test-clock", null, "these numbers were not measured ("
                    + run.provenance().label() + "): the timed loop read a test clock, not the GPU's, so the rules"
                    + " judge a stand-in's arithmetic, not any hardware. Measure with a JVM started without the test clock"));
        }
        return Optional.empty();
    }

    /**
     * A baseline whose numbers were not measured on any system being compared: a replay (another machine's stored
     * measurements) or a table a model computed. Agreeing with it shows nothing of this run's hardware, so the
     * verdict is at least this WARN, as for a replayed run ({@link #notMeasured(Sweep)}).
     */
    static Optional<Finding> notMeasured(Reference ref) {
        if (!ref.notMeasured()) {
            return Optional.empty();
        }
        String what = switch (ref.source()) {
            case REPLAY -> "a replay: another machine's stored measurements, shown where no GPU was";
            case TEST_CLOCK -> "timed by a test clock, not the GPU's: not a measurement";
            default -> "a prediction: a model's curve, not a measurement";
        };
        return Optional.of(new Finding(Severity.WARN, "reference-not-measured", null, ref.role().phrase() + " is " + what
                + "; agreeing with it says nothing of this system, so the verdict is at least WARN: compare with a run"
                + " measured on this system"));
    }

    /** A table whose times were changed after the run tells two stories: which one to check is not known. */
    private static void agreement(Sweep run, List<Finding> out) {
        TimeAlgbwAgreement.find(run.rows()).ifPresent(d -> out.add(new Finding(Severity.WARN, "time-algbw",
                d.row().sizeBytes(), d.describe() + "; take the log as nccl-tests wrote it")));
    }

    /**
     * A log whose sweep stops before the maxBytes its {@code # nThread} line states, with no closing
     * {@code # Out of bounds} / {@code # Avg bus bandwidth} lines, is of a run that did not finish (a crash, a
     * hang that was killed, a time limit) or was cut: the sizes it never reached are not healthy, only unmeasured,
     * and a gate cannot pass it. An excerpt its poster trimmed (a bundled {@code partial} dataset) is not judged so.
     */
    private static void unfinished(Sweep run, Measurement largest, List<Finding> out) {
        RunInfo info = run.run();
        if (info == null || info.maxBytes() == null || info.step() == null || run.trailer() != Trailer.NONE) {
            return;
        }
        Matcher m = STEP.matcher(info.step());
        if (!m.matches()) {
            return;
        }
        double step = Double.parseDouble(m.group(1));
        boolean factor = m.group(2).equals("factor");
        if (step <= (factor ? 1 : 0)) {
            return;
        }
        if ((factor ? largest.sizeBytes() * step : largest.sizeBytes() + step) > info.maxBytes()) {
            return;
        }
        out.add(new Finding(Severity.FAIL, "unfinished", largest.sizeBytes(), String.format(Locale.ROOT,
                "the sweep stops at %s of the %s it was started for (maxBytes), and the log has no closing"
                        + " '# Out of bounds' / '# Avg bus bandwidth' lines: the run did not finish (crashed, killed,"
                        + " out of time) or the log was cut; rerun it to the end", SizeText.exact(largest.sizeBytes()),
                SizeText.exact(info.maxBytes()))));
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

    /**
     * The curve against itself, which needs no reference: a healthy busbw rises with the size and then holds, so a
     * largest size below --warn-below % of the best busbw reached at a smaller size means large messages run slower than
     * middle ones (a throttled link, registration or GPUDirect failing for large buffers).
     */
    private void fall(List<Measurement> rows, List<Finding> out) {
        if (rows.size() < 3) {
            return;
        }
        Measurement last = rows.get(rows.size() - 1);
        Measurement best = rows.subList(0, rows.size() - 1).stream()
                .max((a, b) -> Double.compare(SizeBusBw.of(a), SizeBusBw.of(b))).orElseThrow();
        double pct = 100 * SizeBusBw.of(last) / SizeBusBw.of(best);
        if (SizeBusBw.of(best) > 0 && pct < rules.warnBelowPct()) {
            out.add(new Finding(Severity.WARN, "falls", last.sizeBytes(), String.format(Locale.ROOT,
                    "busbw at the largest size (%s) is %.0f %% of the %s GB/s reached at %s (threshold %s %%): large"
                            + " messages run slower than smaller ones", SizeText.exact(last.sizeBytes()), pct,
                    num(SizeBusBw.of(best)), SizeText.exact(best.sizeBytes()), num(rules.warnBelowPct()))));
        }
    }

    /**
     * Dips: the calibration core's glitch detector at 100/dip % on the run's times, where the run is
     * bandwidth-bound (at or above its own latency/bandwidth crossover; below it a size's busbw is a few
     * microseconds of jitter, judged on time against a reference). Not a dip: a size where the protocol envelope
     * fitted to the run itself changes protocol between the neighbours (NCCL's tuner switches there, and the
     * measured curve bends), or where the reference dips too.
     */
    private Set<Long> dips(Sweep run, Curve curve, Reference reference, List<Finding> out) {
        Set<Long> dips = new HashSet<>();
        if (curve == null || curve.points().size() < 3) {
            return dips;
        }
        FitPoints p = curve.points();
        int ranks = curve.ranks();
        double[] bytes = p.bytes();
        double[] t = p.timeUs();
        double crossover = curve.crossoverBytes();
        double factor = 100 / rules.dipPct();
        List<Glitches.Glitch> all = Glitches.aboveNeighbours(bytes, t, factor);
        // below the crossover not a verdict, but said: calibrate leaves the same sizes out of its fit as glitches
        all.stream().filter(g -> g.bytes() < crossover).forEach(g -> out.add(Finding.info("dip", String.format(
                Locale.ROOT, "%s took %.1fx the time its neighbours imply, below the run's latency/bandwidth"
                + " crossover (%s): not judged a dip there%s", SizeText.exact((long) g.bytes()), g.factor(),
                SizeText.approx(crossover), g.factor() > GlitchExclusion.NEIGHBOUR_FACTOR
                        ? " (calibrate leaves it out of its fit as a glitch)" : ""))));
        List<Glitches.Glitch> found = all.stream().filter(g -> g.bytes() >= crossover).toList();
        if (found.isEmpty()) {
            return dips;
        }
        Set<Long> referenceDips = referenceDips(reference, factor);
        ProtocolEnvelopeModel envelope = new ProtocolEnvelopeModel(run.collective(), ranks, 1);
        // The envelope is fitted without the suspect sizes: fitted with them, it bends a protocol switch into
        // the dip itself and excuses it (a dip planted at 256 MiB of a real 1024-GPU run was so excused).
        FitPoints clean = p.keep(j -> found.stream().noneMatch(g -> g.bytes() == bytes[j]));
        double[] theta = clean.size() > envelope.parameterNames().size()
                ? ProtocolEnvelopeEstimator.fitted("envelope", "dip rule", envelope).estimate(clean) : null;
        for (Glitches.Glitch g : found) {
            int i = indexOf(bytes, g.bytes());
            long size = (long) g.bytes();
            if (theta != null && envelope.chosen(bytes[i - 1], theta) != envelope.chosen(bytes[i + 1], theta)) {
                Protocol a = envelope.chosen(bytes[i - 1], theta);
                Protocol b = envelope.chosen(bytes[i + 1], theta);
                out.add(Finding.info("dip", String.format(Locale.ROOT, "%s is %.0f %% of the busbw its neighbours"
                        + " imply, at a protocol switch (%s below, %s above, by the envelope fitted to this run):"
                        + " not judged a dip", SizeText.exact(size), 100 / g.factor(), a, b)));
                continue;
            }
            if (referenceDips.contains(size)) {
                out.add(Finding.info("dip", String.format(Locale.ROOT, "%s is %.0f %% of the busbw its neighbours"
                        + " imply, as in %s: not judged a dip", SizeText.exact(size), 100 / g.factor(),
                        reference.role().phrase())));
                continue;
            }
            dips.add(size);
            out.add(new Finding(Severity.WARN, "dip", size, String.format(Locale.ROOT,
                    "dip at %s: busbw %s GB/s is %.0f %% of the %s GB/s its neighbours imply (threshold %s %%)",
                    SizeText.exact(size), num(p.busBwGBps()[i]), 100 / g.factor(),
                    significant(p.busBwGBps()[i] * g.factor(), 4),
                    num(rules.dipPct()))));
        }
        return dips;
    }

    private static Set<Long> referenceDips(Reference reference, double factor) {
        if (reference == null || reference.timeUs().size() < 3) {
            return Set.of();
        }
        double[] b = reference.timeUs().keySet().stream().mapToDouble(Long::doubleValue).toArray();
        double[] t = reference.timeUs().values().stream().mapToDouble(Double::doubleValue).toArray();
        Set<Long> out = new HashSet<>();
        Glitches.aboveNeighbours(b, t, factor).forEach(g -> out.add((long) g.bytes()));
        return out;
    }

    private static int indexOf(double[] bytes, double size) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == size) {
                return i;
            }
        }
        throw new IllegalStateException("size " + size + " not among the points");
    }

    /**
     * The size below which a curve is latency-bound: where the line through its smallest and largest points,
     * T = α + s·M, has its latency equal its bandwidth term (M* = α / s, α the line's intercept). A sweep from a
     * few bytes has α about its smallest size's time; one that starts at 1 GiB does not (its smallest time is
     * mostly bandwidth, and taking it as α called 1 GiB latency-bound).
     */
    static double crossoverBytes(double smallBytes, double smallUs, double largeBytes, double largeUs) {
        double slope = (largeUs - smallUs) / (largeBytes - smallBytes);
        return slope > 0 ? Math.max(0, smallUs - slope * smallBytes) / slope : 0;
    }

    /**
     * Every common size against the reference: latency-bound sizes (below the reference's crossover) on time,
     * the others on busbw; consecutive sizes with one cause are one finding. Returns the latency-bound sizes.
     */
    private Set<Long> compare(String runName, Sweep run, List<Measurement> rows, Reference measured,
                              List<Finding> out) {
        List<Measurement> shared = rows.stream().filter(r -> comparable(r, measured)).toList();
        // no size in common (another -f or -b): the reference read between its own sizes
        Reference ref = shared.isEmpty() && !measured.predicted()
                ? measured.interpolatedAt(rows.stream().map(Measurement::sizeBytes).toList()) : measured;
        List<Measurement> common = shared.isEmpty() ? rows.stream().filter(r -> comparable(r, ref)).toList() : shared;
        if (common.isEmpty()) {
            throw new IllegalArgumentException(runName + " and " + ref.label() + " have no size in common (run: "
                    + SizeText.exact(rows.get(0).sizeBytes()) + " .. " + SizeText.exact(rows.get(rows.size() - 1).sizeBytes())
                    + ", reference: " + SizeText.exact(measured.busBwGBps().firstKey()) + " .. "
                    + SizeText.exact(measured.busBwGBps().lastKey()) + ")");
        }
        out.add(Finding.info("reference", "compared with " + ref.role().phrase() + (ref.predicted()
                ? ", a prediction (not a measurement): " : ": ") + ref.label() + " at " + common.size() + " common sizes"));
        ref.notes().forEach(n -> out.add(Finding.info("reference", n)));
        notMeasured(ref).ifPresent(out::add);
        double crossover = crossover(ref, run, common);
        Set<Long> latencyBound = new HashSet<>();
        Ranges latency = new Ranges();
        Ranges bandwidth = new Ranges();
        for (Measurement r : common) {
            long size = r.sizeBytes();
            double refBus = ref.busBwGBps().getOrDefault(size, 0.0);
            Double refTime = ref.timeUs().get(size);
            Double runTime = timeOrDerived(r, run);
            if (refTime == null && runTime != null && refBus > 0) {
                // a busbw-only reference at the run's N: its time is the run's scaled by the busbw ratio
                refTime = runTime * SizeBusBw.of(r) / refBus;
            }
            if (size < crossover && runTime != null && runTime > 0 && refTime != null) {
                latencyBound.add(size);
                double ratio = runTime / refTime;
                latency.add(size, ratio > rules.latencyWarnFactor(), runTime, refTime, ratio);
                bandwidth.close();
            } else if (refBus > 0) {
                double pct = 100 * SizeBusBw.of(r) / refBus;
                bandwidth.add(size, pct < rules.warnBelowPct(), SizeBusBw.of(r), refBus, pct);
                latency.close();
            }
        }
        latency.close();
        bandwidth.close();
        for (Ranges.Range g : latency.ranges()) {
            out.add(new Finding(Severity.WARN, "latency", g.first(), String.format(Locale.ROOT,
                    "%s: latency %s us vs %s us of the reference (%s; %s x), above %s x", g.sizes(), g.values(),
                    g.references(), ref.role().noun(), g.ratios("%.1f"), num(rules.latencyWarnFactor()))));
        }
        for (Ranges.Range g : bandwidth.ranges()) {
            out.add(new Finding(Severity.WARN, "below-reference", g.first(), String.format(Locale.ROOT,
                    "%s: busbw %s GB/s is %s %% of the reference (%s: %s GB/s), below %s %%", g.sizes(), g.values(),
                    g.ratios("%.1f"), ref.role().noun(), g.references(), num(rules.warnBelowPct()))));
        }
        Measurement last = common.get(common.size() - 1);
        double refLast = ref.busBwGBps().getOrDefault(last.sizeBytes(), 0.0);
        if (!latencyBound.contains(last.sizeBytes()) && refLast > 0) {
            double pct = 100 * SizeBusBw.of(last) / refLast;
            if (pct < rules.failBelowPct()) {
                // Another cluster's run of the same hardware differs by its NCCL version, settings and NICs (up to
                // 3x among the bundled runs): it can warn, and only a reference the user vouches for can fail.
                boolean peer = ref.role().bundledPeer();
                out.add(new Finding(peer ? Severity.WARN : Severity.FAIL, "largest-below-reference", last.sizeBytes(),
                        String.format(Locale.ROOT, "largest common size %s: busbw %s GB/s is %.1f %% of the reference"
                                + " (%s: %s GB/s), below %s %%%s", SizeText.exact(last.sizeBytes()), num(SizeBusBw.of(last)),
                                pct, ref.role().noun(), num(refLast), num(rules.failBelowPct()), peer ? " (" + ref.role().noun() + ":"
                                        + " WARN; " + references + " can FAIL)" : "")));
            }
        }
        return latencyBound;
    }

    /** The run's time at a size, or where the source gives busbw only, the time it implies at the run's N. */
    private static Double timeOrDerived(Measurement r, Sweep run) {
        Double t = SizeBusBw.timeOf(r);
        if (t != null && t > 0) {
            return t;
        }
        Double b = SizeBusBw.of(r);
        Integer n = run.ranks();
        return b != null && b > 0 && n != null && n >= 2 ? run.collective().timeUs(r.sizeBytes(), b, n) : null;
    }

    /** A size both sides have: a time on each, or a reference busbw above 0 to take a ratio of. */
    private static boolean comparable(Measurement r, Reference ref) {
        boolean times = SizeBusBw.timeOf(r) != null && ref.timeUs().containsKey(r.sizeBytes());
        return times || ref.busBwGBps().getOrDefault(r.sizeBytes(), 0.0) > 0;
    }

    /** The reference's latency/bandwidth crossover; for a busbw-only reference, the run's own. */
    private static double crossover(Reference ref, Sweep run, List<Measurement> common) {
        if (ref.timeUs().size() >= 2) {
            var first = ref.timeUs().firstEntry();
            var last = ref.timeUs().lastEntry();
            return crossoverBytes(first.getKey(), first.getValue(), last.getKey(), last.getValue());
        }
        Measurement a = common.get(0);
        Measurement b = common.get(common.size() - 1);
        Double ta = timeOrDerived(a, run);
        Double tb = timeOrDerived(b, run);
        return ta == null || tb == null || a == b ? 0 : crossoverBytes(a.sizeBytes(), ta, b.sizeBytes(), tb);
    }

    /** {@code digits} significant digits, no trailing zeros: a figure derived from others, not one printed. */
    static String significant(double x, int digits) {
        return new java.math.BigDecimal(x).round(new java.math.MathContext(digits)).stripTrailingZeros()
                .toPlainString();
    }

    /** Numbers as %g prints them: no trailing zeros, six significant digits. */
    static String num(double v) {
        return org.ncclharness.calibration.format.CFormat.g(v);
    }
}
