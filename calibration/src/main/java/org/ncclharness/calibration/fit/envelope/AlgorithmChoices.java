package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;

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

    /**
     * One change of the envelope's pick, at {@code bytes} (the nccl-tests size): the first size that takes {@code to}.
     *
     * @param from the pick below, as the report names it ({@code Tree/LL}, {@code LL128})
     * @param to   the pick from {@code bytes} on
     */
    public record Switch(double bytes, String from, String to) {
    }

    /**
     * Where an envelope model changes its pick within a run's sizes, ascending: a protocol envelope's switch points
     * as it computes them, an algorithm envelope's to the byte between the measured sizes either side (its pick is
     * a minimum over candidates, so it is found by bisection); none for a model that picks nothing.
     */
    public static List<Switch> switches(CostModel model, double[] theta, double[] sizesAscending) {
        if (sizesAscending.length == 0) {
            return List.of();
        }
        double lo = sizesAscending[0];
        double hi = sizesAscending[sizesAscending.length - 1];
        return model.accept(new OtherwiseVisitor<List<Switch>>() {
            @Override
            public List<Switch> protocolEnvelope(ProtocolEnvelopeModel m) {
                return m.switchPoints(theta).stream().filter(x -> x.bytes() > lo && x.bytes() <= hi)
                        .map(x -> new Switch(x.bytes(), x.from().name(), x.to().name())).toList();
            }

            @Override
            public List<Switch> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                List<Switch> out = new ArrayList<>();
                for (int i = 1; i < sizesAscending.length; i++) {
                    String from = m.chosen(sizesAscending[i - 1], theta).label();
                    String to = m.chosen(sizesAscending[i], theta).label();
                    if (!from.equals(to)) {
                        out.add(new Switch(firstTaking(m, theta, from, sizesAscending[i - 1], sizesAscending[i]),
                                from, to));
                    }
                }
                return out;
            }

            @Override
            protected List<Switch> otherwise(CostModel m) {
                return List.of();
            }
        });
    }

    /** The smallest whole size in (below, above] whose pick is no longer {@code from}. */
    private static double firstTaking(AlgorithmEnvelopeModel m, double[] theta, String from, double below,
                                      double above) {
        long a = (long) below;
        long b = (long) above;
        while (b - a > 1) {
            long mid = a + (b - a) / 2;
            if (m.chosen(mid, theta).label().equals(from)) {
                a = mid;
            } else {
                b = mid;
            }
        }
        return b;
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
