package org.ncclharness.gpu;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The timed loop's clock: the steady clock ({@link System#nanoTime}), as nccl-tests' host timer. One test seam, off
 * unless the JVM is started with {@code -Dnccl-harness.loop-clock-file=FILE}: the clock is then the 8 bytes of FILE
 * (nanoseconds, native byte order) that the test-only CUDA/NCCL stand-ins advance by each launch's virtual cost, so
 * an integration test's verdicts on speed (a slow host, a drop below a baseline) do not depend on how fast or loaded
 * the machine running it is.
 */
final class LoopClock {

    static final String FILE_PROPERTY = "nccl-harness.loop-clock-file";

    private LoopClock() {
    }

    static LongSupplier fromSystem() {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null) {
            return System::nanoTime;
        }
        // the outputs say so too (TimedLoop.testClock): this line is for whoever watches the terminal
        // never silent: times from this clock are a stand-in's arithmetic, and a user who set the property by
        // mistake must not take them for measurements
        System.err.println("nccl-harness: the timed loop reads the test clock in " + file + " (-D" + FILE_PROPERTY
                + "): its times are not measured");
        return mapped(file);
    }

    /** What the timed loop's clock is where it is not the steady one: {@code the clock in FILE (-D...)}. */
    static Optional<String> testClock() {
        String file = System.getProperty(FILE_PROPERTY);
        return file == null ? Optional.empty() : Optional.of("the clock in " + file + " (-D" + FILE_PROPERTY + ")");
    }

    /** The clock in {@code file}, which the stand-in may not have made yet: either side makes it 8 bytes long. */
    static LongSupplier mapped(String file) {
        try (RandomAccessFile f = new RandomAccessFile(file, "rw"); FileChannel ch = f.getChannel()) {
            if (f.length() < Long.BYTES) {
                f.setLength(Long.BYTES);
            }
            MappedByteBuffer clock = ch.map(FileChannel.MapMode.READ_ONLY, 0, Long.BYTES);
            clock.order(ByteOrder.nativeOrder());
            return () -> clock.getLong(0);
        } catch (IOException e) {
            throw new UncheckedIOException("-D" + FILE_PROPERTY + "=" + file + ": cannot map the clock", e);
        }
    }
}
