package org.ncclharness.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the native libraries come from, settled before JavaCPP's {@code Loader} first runs.
 *
 * <p>No Maven artifact ships {@code libnccl.so.2} for CUDA 13, so NCCL always comes from the system: the
 * dynamic linker's path ({@code LD_LIBRARY_PATH}, ld.so.cache), or a directory given with {@code --nccl-lib},
 * which becomes JavaCPP's {@code platform.preloadpath} (the Loader then loads {@code DIR/libnccl.so.2} itself
 * and links it next to the extracted JNI library). {@code libcuda.so.1} always comes from the driver.
 *
 * <p>JavaCPP extracts its JNI libraries into a cache directory and leaves symlinks to every library it
 * preloaded there; a stale symlink from an earlier run with another {@code --nccl-lib} would silently win
 * over the path given now. So unless the user chose a cache directory, each process gets a fresh one.
 */
public final class NcclLibrary {
    static final String PRELOAD_PATH = "org.bytedeco.javacpp.platform.preloadpath";
    static final String CACHE_DIR = "org.bytedeco.javacpp.cachedir";
    /** The soname the JNI library links against (the JavaCPP preset presets/nccl.java: {@code link = "nccl@.2"}). */
    public static final String SONAME = "libnccl.so.2";

    private static boolean loaderPrepared;

    private NcclLibrary() {
    }

    /**
     * Makes {@code dir/libnccl.so.2} the NCCL every later load uses. Must run before the first probe or
     * communicator; the CLI calls it for {@code --nccl-lib DIR}.
     *
     * @throws IllegalArgumentException if the directory has no libnccl.so.2 (the message is one line)
     * @throws IllegalStateException    if the native libraries were already loaded
     */
    public static synchronized void configure(Path dir) {
        Path lib = dir.resolve(SONAME);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--nccl-lib " + dir + ": no such directory");
        }
        if (!Files.isRegularFile(lib)) {
            throw new IllegalArgumentException("--nccl-lib " + dir + ": no " + SONAME + " in it"
                    + listNcclFiles(dir).map(f -> " (found " + f + "; NCCL's soname is " + SONAME + ")").orElse(""));
        }
        if (loaderPrepared) {
            throw new IllegalStateException("--nccl-lib must be applied before the first GPU call");
        }
        String abs = dir.toAbsolutePath().normalize().toString();
        String old = System.getProperty(PRELOAD_PATH);
        System.setProperty(PRELOAD_PATH, old == null || old.isBlank() ? abs : abs + java.io.File.pathSeparator + old);
    }

    /** The directory given with {@link #configure}, if any. */
    public static Optional<String> configuredPath() {
        return Optional.ofNullable(System.getProperty(PRELOAD_PATH));
    }

    /**
     * The libnccl.so.2 the loader would have taken: {@code --nccl-lib}'s, else the first in an
     * {@code LD_LIBRARY_PATH} directory; empty when neither has one (ld.so.cache is the linker's business).
     */
    public static Optional<Path> candidate(String ldLibraryPath) {
        List<String> dirs = new java.util.ArrayList<>();
        configuredPath().ifPresent(p -> dirs.addAll(List.of(p.split(java.io.File.pathSeparator))));
        if (ldLibraryPath != null) {
            dirs.addAll(List.of(ldLibraryPath.split(java.io.File.pathSeparator)));
        }
        return dirs.stream().filter(d -> !d.isBlank()).map(d -> Path.of(d).resolve(SONAME))
                .filter(Files::isRegularFile).findFirst();
    }

    /** Called once before the first touch of a JavaCPP class: gives this process its own extraction cache. */
    static synchronized void prepareLoader() {
        if (loaderPrepared) {
            return;
        }
        loaderPrepared = true;
        if (System.getProperty(CACHE_DIR) == null) {
            try {
                Path cache = Files.createTempDirectory("nccl-harness-javacpp-");
                System.setProperty(CACHE_DIR, cache.toString());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(cache), "javacpp-cache-cleanup"));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a JavaCPP cache directory under java.io.tmpdir", e);
            }
        }
    }

    private static Optional<String> listNcclFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("libnccl")).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort at JVM exit: a leftover temp directory is harmless
        }
    }
}
