package org.ncclharness.harness.nccldebug;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.format.RunFolders;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * How a live {@code sweep} or {@code bringup} gets NCCL's INFO lines without the user asking: NCCL reads
 * NCCL_DEBUG, NCCL_DEBUG_SUBSYS and NCCL_DEBUG_FILE once, from the environment of the process that loads it, and a
 * JVM cannot change its own environment. So the command runs itself again as a child with those set (the lines go
 * to files, stdout stays the table), waits, and exits as the child did; the child diagnoses the files at the end
 * ({@link NcclDebugFiles}). Nothing is set where the user set any of the three, or said {@code --no-diagnose}.
 */
public final class NcclDebugChild {

    /** Set in the child: it is the one that runs NCCL, and must not start another. */
    static final String CHILD = "HARNESS_NCCL_DEBUG_CHILD";
    /** The launcher process's pid, for the child's job id where the launcher gives none (Hydra). */
    public static final String PARENT_PID = "HARNESS_PARENT_PID";

    private NcclDebugChild() {
    }

    /** Whether to run the command again with NCCL's debug output on. */
    public static boolean wanted(Map<String, String> env, boolean noDiagnose) {
        return !noDiagnose && !env.containsKey(CHILD) && !env.containsKey("NCCL_DEBUG")
                && !env.containsKey("NCCL_DEBUG_SUBSYS") && !env.containsKey("NCCL_DEBUG_FILE");
    }

    /** The variables the child gets, its NCCL lines written under {@code dir}, one file per host and process. */
    static Map<String, String> childEnvironment(Path dir, long parentPid) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NCCL_DEBUG", "INFO");
        env.put("NCCL_DEBUG_SUBSYS", "INIT,NET,GRAPH,ENV");
        env.put("NCCL_DEBUG_FILE", dir.resolve("nccl.%h.%p").toString());
        env.put(CHILD, "1");
        env.put(PARENT_PID, Long.toString(parentPid));
        return env;
    }

    /**
     * Runs {@code java <this JVM's flags> -cp <this class path> <main> args} with the debug environment, standard
     * streams shared, and returns its exit code; a signal to this process ends the child too.
     *
     * @param args the command's arguments after the jar (e.g. {@code sweep -b 8 -e 1G})
     */
    public static int rerun(String mainClass, List<String> args) {
        Path dir;
        try {
            dir = RunFolders.create("debug"); // removed when the child is done, or this run ends
        } catch (IOException e) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "cannot create a directory for NCCL's debug files: "
                    + e.getMessage() + " (--no-diagnose runs without them)", e);
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-agentlib:jdwp")).toList());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().putAll(childEnvironment(dir, ProcessHandle.current().parent().map(ProcessHandle::pid)
                .orElse(-1L)));
        try {
            Process p = pb.start();
            Thread stop = new Thread(p::destroy, "end the NCCL child");
            Runtime.getRuntime().addShutdownHook(stop);
            int rc = p.waitFor();
            Runtime.getRuntime().removeShutdownHook(stop);
            RunFolders.remove(dir); // the child read its files before it ended
            return rc;
        } catch (IOException e) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "cannot start the sweep again with NCCL_DEBUG=INFO: "
                    + e.getMessage() + " (--no-diagnose runs in this process, without the diagnosis)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException(ExitCode.JOB, "interrupted while the sweep ran");
        }
    }
}
