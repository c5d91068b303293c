package org.ncclharness.calibration.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes an output file the safe way (SPEC §5): into a temporary file beside the target, then one move. A
 * failure part-way leaves nothing behind, and an existing file is never replaced unless {@code force} is set.
 */
public final class OutputFile {

    /** Something that writes the whole content to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private OutputFile() {
    }

    /**
     * Refuses early, before any work, when the target exists and {@code force} is not set, so a long command
     * does not run only to fail at the end.
     */
    public static void checkWritable(Path target, boolean force) {
        if (!force && Files.exists(target)) {
            throw new InputException(target.toString(), 0,
                    "already exists; pass --force to overwrite it, or choose another name");
        }
    }

    /**
     * All outputs of one command, committed together or not at all: every temporary file is written first, and
     * only when all are whole are they moved into place; on a failure none is left behind.
     */
    public static void writeAll(java.util.Map<Path, Content> targets, boolean force) {
        targets.keySet().forEach(t -> checkWritable(t, force));
        java.util.Map<Path, Path> temps = new java.util.LinkedHashMap<>();
        try {
            for (var e : targets.entrySet()) {
                temps.put(e.getKey(), temp(e.getKey(), e.getValue()));
            }
            for (var e : temps.entrySet()) {
                move(e.getValue(), e.getKey(), force);
            }
            temps.clear();
        } catch (FileAlreadyExistsException e) {
            throw new InputException(e.getFile(), 0, "appeared while writing; pass --force to overwrite it");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + String.join(", ", targets.keySet().stream()
                    .map(Path::toString).toList()) + ": " + e.getMessage(), e);
        } finally {
            for (Path tmp : temps.values()) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // Best effort: the temporary file is hidden and named after the target.
                }
            }
        }
    }

    /** The content in a hidden temporary file beside the target. */
    private static Path temp(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        // Not createTempFile: its 0600 mode would stick to the result. CREATE_NEW keeps the umask's mode.
        Path tmp = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                + System.nanoTime() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(out);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        return tmp;
    }

    public static void write(Path target, boolean force, Content content) {
        writeAll(java.util.Map.of(target, content), force);
    }

    private static void move(Path tmp, Path target, boolean force) throws IOException {
        try {
            if (force) {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                // A hard link fails if the target exists, so a file created meanwhile is not clobbered.
                Files.createLink(target, tmp);
                Files.delete(tmp);
            }
        } catch (AtomicMoveNotSupportedException | UnsupportedOperationException e) {
            Files.move(tmp, target, force ? new StandardCopyOption[] {StandardCopyOption.REPLACE_EXISTING}
                    : new StandardCopyOption[0]);
        }
    }
}
