package org.ncclharness.harness.bench;

import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench envelope}: how long one protocol-envelope fit takes, and one fit with leave-one-out, over every
 * bundled dataset with at least 21 points (3k + 3 for the envelope's six parameters).
 */
@Command(name = "envelope", addMethodSubcommands = false,
        description = "Time the protocol-envelope fit (one fit, and one fit with leave-one-out) on the bundled datasets.")
public final class EnvelopeBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    private static final int HOPS = 2;

    @Option(names = "--repeat", paramLabel = "N", description = "warm repetitions (default ${DEFAULT-VALUE})")
    int repeat = 10;

    @Override
    public Integer call() {
        List<ProtocolEnvelopeEstimator> estimators = new ArrayList<>();
        List<FitPoints> points = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            Integer n = d.sweep().hardware().ranks();
            if (n == null || n < 2 || d.metadata().hasFlag("mixed-configurations")) {
                continue;
            }
            FitPoints p = FitPoints.from(d.sweep(), n);
            if (p.size() >= Fitter.leaveOneOutMinimum(6)) {
                points.add(p);
                estimators.add(ProtocolEnvelopeEstimator.fitted("envelope", "bench",
                        new ProtocolEnvelopeModel(d.collective(), n, HOPS)));
            }
        }
        double[] one = new double[Math.max(1, repeat)];
        double[] loo = new double[one.length];
        for (int r = 0; r < one.length; r++) {
            long s = System.nanoTime();
            for (int i = 0; i < points.size(); i++) {
                estimators.get(i).estimate(points.get(i));
            }
            one[r] = (System.nanoTime() - s) / 1e6 / points.size();
            s = System.nanoTime();
            for (int i = 0; i < points.size(); i++) {
                Fitter.fit(estimators.get(i), points.get(i), List.of());
            }
            loo[r] = (System.nanoTime() - s) / 1e6 / points.size();
        }
        Arrays.sort(one);
        Arrays.sort(loo);
        System.out.printf(Locale.ROOT, "bench envelope: %d datasets with >= 21 points, %d runs%n", points.size(),
                one.length);
        System.out.printf(Locale.ROOT, "  one fit: median %.2f ms per dataset (min %.2f, max %.2f)%n",
                one[one.length / 2], one[0], one[one.length - 1]);
        System.out.printf(Locale.ROOT, "  fit with leave-one-out: median %.1f ms per dataset (min %.1f, max %.1f)%n",
                loo[loo.length / 2], loo[0], loo[loo.length - 1]);
        System.out.flush();
        return ExitCode.OK;
    }
}
