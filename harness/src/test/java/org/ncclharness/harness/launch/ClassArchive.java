package org.ncclharness.harness.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A class-data archive (AppCDS) of harness.jar's classes for the JVMs the integration tests start: dumped once per
 * test JVM by one single-process sweep on the stand-ins, then mapped by every JVM that runs the jar, which so skips
 * parsing and verifying the classes the dump loaded (a quarter of a sweep rank's CPU time; some two hundred such
 * JVMs share the 2 cores). They run the same bytecode either way. The JVM's own lines about the archive are off: one
 * that cannot map it loads the classes from the jar, as without it.
 */
final class ClassArchive {

    private static final Path FILE = Path.of("target", "harness-it-classes.jsa").toAbsolutePath();
    private static final String QUIET = "-Xlog:cds*=off";
    private static List<String> flags;

    private ClassArchive() {
    }

    /** The flags that map the archive, for a JVM whose class path starts with {@link Processes#JAR}. */
    static synchronized List<String> flags() {
        if (flags == null) {
            try {
                flags = dump();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while dumping the class-data archive", e);
            } catch (Exception e) {
                throw new AssertionError("cannot dump the class-data archive " + FILE, e);
            }
        }
        return flags;
    }

    private static List<String> dump() throws Exception {
        Files.deleteIfExists(FILE); // an archive of an earlier build of the jar would not map
        StandIns standIns = StandIns.shared();
        Path dir = Files.createTempDirectory(FILE.getParent(), "class-archive-");
        List<String> cmd = new ArrayList<>(List.of(Processes.JAVA));
        cmd.addAll(Processes.JVM_FLAGS);
        cmd.addAll(List.of("-XX:ArchiveClassesAtExit=" + FILE, QUIET, "-jar", Processes.JAR.toString(), "sweep",
                "--nccl-lib", standIns.dir().toString(), "-b", "8", "-e", "1K", "--no-diagnose"));
        Processes.Result r = Processes.run(cmd, standIns.environment(1, Map.of()), dir, "dump", Processes.HANG_S);
        if (r.rc() != 0 || !Files.isRegularFile(FILE)) {
            // only slower without it: say so, and run the tests on the jar alone
            System.err.println("no class-data archive for the tests' JVMs (exit " + r.rc() + "):\n" + r.err());
            return List.of();
        }
        return List.of("-XX:SharedArchiveFile=" + FILE, QUIET);
    }
}
