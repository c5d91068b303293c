package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;

/**
 * What the algorithm envelope takes over a run's sizes, as ranges: {@code Tree/LL 8 B-32 KiB, Ring/LL128
 * 64 KiB-4 MiB, Ring/Simple 8 MiB-8 GiB}, so the report shows which of NCCL's choices the fit stands for.
 */
public final class AlgorithmChoices {

    private AlgorithmChoices() {
    }

    /** The ranges an algorithm envelope takes each pick over; empty for a model that picks no algorithm. */
    public static Optional<String> of(CostModel model, double[] theta, double[] sizesAscending) {
        return model.accept(new OtherwiseVisitor<Optional<String>>() {
            @Override
            public Optional<String> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                return Optional.of(describe(m, theta, sizesAscending));
            }

            @Override
            protected Optional<String> otherwise(CostModel m) {
                return Optional.empty();
            }
        });
    }

    private static String describe(AlgorithmEnvelopeModel m, double[] theta, double[] sizesAscending) {
        List<String> out = new ArrayList<>();
        String current = null;
        double from = 0;
        double last = 0;
        for (double b : sizesAscending) {
            String c = m.chosen(b, theta).label();
            if (!c.equals(current)) {
                if (current != null) {
                    out.add(range(current, from, last));
                }
                current = c;
                from = b;
            }
            last = b;
        }
        if (current != null) {
            out.add(range(current, from, last));
        }
        return String.join(", ", out);
    }

    private static String range(String choice, double from, double to) {
        return choice + " " + SizeText.approx(from) + (from == to ? "" : "-" + SizeText.approx(to));
    }
}
