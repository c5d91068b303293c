package org.ncclharness.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this module in a fresh JVM with a controlled environment and a bounded wait. */
final class ChildJvm {
    record Result(int exitCode, String output) {
        List<String> lines() {
            return output.lines().toList();
        }

        String value(String key) {
            return lines().stream().filter(l -> l.startsWith(key + "=")).map(l -> l.substring(key.length() + 1))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + key + "= in:\n" + output));
        }
    }

    private ChildJvm() {
    }

    static Result run(Class<?> main, Map<String, String> env, Path cacheDir, String... args)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xshare:auto",
                "-Dorg.bytedeco.javacpp.cachedir=" + cacheDir,
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Path out = Files.createTempFile(cacheDir, "child", ".out");
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) { // only a hang takes this long on a loaded machine
            p.destroyForcibly();
            throw new AssertionError("child JVM did not finish in 600 s: " + Files.readString(out));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }
}
