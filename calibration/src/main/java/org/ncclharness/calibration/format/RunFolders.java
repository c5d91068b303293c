package org.ncclharness.calibration.format;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary folders of a run (README, "Outputs"): named {@code nccl-harness-PURPOSE-PID-N} in the system's
 * temporary folder, removed with what they hold when the run ends, however it ends short of SIGKILL (a shutdown
 * hook); the folders of a run that SIGKILL ended are removed by the next run that makes one, found by their owner's
 * pid, which no live process holds. Another live run's folders are never touched.
 */
public final class RunFolders {

    private static final String PREFIX = "nccl-harness-";
    /** PURPOSE, the owner's pid, and the digits {@link Files#createTempDirectory} adds. */
    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "[a-z]+-(\\d{1,18})-\\d+");
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(RunFolders::deleteTree),
                "run-folder-cleanup"));
    }

    private RunFolders() {
    }

    /** A new folder for this run, {@code purpose} a lower-case word ({@code debug}); removed when the run ends. */
    public static Path create(String purpose) throws IOException {
        return create(Path.of(System.getProperty("java.io.tmpdir")), purpose);
    }

    static Path create(Path parent, String purpose) throws IOException {
        removeStale(parent);
        Path dir = Files.createTempDirectory(parent, PREFIX + purpose + "-" + ProcessHandle.current().pid() + "-");
        LIVE.add(dir);
        return dir;
    }

    /** Removes a folder of this run now, when its work is done. */
    public static void remove(Path dir) {
        deleteTree(dir);
        LIVE.remove(dir);
    }

    /** The folders in {@code parent} that runs which are no longer alive left behind. */
    static void removeStale(Path parent) throws IOException {
        try (var s = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path p : s) {
                owner(p).filter(pid -> ProcessHandle.of(pid).isEmpty())
                        .ifPresent(pid -> deleteTree(p));
            }
        }
    }

    /** The pid in a run folder's name, empty for anything else. */
    static Optional<Long> owner(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() && Files.isDirectory(p) ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
    }

    private static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // best effort: another user's folder, or one removed meanwhile; the next run tries again
        }
    }
}
