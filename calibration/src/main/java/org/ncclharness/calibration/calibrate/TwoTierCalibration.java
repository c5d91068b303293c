package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.hardware.LineRate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.fit.twotier.Fabric;
import org.ncclharness.calibration.fit.twotier.InterDomainBandwidth;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;

/**
 * A multi-domain calibration (issue 4): every family that applies fitted to one dataset ({@value #KIND}) or jointly
 * to runs of the same hardware at several configurations ({@value #JOINT}, one entry whose parameters hold for all).
 * Both two-tier forms describe AllReduce only; another collective's entry holds the protocol-aware families alone
 * ({@link #fits} empty).
 *
 * @param members        dataset ids or files fitted (one for {@value #KIND})
 * @param runs           their points and configurations
 * @param halves         which half each run's times come from
 * @param timeDerived    some times were derived from busbw (the source gives busbw only)
 * @param fabric         the intra-domain fabric (β_NV, hops) from the hardware facts
 * @param inter          the inter-domain fabric named by the metadata or {@code --inter}, null when unknown
 * @param nicGBps        one NIC's physical rate from the hardware facts, null when the fabric or its rate is unknown
 * @param nicsPerDomain  NICs per host × hosts per domain where the metadata states it, else null
 * @param fits           hierarchical then flat ring; empty for a collective other than AllReduce
 * @param grids          the reference grid search of each form, same order; empty unless {@code calibrate --grid}
 * @param better         the form the data support better; empty when they are within 1 % of each other or
 *                       when no form was fitted
 * @param protocolFits   the protocol-aware families fitted beside the two-tier forms (envelope as an effective
 *                       single tier, algorithm envelope); empty where the data cannot determine them
 * @param choice         the family predictions use, picked among all of them by leave-one-out
 * @param notes          what a reader must know (priors used, derived times, ...)
 */
public record TwoTierCalibration(DatasetInfo dataset, String kind, List<String> members, List<TwoTierRun> runs,
                                 List<Placement> halves, boolean timeDerived, Fabric fabric, String inter,
                                 Double nicGBps, Integer nicsPerDomain, List<TwoTierFit> fits,
                                 List<GridFit> grids, Optional<TwoTierForm> better, List<Fit> protocolFits,
                                 ModelChoice choice, List<Note> notes) implements CalibrationEntry {

    public static final String KIND = "two-tier";
    public static final String JOINT = "joint";

    public TwoTierCalibration {
        members = List.copyOf(members);
        runs = List.copyOf(runs);
        halves = List.copyOf(halves);
        fits = List.copyOf(fits);
        grids = List.copyOf(grids);
        protocolFits = List.copyOf(protocolFits);
        notes = List.copyOf(notes);
    }

    /** The form's fit; empty where the two-tier forms were not fitted (a collective other than AllReduce). */
    public Optional<TwoTierFit> fit(TwoTierForm form) {
        return fits.stream().filter(f -> f.form() == form).findFirst();
    }

    /** The collective every member ran. */
    public Collective collective() {
        return Collective.byName(dataset.collective()).orElseThrow();
    }

    public TwoTierCalibration withNotes(List<Note> n) {
        return new TwoTierCalibration(dataset, kind, members, runs, halves, timeDerived, fabric, inter, nicGBps,
                nicsPerDomain, fits, grids, better, protocolFits, choice, n);
    }

    public Optional<Fit> protocolFit(String name) {
        return protocolFits.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /**
     * The two-tier form a prediction with two tiers should use: the better form, else (a tie) the lower score of
     * the two; empty where no form was fitted.
     */
    public Optional<TwoTierFit> best() {
        return better.flatMap(this::fit).or(() -> fits.stream()
                .min((a, b) -> Double.compare(a.comparisonPct(), b.comparisonPct())));
    }

    /**
     * The highest busbw any multi-domain run measured, where it stands above what the network carries of this
     * collective between domains ({@link LineRate#busBwCeilingGBps}: for a ring every NIC of a domain at its line
     * rate); empty where it does not, or where the NIC count or rate is not known. Above it, for a reduction, an
     * in-network reduction (NVLS, SHARP) or a tree carried the data, which the ring forms cannot represent.
     */
    public OptionalDouble busBwAboveNetworkLineRateGBps() {
        double above = 0;
        for (TwoTierRun r : runs) {
            Double ceiling = ceilingGBps(r);
            if (ceiling == null) {
                continue;
            }
            for (int i = 0; i < r.bytes().length; i++) {
                double bus = collective().busBwGBps(r.bytes()[i], r.timeUs()[i], r.config().ranks());
                above = bus > ceiling ? Math.max(above, bus) : above;
            }
        }
        return above > 0 ? OptionalDouble.of(above) : OptionalDouble.empty();
    }

    /** The NICs of a domain together: NICs per domain x one NIC's rate, null where either is not known. */
    public Double networkLineRateGBps() {
        return LineRate.networkGBps(nicsPerDomain, nicGBps);
    }

    /**
     * What those NICs carry of this collective's busbw at the first configuration across domains
     * ({@link LineRate#busBwCeilingGBps}: the line rate for a ring, less for AllToAll), null where not known or
     * not bounded so.
     */
    public Double busBwCeilingGBps() {
        return runs.stream().filter(r -> r.config().domains() > 1).findFirst().map(this::ceilingGBps).orElse(null);
    }

    private Double ceilingGBps(TwoTierRun r) {
        return r.config().domains() < 2 ? null : LineRate.busBwCeilingGBps(collective(), r.config().ranks(),
                r.config().gpusPerDomain(), networkLineRateGBps());
    }

    /** β_IB per domain, per GPU and per NIC of one fitted form, at the first multi-domain configuration. */
    public InterDomainBandwidth interDomain(TwoTierFit form) {
        TwoTierRun run = runs.stream().filter(r -> r.config().domains() > 1).findFirst().orElse(runs.get(0));
        return InterDomainBandwidth.of(form.params().betaIbGBps(), run.config(), nicsPerDomain, nicGBps);
    }
}
