package org.ncclharness.harness.predict;

import org.ncclharness.harness.options.PredictionSourceOptions;
import java.util.Optional;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.harness.options.HelpOptions;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.predict.OtherCollective;
import org.ncclharness.calibration.predict.PredictedSweep;
import org.ncclharness.calibration.predict.Prediction;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.Sizes;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import org.ncclharness.harness.options.CountConverter;
import picocli.CommandLine.Option;

/** {@code predict}: collective times from a calibrated model, printed in nccl-tests' layout and labelled. */
@Command(name = "predict", addMethodSubcommands = false, sortOptions = false,
        description = {"Predict collective times from a cost model. The output is nccl-tests' table under a"
                + " '# predicted by <model> from <source>' line (never a measurement; 'convert' reads it back), or"
                + " with --bytes one answer with its latency and bandwidth terms, the chosen algorithm/protocol and"
                + " the Ring/Tree alternative.",
            "Sizes: -b/-e take K, M, G (powers of 1024, as nccl-tests; default -b 1K -e 8G -f 2); --bytes also takes"
                + " KB, MB, GB (powers of 1000).",
            "Configurations or sizes outside what was calibrated are named in '#' lines."})
public final class PredictCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "smallest size (default 1K)")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "largest size (default 8G)")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", description = "multiply the size by F (default 2)")
    Long stepFactor;

    @Option(names = "--bytes", paramLabel = "SIZE", description = "one size: 14GB, 13GiB, 1M, 4096")
    String bytes;

    @Mixin
    PredictionSourceOptions source;

    @Option(names = "--model", paramLabel = "NAME", description = "the model to use (default: the best, lowest"
            + " leave-one-out RMSPE): B, B+beta, A, naive, envelope, nccl, ...")
    String model;

    @Option(names = "--gpus", paramLabel = "N", converter = CountConverter.class,
            description = "predict at N GPUs instead of the calibrated N")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "D", converter = CountConverter.class,
            description = "predict at D nodes (for a two-tier model: D NVLink domains of the calibrated domain size)")
    Integer nodes;

    @Option(names = "--collective", paramLabel = "NAME",
            description = "predict another collective with the calibrated parameters (allgather, reducescatter,"
                    + " broadcast, reduce, alltoall, ...): its own steps and bytes, the envelopes' per-hop, per-step"
                    + " and per-byte parameters carried over (the envelope and algorithms models only)")
    String collective;

    @Override
    public Integer call() {
        PredictionModel pm = resolve();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        if (bytes != null) {
            if (minBytes != null || maxBytes != null || stepFactor != null) {
                throw usage("--bytes predicts one size; drop -b/-e/-f or drop --bytes");
            }
            one(out, pm, size(bytes, "--bytes"));
        } else {
            List<Long> sizes = sizes();
            double[] s = sizes.stream().mapToDouble(Long::doubleValue).toArray();
            List<String> heading = new ArrayList<>();
            heading.add(PredictedSweep.heading(pm));
            pm.notesFor(s).forEach(n -> heading.add("# " + n));
            Hardware hw = new Hardware(null, pm.ranks(), pm.calibratedNodes(), null, null, null, null);
            NcclTestsTableWriter.write(out, PredictedSweep.of(pm, sizes, hw), heading);
        }
        out.flush();
        return ExitCode.OK;
    }

    private PredictionModel resolve() {
        PredictionModel pm = source.resolve("predict", model, gpus, nodes);
        if (collective == null) {
            return pm;
        }
        Collective c = Collective.byName(collective).filter(Collective::known).orElseThrow(() -> usage(
                "--collective: unknown collective '" + collective + "'; one of " + String.join(", ",
                        java.util.Arrays.stream(Collective.values()).filter(Collective::known)
                                .map(Collective::cliName).toList())));
        try {
            return OtherCollective.of(pm, c);
        } catch (IllegalArgumentException e) {
            throw usage("--collective " + c.cliName() + ": " + e.getMessage());
        }
    }

    private List<Long> sizes() {
        long lo = minBytes == null ? 1L << 10 : size(minBytes, "-b");
        long hi = maxBytes == null ? 8L << 30 : size(maxBytes, "-e");
        try {
            return Sizes.series(lo, hi, stepFactor == null ? 2 : stepFactor);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private static long size(String text, String flag) {
        try {
            return Sizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw usage(flag + ": " + e.getMessage());
        }
    }

    private static HarnessException usage(String msg) {
        return PredictionSourceOptions.usage("predict", msg);
    }

    private static void one(PrintWriter out, PredictionModel pm, long size) {
        Prediction p = Prediction.of(pm, size);
        out.println(PredictedSweep.heading(pm));
        pm.notesFor(new double[] {size}).forEach(n -> out.println("# " + n));
        out.printf(Locale.ROOT, "%s of %d bytes (%s) on %d GPUs: %s%n", pm.collective().ncclName(), size,
                SizeText.approx(size), pm.ranks(), time(p.timeUs()));
        out.printf(Locale.ROOT, "  latency term   : %s%n", time(p.latencyUs()));
        out.printf(Locale.ROOT, "  bandwidth term : %s%n", time(p.bandwidthUs()));
        // the alternative is an ideal formula beside the model, not the model: where it is faster, the model's own
        // algorithm is its form, and NCCL's tuner would likely run the other one at this size
        boolean otherFaster = p.alternative().filter(a -> a.timeUs() < p.timeUs()).isPresent();
        out.printf(Locale.ROOT, "  algorithm      : %s%s, protocol: %s%n", p.algorithm(), otherFaster
                        ? " (the model's form; " + p.alternative().get().algorithm() + " below is faster at this size,"
                        + " so NCCL may run " + p.alternative().get().algorithm() + " here)" : "",
                p.protocol().orElse("not modelled (one bandwidth for every protocol)"));
        if (p.alternative().isPresent()) {
            Prediction.Alternative a = p.alternative().get();
            out.printf(Locale.ROOT, "  alternative    : %s would take %s (%s)%n", a.algorithm(), time(a.timeUs()),
                    a.basis());
            out.println("  Ring/Tree      : " + a.crossover());
        } else {
            out.println("  alternative    : " + candidates(pm.model()).map(c -> "none faster: the model takes the"
                    + " fastest of " + c + " at each size (calibrate --verbose lists which, per size range)")
                    .orElse("not modelled by " + pm.name() + (pm.collective() == Collective.ALL_REDUCE ? ""
                    : " for " + pm.collective().testName())));
        }
    }

    /** The algorithms and protocols a model takes the fastest of, where it has no other to name beside its pick. */
    private static Optional<String> candidates(CostModel model) {
        return model.accept(new OtherwiseVisitor<Optional<String>>() {
            @Override
            public Optional<String> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                return Optional.of(m.whyNoTree().map(why -> "Ring (" + why + ")").orElse("Ring/Tree")
                        + (m.ll128() ? " x LL/LL128/Simple" : " x LL/Simple"));
            }

            @Override
            protected Optional<String> otherwise(CostModel m) {
                return Optional.empty();
            }
        });
    }

    /** A time with a unit a person reads at a glance, and the exact µs. */
    static String time(double us) {
        if (us >= 1e5) {
            return String.format(Locale.ROOT, "%.6g s (%.1f us)", us / 1e6, us);
        }
        if (us >= 1e3) {
            return String.format(Locale.ROOT, "%.6g ms (%.1f us)", us / 1e3, us);
        }
        return String.format(Locale.ROOT, "%.4g us", us);
    }
}
