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

    /**
     * How a whole temporary file takes the target's name without replacing a file there: a hard link, which fails
     * when the name is taken. A test double stands in for a file system that refuses links.
     */
    @FunctionalInterface
    interface Links {
        void link(Path target, Path existing) throws IOException;
    }

    /**
     * Temporary files being written now, each with its target: removed by the shutdown hook on SIGTERM or SIGINT,
     * which then says so. The moves into place and the hook take {@link #COMMIT} in turn, so a command's files are
     * all in place or none is.
     */
    private static final java.util.Map<Path, Path> LIVE = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Object COMMIT = new Object();
    /** The signal that is ending the process ({@link #interruptedBy}), or null. */
    private static volatile String signal;
    /** Set once the process is ending: no file is moved into place after it. */
    private static boolean ending;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(OutputFile::abandon, "output-temp-cleanup"));
    }

    /**
     * Names the signal that ends the process ({@code SIGTERM}), for the line an interrupted write prints; the
     * entry point calls it from its signal handler, before the exit.
     */
    public static void interruptedBy(String signalName) {
        signal = signalName;
    }

    /** The shutdown hook: the files not yet in place are removed, and the line says so. */
    private static void abandon() {
        java.util.List<String> lost;
        synchronized (COMMIT) {
            ending = true;
            lost = LIVE.values().stream().map(Path::toString).distinct().sorted().toList();
            LIVE.keySet().forEach(OutputFile::deleteQuietly);
            LIVE.clear();
        }
        if (!lost.isEmpty()) {
            System.err.println(interruptedLine(signal, lost));
            System.err.flush();
        }
    }

    /** {@code interrupted by SIGTERM; nothing written (out.csv)}. */
    static String interruptedLine(String signalName, java.util.List<String> targets) {
        return "interrupted" + (signalName == null ? "" : " by " + signalName) + "; nothing written ("
                + String.join(", ", targets) + ")";
    }

    private OutputFile() {
    }

    /**
     * Refuses early, before any work, when the target exists and {@code force} is not set, so a long command
     * does not run only to fail at the end.
     */
    /**
     * The real paths of the files the running command reads. An output the command derives from another (the
     * figure beside a --markdown record, a report folder's index.html) is no option the command line's rule sees,
     * so the writer itself refuses to replace an input, with or without --force (README, "Outputs").
     */
    private static final java.util.Set<Path> INPUTS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * The files (real paths) the command about to run reads: no output may replace one. Each command line names its
     * own, replacing the last's (a JVM that runs several, as the tests do, keeps no stale ones).
     */
    public static void protectInputs(java.util.Collection<Path> realPaths) {
        synchronized (INPUTS) {
            INPUTS.clear();
            INPUTS.addAll(realPaths);
        }
    }

    /** The path as the file system resolves it: links followed, a file not there yet by its folder's real path. */
    private static Path real(Path target) {
        Path abs = target.toAbsolutePath().normalize();
        try {
            return Files.exists(abs) ? abs.toRealPath() : abs.getParent() != null && Files.exists(abs.getParent())
                    ? abs.getParent().toRealPath().resolve(abs.getFileName()) : abs;
        } catch (IOException e) {
            return abs;
        }
    }

    public static void checkWritable(Path target, boolean force) {
        if (!INPUTS.isEmpty() && INPUTS.contains(real(target))) {
            throw new InputException(target.toString(), 0, "is an input of this command: an output never replaces"
                    + " an input, even with " + Advice.name(Setting.OVERWRITE) + "; choose another name");
        }
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
     * Refuses early a folder output that could not be made or written into (README, "Outputs"): the folder, or the
     * nearest folder above it that is there, must take a new file. A folder not there yet is made at the end.
     */
    public static void checkFolderWritable(Path folder) {
        Path there = folder.toAbsolutePath().normalize();
        while (there != null && !Files.exists(there)) {
            there = there.getParent();
        }
        if (there == null || !Files.isDirectory(there)) {
            throw new InputException(folder.toString(), 0, (there == null ? "has no folder above it"
                    : there + " is a file, not a folder") + "; choose another place");
        }
        try {
            Files.delete(Files.createTempFile(there, ".nccl-harness-probe", ".tmp"));
        } catch (IOException e) {
            throw new OutputException("cannot write " + folder + ": " + reason(e) + " (in " + there
                    + "; choose another place)", e);
        }
    }

    /**
     * All outputs of one command, committed together or not at all: every temporary file is written first, and
     * only when all are whole are they moved into place; on a failure none is left behind.
     */
    public static void writeAll(java.util.Map<Path, Content> targets, boolean force) {
        writeAll(targets, force, Files::createLink);
    }

    static void writeAll(java.util.Map<Path, Content> targets, boolean force, Links links) {
        targets.keySet().forEach(t -> checkWritable(t, force));
        java.util.Map<Path, Path> temps = new java.util.LinkedHashMap<>();
        try {
            for (var e : targets.entrySet()) {
                removeStale(e.getKey());
                temps.put(e.getKey(), temp(e.getKey(), e.getValue()));
            }
            synchronized (COMMIT) {
                if (ending) {
                    waitForTheExit(); // the hook removed the temporary files and said so
                }
                for (var e : temps.entrySet()) {
                    move(e.getValue(), e.getKey(), force, links);
                    LIVE.remove(e.getValue());
                }
            }
            temps.clear();
        } catch (FileAlreadyExistsException e) {
            throw new InputException(e.getFile(), 0, "appeared while writing; pass " + Advice.name(Setting.OVERWRITE)
                    + " to overwrite it");
        } catch (IOException e) {
            if (isEnding()) {
                waitForTheExit(); // a failure of a file the hook removed is no news; the hook's line is the news
            }
            throw new OutputException("cannot write " + String.join(", ", targets.keySet().stream()
                    .map(Path::toString).toList()) + ": " + reason(e), e);
        } finally {
            for (Path tmp : temps.values()) {
                delete(tmp);
            }
        }
    }

    private static boolean isEnding() {
        synchronized (COMMIT) {
            return ending;
        }
    }

    /**
     * The process is exiting (a signal): this thread waits for the halt, which follows the shutdown hooks, rather
     * than print a second, misleading line about a file that was removed on purpose.
     */
    private static void waitForTheExit() {
        while (true) {
            java.util.concurrent.locks.LockSupport.park();
        }
    }

    private static void delete(Path tmp) {
        deleteQuietly(tmp);
        LIVE.remove(tmp);
    }

    private static void deleteQuietly(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // Best effort: the temporary file is hidden and named after the target.
        }
    }

    /**
     * Temporary files of a process that died mid-write (kill -9), of any output in the target's folder: named
     * {@code .NAME.PID.N.tmp} ({@link #temp}), PID no live process's. A live writer's are never touched.
     */
    private static void removeStale(Path target) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        try (var s = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path p : s) {
                java.util.regex.Matcher m = TEMP.matcher(p.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** {@code .NAME.PID.N.tmp}: the writer's pid, then its clock. */
    private static final java.util.regex.Pattern TEMP = java.util.regex.Pattern.compile("\\..+\\.(\\d{1,18})\\.-?\\d+\\.tmp");

    /**
     * A test seam, off unless the JVM is started with {@code -Dnccl-harness.hold-written-temp=true}: each temporary
     * file, once written and before it is moved into place, waits there until the process ends. InterruptedWriteIT
     * signals the real jar at that moment, which it sees (the file is there and whole), instead of racing the write.
     */
    private static final boolean HOLD_WRITTEN = Boolean.getBoolean("nccl-harness.hold-written-temp");

    /** The content in a hidden temporary file beside the target. */
    private static Path temp(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        // Not createTempFile: its 0600 mode would stick to the result. CREATE_NEW keeps the umask's mode.
        Path tmp = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                + System.nanoTime() + ".tmp");
        LIVE.put(tmp, target);
        try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(out);
            if (HOLD_WRITTEN) {
                out.flush();
                waitForTheExit();
            }
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

    private static void move(Path tmp, Path target, boolean force, Links links) throws IOException {
        if (force) {
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return;
        }
        try {
            // A hard link fails if the target exists, so a file created meanwhile is not clobbered.
            links.link(target, tmp);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            // a file system without hard links (some network and FUSE mounts: "Operation not supported")
            claimAndRename(tmp, target);
            return;
        }
        Files.delete(tmp);
    }

    /**
     * No-clobber without a hard link: an exclusive create claims the name (it fails when a file is there, as the
     * link does), then the rename puts the whole file over the empty claim in one step. A failed rename takes the
     * claim back.
     */
    private static void claimAndRename(Path tmp, Path target) throws IOException {
        Files.newByteChannel(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
        try {
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(target);
            throw e;
        }
    }
}
