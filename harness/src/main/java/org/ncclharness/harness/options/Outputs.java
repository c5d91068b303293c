package org.ncclharness.harness.options;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ncclharness.calibration.format.OutputException;
import org.ncclharness.calibration.format.OutputFile;

/**
 * A command's outputs, committed together: every file at once or none ({@link OutputFile#writeAll}), then the one
 * output that takes standard output, so that a refused or failed file leaves standard output empty. A standard
 * output that cannot be written is exit 3, as {@link Main#execute} finds it.
 */
public final class Outputs {

    private final Map<Path, OutputFile.Content> files = new LinkedHashMap<>();
    private OutputFile.Content stdout;

    /** Adds an output to its target; a second one for standard output is a defect ({@link OutputRule} refuses it). */
    public Outputs add(OutputTarget target, OutputFile.Content content) {
        if (target instanceof OutputTarget.ToFile f) {
            files.put(f.path(), content);
            return this;
        }
        if (stdout != null) {
            throw new IllegalStateException("two outputs on standard output");
        }
        stdout = content;
        return this;
    }

    public Outputs add(Path file, OutputFile.Content content) {
        files.put(file, content);
        return this;
    }

    public Outputs addAll(Map<Path, OutputFile.Content> more) {
        files.putAll(more);
        return this;
    }

    /** The files, then standard output. */
    public void commit(boolean force) {
        OutputFile.writeAll(files, force);
        if (stdout != null) {
            try {
                stdout.writeTo(unclosable(System.out));
            } catch (IOException e) {
                throw new OutputException("cannot write standard output: " + OutputFile.reason(e), e);
            }
            System.out.flush();
        }
    }

    /** Standard output as a writer may close it (Jackson closes what it wrote to): the close only flushes. */
    private static OutputStream unclosable(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    /** Text as UTF-8 content. */
    public static OutputFile.Content utf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return o -> o.write(bytes);
    }
}
