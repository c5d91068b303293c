package org.ncclharness.harness.options;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import java.nio.file.Path;
import org.ncclharness.gpu.NcclLibrary;
import picocli.CommandLine.Option;

/** {@code --nccl-lib DIR}, shared by every command that touches the GPU; apply it before the first GPU call. */
public final class NcclLibOption {
    @Option(names = "--nccl-lib", paramLabel = "DIR",
            description = "Directory holding libnccl.so.2 to use instead of the one on LD_LIBRARY_PATH "
                    + "(e.g. site-packages/nvidia/nccl/lib of pip nvidia-nccl-cu13).")
    Path dir;

    /** Points the native loader at {@code --nccl-lib}, if given; a bad directory is a usage error (exit 2). */
    public void apply() {
        if (dir == null) {
            return;
        }
        try {
            NcclLibrary.configure(dir);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new HarnessException(ExitCode.USAGE, e.getMessage());
        }
    }
}
