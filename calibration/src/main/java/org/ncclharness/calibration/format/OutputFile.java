package org.ncclharness.calibration.format;

import org.ncclharness.calibration.measure.InputException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;

/**
 * Writes an output file the safe way (README, "Exit codes"): into a temporary file beside the target, then one move. A
 * failure part-way leaves nothing behind, and an existing file is never replaced unless {@code force} is set.
 */
public final class OutputFile {

    /** Something that writes the whole content to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Temporary files being written now: removed by the shutdown hook on SIGTERM or SIGINT. */
    private static final java.util.Set<Path> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(p -> {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // the process is ending; nothing else can be done
            }
        }), "output-temp-cleanup"));
    }

    private OutputFile() {
    }

    /**
     * Refuses early, before any work, when the target exists and {@code force} is not set, so a long command
     * does not run only to fail at the end.
     */
    public static void checkWritable(Path target, boolean force) {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new InputException(target.toString(), 0, "is not a regular file (a directory, a device or a "
                    + "link); outputs replace regular files only: choose another name");
        }
        if (!force && Files.exists(target)) {
            throw new InputException(target.toString(), 0,
                    "already exists; pass " + Advice.name(Setting.OVERWRITE) + " to overwrite it, or choose another"
                            + " name");
        }
        Path dir = target.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            throw new InputException(target.toString(), 0, (Files.exists(dir) ? dir + " is not a directory"
                    : "directory " + dir + " does not exist") + "; create it first, or choose another name");
        }
        // the temporary file goes beside the target: a directory that takes no new file (read-only, /proc) fails
        // here, before the work, not after it (a probe, since permission bits say nothing to root); the
        // environment's error, as a failed write is
        try {
            Files.delete(Files.createTempFile(dir, ".nccl-harness-probe", ".tmp"));
        } catch (IOException e) {
            throw new OutputException("cannot write " + target + ": " + reason(e) + " (in " + dir
                    + "; choose another place)", e);
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
                removeStale(e.getKey());
                temps.put(e.getKey(), temp(e.getKey(), e.getValue()));
            }
            for (var e : temps.entrySet()) {
                move(e.getValue(), e.getKey(), force);
                LIVE.remove(e.getValue());
            }
            temps.clear();
        } catch (FileAlreadyExistsException e) {
            throw new InputException(e.getFile(), 0, "appeared while writing; pass " + Advice.name(Setting.OVERWRITE)
                    + " to overwrite it");
        } catch (IOException e) {
            throw new OutputException("cannot write " + String.join(", ", targets.keySet().stream()
                    .map(Path::toString).toList()) + ": " + reason(e), e);
        } finally {
            for (Path tmp : temps.values()) {
                delete(tmp);
            }
        }
    }

    private static void delete(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // Best effort: the temporary file is hidden and named after the target.
        }
        LIVE.remove(tmp);
    }

    /** Temporary files of a process that died mid-write (kill -9): named {@code .NAME.PID.N.tmp}, PID gone. */
    private static void removeStale(Path target) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        String prefix = "." + target.getFileName() + ".";
        try (var s = Files.newDirectoryStream(dir, prefix + "*.tmp")) {
            for (Path p : s) {
                String[] parts = p.getFileName().toString().substring(prefix.length()).split("\\.");
                if (parts.length == 3 && parts[0].matches("\\d{1,18}")
                        && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The content in a hidden temporary file beside the target. */
    private static Path temp(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        // Not createTempFile: its 0600 mode would stick to the result. CREATE_NEW keeps the umask's mode.
        Path tmp = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                + System.nanoTime() + ".tmp");
        LIVE.add(tmp);
        try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(out);
        } catch (IOException | RuntimeException e) {
            LIVE.remove(tmp);
            Files.deleteIfExists(tmp);
            throw e;
        }
        return tmp;
    }

    public static void write(Path target, boolean force, Content content) {
        writeAll(java.util.Map.of(target, content), force);
    }

    /** The cause of an I/O failure in words: Java's exceptions often carry only the path. */
    public static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage();
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
