package org.ncclharness.harness.options;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code --version}: the project version and the versions of the bindings it was built against, read from a
 * resource that Maven filters at build time (so no version is typed twice).
 */
public final class VersionInfo implements CommandLine.IVersionProvider {

    public static Properties properties() {
        Properties p = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream("/nccl-harness-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    public static String projectVersion() {
        return properties().getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        Properties p = properties();
        return new String[] {
            "nccl-harness " + p.getProperty("version", "unknown"),
            "JavaCPP " + p.getProperty("javacpp", "unknown") + ", CUDA/NCCL presets "
                    + p.getProperty("cudaPresets", "unknown"),
        };
    }
}
