package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium}, run headless the way CI runs it: no sandbox (CI runs as root), no GPU, no first-run
 * or background traffic, a fresh profile per run, and a hard time limit. When the browser is missing the test
 * fails and says how to install it; the report page's promise (it opens from disk, every figure loads) is only
 * checked by a real browser.
 */
public final class HeadlessChromium {
    /** Only a hung browser takes this long, however loaded the machine (issue 43). */
    private static final long TIMEOUT_S = 600;

    private final Path executable;
    private final Path work;

    private HeadlessChromium(Path executable, Path work) {
        this.executable = executable;
        this.work = work;
    }

    /** Finds chromium on PATH or fails the test with the install command. */
    public static HeadlessChromium find(Path work) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return new HeadlessChromium(p, work);
                }
            }
        }
        return fail("chromium is not installed, and the report page test needs a real browser: "
                + "run `apt-get install -y chromium` (Debian), as .ci/run does; PATH was " + path);
    }

    /** The DOM after the page's load event (which waits for its images), as chromium serialises it. */
    public String dumpDom(Path page) throws IOException, InterruptedException {
        return run("--dump-dom", page.toUri().toString());
    }

    /** A screenshot of the page's first {@code width × height} CSS pixels. */
    public void screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
        run("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", page.toUri().toString());
        if (!Files.isRegularFile(png)) {
            fail("chromium wrote no screenshot at " + png);
        }
    }

    /** The page in a browser the test drives over the DevTools protocol: clicks, reads, and every request made. */
    public ChromiumDevTools open(Path page) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile-");
        return ChromiumDevTools.open(command(profile, "--remote-debugging-port=0", "--remote-allow-origins=*",
                "about:blank"), profile, work, page);
    }

    private List<String> command(Path profile, String... args) {
        List<String> cmd = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private String run(String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile-");
        List<String> cmd = command(profile, args);
        Path out = work.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = work.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            fail("chromium did not finish within " + TIMEOUT_S + " s: " + String.join(" ", cmd));
        }
        if (p.exitValue() != 0) {
            fail("chromium exited " + p.exitValue() + ": " + String.join(" ", cmd) + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
