package org.ncclharness.harness.nccldebug;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.diagnose.Diagnoser;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.harness.launch.JobGroup;

/**
 * The NCCL_DEBUG output of this process, where NCCL wrote it to a file ({@code NCCL_DEBUG=INFO} with
 * {@code NCCL_DEBUG_FILE=/tmp/nccl.%h.%p}): the lines a diagnosis reads, for commands that run NCCL in-process
 * and diagnose afterwards. NCCL reads those variables once, when the process first uses it, so a command can only
 * read what the user set before starting it; without them it says how to set them.
 */
public final class NcclDebugFiles {

    /** What to set for a diagnosis, in the words {@code diagnose} uses too. */
    public static final String HOW = "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV NCCL_DEBUG_FILE=/tmp/nccl.%h.%p";

    /** One process's contribution is bounded: the job's control plane carries at most 1 MiB per rank. */
    static final int MAX_BYTES = 512 * 1024;

    private NcclDebugFiles() {
    }

    /** The NCCL_DEBUG_FILE pattern when NCCL was asked to write INFO (or TRACE) lines to files; empty otherwise. */
    public static Optional<String> pattern(Map<String, String> env) {
        String level = env.getOrDefault("NCCL_DEBUG", "").trim().toUpperCase(java.util.Locale.ROOT);
        String file = env.get("NCCL_DEBUG_FILE");
        boolean info = level.equals("INFO") || level.equals("TRACE");
        return info && file != null && !file.isBlank() ? Optional.of(file.trim()) : Optional.empty();
    }

    /**
     * Every rank's NCCL lines (none where NCCL_DEBUG_FILE is not set), gathered and diagnosed on rank 0 as one log;
     * every rank calls it at once. Null on the other ranks, and on rank 0 when no rank had a line.
     */
    public static Diagnosis diagnoseJob(JobGroup job) {
        Optional<String> pattern = pattern(System.getenv());
        List<String> mine = pattern.map(p -> ownLines(p, ProcessHandle.current().pid())).orElse(List.of());
        List<byte[]> all = job.gather(String.join("\n", mine).getBytes(StandardCharsets.UTF_8));
        if (job.rank() != 0) {
            return null;
        }
        List<String> lines = new ArrayList<>();
        for (byte[] b : all) {
            String text = new String(b, StandardCharsets.UTF_8);
            if (!text.isEmpty()) {
                lines.addAll(text.lines().toList());
            }
        }
        return lines.isEmpty() ? null : Diagnoser.diagnose(pattern.orElseThrow().replace("%p", "*")
                .replace("%h", "*"), lines);
    }

    /**
     * The NCCL lines (INFO and WARN) of the files this process wrote: {@code %p} is its pid, {@code %h} any host
     * name (NCCL's own spelling of it is not the JVM's), newest content last; at most {@link #MAX_BYTES}, the
     * first lines kept (the transports are set up at the start).
     */
    public static List<String> ownLines(String pattern, long pid) {
        String name = pattern.replace("%%", "\u0000").replace("%p", Long.toString(pid)).replace("%h", "*")
                .replace("\u0000", "%");
        Path p = Path.of(name);
        Path dir = p.getParent() == null ? Path.of(".") : p.getParent();
        List<String> out = new ArrayList<>();
        int bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, p.getFileName().toString())) {
            for (Path f : files) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if ((line.contains("NCCL INFO") || line.contains("NCCL WARN")) && bytes + line.length() < MAX_BYTES) {
                        out.add(line);
                        bytes += line.length() + 1;
                    }
                }
            }
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return List.of(); // no file (NCCL never ran) or a directory that is not there: nothing to read
        }
        return out;
    }
}
