package org.ncclharness.harness.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * A timing input for {@code bench calibrate}, not a measurement: an {@code -i} style sweep of many sizes whose
 * times are read off a bundled float AllReduce run by log-log interpolation between its measured neighbours.
 * Its heading says so, so the file can never pass for a log.
 */
final class DenseLog {

    private DenseLog() {
    }

    /**
     * The bundled float AllReduce inside one NVLink domain, with its GPU count and interconnect stated, that has
     * the most timed sizes (the log's calibration then needs {@code --gpus} and {@code --interconnect} only).
     */
    static Dataset source(List<Dataset> bundled) {
        return bundled.stream()
                .filter(d -> d.metadata().collective().equals("all_reduce") && d.metadata().gpus() != null)
                .filter(d -> d.metadata().inter() == null && d.metadata().intra() != null)
                .filter(d -> d.rows().stream().allMatch(r -> r.outOfPlace().timeUs() != null && r.outOfPlace().timeUs() > 0))
                .filter(d -> d.rows().stream().allMatch(r -> r.type().equals("float")))
                .max(Comparator.comparingInt((Dataset d) -> d.rows().size()).thenComparing(d -> d.metadata().id()))
                .orElseThrow(() -> new IllegalStateException("no bundled float AllReduce run with times"));
    }

    /** Writes {@code sizes} evenly spaced sizes (multiples of 4 bytes) over the run's range to {@code file}. */
    static void write(Dataset from, int sizes, Path file) throws IOException {
        write(from, sizes, file, "bench calibrate");
    }

    /** As {@link #write(Dataset, int, Path)}, its heading naming the bench it is an input of. */
    static void write(Dataset from, int sizes, Path file, String bench) throws IOException {
        Sweep run = from.sweep();
        List<Measurement> rows = run.rows().stream().filter(r -> r.sizeBytes() >= 4)
                .sorted(Comparator.comparingLong(Measurement::sizeBytes)).toList();
        long min = rows.get(0).sizeBytes();
        long max = rows.get(rows.size() - 1).sizeBytes();
        long step = Math.max(4, (max - min) / (sizes - 1) / 4 * 4);
        int ranks = from.metadata().gpus();
        double busFactor = run.collective().busFactor(ranks);
        List<Measurement> dense = new ArrayList<>(sizes);
        int j = 0;
        for (int k = 0; k < sizes; k++) {
            long size = min + k * step;
            while (j + 2 < rows.size() && rows.get(j + 1).sizeBytes() < size) {
                j++;
            }
            Measurement a = rows.get(j);
            Measurement b = rows.get(Math.min(j + 1, rows.size() - 1));
            double t = interpolate(a.sizeBytes(), a.outOfPlace().timeUs(), b.sizeBytes(), b.outOfPlace().timeUs(), size);
            double alg = size / 1e3 / t;
            Half h = new Half(t, alg, alg * busFactor, 0.0);
            dense.add(new Measurement(size, size / 4, "float", "sum", -1, h, h));
        }
        Sweep out = new Sweep(run.provenance(), run.collective(), run.run(), run.hardware(), run.devices(), dense,
                List.of());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))) {
            NcclTestsTableWriter.write(w, out, List.of("# SYNTHETIC timing input for " + bench + ", not a measurement: "
                    + sizes + " sizes interpolated (log-log) from bundled dataset " + from.metadata().id()));
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static double interpolate(long x0, double y0, long x1, double y1, long x) {
        if (x1 == x0) {
            return y0;
        }
        double w = (Math.log(x) - Math.log(x0)) / (Math.log(x1) - Math.log(x0));
        return Math.exp(Math.log(y0) + w * (Math.log(y1) - Math.log(y0)));
    }
}
