package org.ncclharness.harness.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench read}: the heap a reader needs per stored row. A synthetic log of N rows ({@link DenseLog}), the
 * CSV and the JSON of the same rows, each read as {@code convert} reads it ({@link Inputs#read}); for each, the
 * peak heap in use during the read (garbage not yet collected included, so an upper bound that depends on the
 * collector) and the heap the rows still hold once it is done, per 100,000 rows.
 */
@Command(name = "read", addMethodSubcommands = false,
        description = "Peak and retained heap per 100,000 rows when reading a log, a CSV and a JSON of N rows.")
public final class ReadBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--rows", paramLabel = "N", description = "rows in each file (default ${DEFAULT-VALUE})")
    int rows = 100_000;

    @Override
    public Integer call() throws IOException {
        Path dir = Files.createTempDirectory("bench-read");
        try {
            Dataset from = DenseLog.source(DatasetCatalog.bundled().all());
            Path log = dir.resolve("rows.log");
            DenseLog.write(from, rows, log, "bench read");
            List<Sweep> sweeps = Inputs.read(log.toString());
            Path csv = dir.resolve("rows.csv");
            Files.writeString(csv, MeasurementCsv.toString(sweeps), StandardCharsets.UTF_8);
            Path json = dir.resolve("rows.json");
            Files.writeString(json, SweepJson.writeAll(sweeps), StandardCharsets.UTF_8);
            sweeps = null;
            System.out.printf(Locale.ROOT, "bench read: %,d rows from bundled dataset %s (synthetic sizes), max heap"
                    + " %d MiB, %d CPUs%n", rows, from.metadata().id(), Runtime.getRuntime().maxMemory() >> 20,
                    Runtime.getRuntime().availableProcessors());
            for (Path p : List.of(log, csv, json)) {
                measure(p);
            }
            System.out.flush();
            return ExitCode.OK;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(ReadBench::delete);
            }
        }
    }

    private void measure(Path file) throws IOException {
        long base = liveHeap();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long t0 = System.nanoTime();
        List<Sweep> read = Inputs.read(file.toString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() - base;
        long held = liveHeap() - base;
        int n = read.stream().mapToInt(s -> s.rows().size()).sum();
        String name = file.getFileName().toString();
        System.out.printf(Locale.ROOT, "  %-4s %,d bytes, %,d rows in %.2f s: peak heap %.1f MiB (%.1f MiB per 100,000"
                + " rows), held after %.1f MiB (%d bytes a row)%n", name.substring(name.indexOf('.') + 1),
                Files.size(file), n, seconds, peak / 1048576.0, peak / 1048576.0 * 100_000 / n, held / 1048576.0,
                held / n);
        if (read.isEmpty()) {
            throw new IllegalStateException("no rows read"); // keeps `read` reachable until `held` is measured
        }
    }

    /** Heap in use after a full collection: what is reachable. */
    private static long liveHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
