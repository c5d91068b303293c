package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timed loop's clock: the steady one, or (the stand-ins' seam) the one another party keeps in a file. */
class LoopClockTest {

    @Test
    void withoutThePropertyTheLoopReadsTheSteadyClock() {
        assertThat(System.getProperty(LoopClock.FILE_PROPERTY)).isNull();
        LongSupplier clock = LoopClock.fromSystem();
        long before = System.nanoTime();
        long read = clock.getAsLong();
        assertThat(read).isBetween(before, System.nanoTime());
    }

    @Test
    void aClockFileIsMadeEightBytesLongAndReadAsTheWriterAdvancesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("clock");
        LongSupplier clock = LoopClock.mapped(file.toString());
        assertThat(Files.size(file)).isEqualTo(8);
        assertThat(clock.getAsLong()).isZero();
        // the stand-in's side: its own mapping of the same file, written in native byte order
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw"); FileChannel ch = f.getChannel()) {
            MappedByteBuffer writer = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8);
            writer.order(ByteOrder.nativeOrder());
            writer.putLong(0, 123_456_789_012L);
            assertThat(clock.getAsLong()).isEqualTo(123_456_789_012L);
            writer.putLong(0, 123_456_789_999L);
            assertThat(clock.getAsLong()).isEqualTo(123_456_789_999L);
        }
    }

    @Test
    void aClockTheWriterMadeFirstKeepsItsTime(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("clock");
        byte[] seven = java.nio.ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(7_000).array();
        Files.write(file, seven);
        assertThat(LoopClock.mapped(file.toString()).getAsLong()).isEqualTo(7_000);
    }

    @Test
    void aClockThatCannotBeMadeSaysWhichFile(@TempDir Path dir) {
        String missing = dir.resolve("no/such/folder/clock").toString();
        assertThatThrownBy(() -> LoopClock.mapped(missing)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(missing);
    }
}
