package org.ncclharness.calibration.nccl;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

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
        ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        try (InputStream in = NcclResource.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException(path + " is missing from the classpath");
            }
            return mapper.readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException("bundled " + what + " unreadable: " + e.getMessage(), e);
        }
    }
}
