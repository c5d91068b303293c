package org.ncclharness.harness.doctor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The directories the dynamic linker searches, in its order: {@code LD_LIBRARY_PATH}, the directories of
 * {@code /etc/ld.so.conf} (with its {@code include} globs), then the system defaults. Reading them tells whether
 * {@code dlopen("libcuda.so.1")} could succeed without loading anything into this JVM.
 */
public final class LinkerPath {

    private static final List<String> DEFAULTS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib64", "/usr/lib64", "/lib", "/usr/lib");

    private LinkerPath() {
    }

    public static List<Path> dirs(Map<String, String> env, Path ldSoConf) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String d : env.getOrDefault("LD_LIBRARY_PATH", "").split(":")) {
            if (!d.isBlank()) {
                dirs.add(Path.of(d));
            }
        }
        readConf(ldSoConf, dirs, 0);
        DEFAULTS.forEach(d -> dirs.add(Path.of(d)));
        return List.copyOf(dirs);
    }

    private static void readConf(Path conf, Set<Path> dirs, int depth) {
        List<String> lines;
        try {
            lines = Files.readAllLines(conf);
        } catch (IOException e) {
            return; // no such file: only the other sources count
        }
        for (String raw : lines) {
            String line = raw.replaceAll("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("include ") && depth < 4) {
                for (Path included : glob(conf, line.substring("include ".length()).trim())) {
                    readConf(included, dirs, depth + 1);
                }
            } else if (line.startsWith("/")) {
                dirs.add(Path.of(line));
            }
        }
    }

    private static List<Path> glob(Path conf, String pattern) {
        Path p = Path.of(pattern);
        if (!p.isAbsolute()) {
            p = conf.resolveSibling(pattern);
        }
        Path dir = p.getParent();
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p.getFileName().toString())) {
            ds.forEach(out::add);
        } catch (IOException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    /** The first {@code dirs} entry holding {@code name}. */
    public static Optional<Path> find(List<Path> dirs, String name) {
        for (Path d : dirs) {
            Path candidate = d.resolve(name);
            if (Files.exists(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
