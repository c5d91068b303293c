package org.ncclharness.calibration.nccl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.ncclharness.calibration.format.JsonRecords;

/**
 * Reads one of the bundled NCCL fact files ({@code /nccl/*.json}) into its record. Strictly: a field the record
 * does not have is an error, so a fact added to a file but not to the code cannot be silently dropped.
 */
final class NcclResource {

    private NcclResource() {
    }

    /**
     * @param path classpath path of the file
     * @param type the record it holds
     * @param what what the file is, for the error ("NCCL constants")
     */
    static <T> T read(String path, Class<T> type, String what) {
        try (InputStream in = NcclResource.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException(path + " is missing from the classpath");
            }
            return JsonRecords.read(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException("bundled " + what + " unreadable: " + e.getMessage(), e);
        }
    }
}
