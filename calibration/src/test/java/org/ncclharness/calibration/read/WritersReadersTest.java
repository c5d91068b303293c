package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.SweepJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The writers never emit what the readers refuse: any measurement the records hold (any finite non-negative
 * value, a missing one, the largest size a long holds, an error column or a #wrong one) reads back identical
 * through the CSV and the JSON, one table or several, with its collective where the writer knew it.
 */
class WritersReadersTest {

    private static Double value(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> null;
            case 1 -> 0.0;
            case 2 -> Double.MAX_VALUE;
            case 3 -> Double.MIN_VALUE;
            default -> Math.abs(r.nextGaussian()) * Math.pow(10, r.nextInt(40) - 20);
        };
    }

    private static Half half(Random r, boolean error) {
        Double check = value(r);
        return new Half(value(r), value(r), value(r), error ? null : check == null ? null : (double) Math.round(check % 1e6),
                error ? check : null);
    }

    private static Sweep sweep(Random r, Collective c) {
        List<Measurement> rows = new ArrayList<>();
        boolean error = r.nextBoolean();
        for (int i = 0, n = 1 + r.nextInt(8); i < n; i++) {
            long size = r.nextInt(4) == 0 ? Long.MAX_VALUE : (long) (r.nextDouble() * Long.MAX_VALUE / 2) + i;
            rows.add(new Measurement(size, r.nextLong() >>> 1, "float", r.nextBoolean() ? "sum" : "none",
                    r.nextInt(3) - 1, half(r, error), half(r, error)));
        }
        return new Sweep(Provenance.stored("w"), c, RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
    }

    @Property(tries = 150)
    void anyMeasurementReadsBackIdenticalThroughCsvAndJson(@ForAll long seed) {
        Random r = new Random(seed);
        Collective[] known = {Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.ALL_TO_ALL, Collective.UNKNOWN};
        List<Sweep> tables = new ArrayList<>();
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            tables.add(sweep(r, known[r.nextInt(known.length)]));
        }
        List<Measurement> all = new ArrayList<>();
        tables.forEach(t -> all.addAll(t.rows()));
        assertThat(MeasurementCsv.read("w.csv", MeasurementCsv.toString(tables))).isEqualTo(all);
        List<SweepJson.Read> back = SweepJson.readAll("w.json", SweepJson.writeAll(tables));
        assertThat(back).hasSameSizeAs(tables);
        for (int i = 0; i < tables.size(); i++) {
            assertThat(back.get(i).sweep().rows()).isEqualTo(tables.get(i).rows());
            // a collective the writer knew stays; one it did not know is decided again from the rows, as a CSV's is
            Collective c = tables.get(i).collective();
            assertThat(back.get(i).sweep().collective()).isEqualTo(c.known() ? c
                    : CollectiveEvidence.decide(null, null, null, tables.get(i).rows(), true, true).collective());
        }
    }
}
