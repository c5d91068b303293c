package org.ncclharness.calibration.fit.twotier;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.format.JsonRecords;

/**
 * The joint groups of bundled datasets ({@code twotier/joint-groups.json}): runs of one machine at several
 * configurations (MI325X on 1/2/4/8 nodes; GB200 on 1, 2 and 20 racks; A100 at OCI on 8 and 16 GPUs; ...).
 * Which runs share hardware is a fact about their sources, so it is written down with the reason, not guessed
 * from metadata: a shared issue thread holds different users' clusters, a shared README can hold different
 * settings.
 */
public final class JointGroups {

    private static final String RESOURCE = "/twotier/joint-groups.json";
    private static final List<String> BRAND_WORDS = List.of("NVIDIA", "AMD", "INSTINCT", "TESLA", "GEFORCE");

    /**
     * @param name  short name for headings
     * @param ids   dataset ids
     * @param why   what makes them one machine
     */
    public record Group(String name, List<String> ids, String why) {

        public Group {
            ids = List.copyOf(ids);
        }
    }

    private record File(String about, List<Group> groups) {
    }

    private JointGroups() {
    }

    /** The groups shipped in the jar. */
    public static List<Group> bundled() {
        try (InputStream in = JointGroups.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            return List.copyOf(JsonRecords.read(in, File.class).groups());
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /**
     * The GPU class of a model name: its first word after the vendor and brand words, upper case, so that
     * "NVIDIA H100 80GB HBM3", "H100" and "NVIDIA H100-SXM" are one class and H20 is not H200.
     */
    public static String gpuClass(String gpuModel) {
        for (String w : gpuModel.trim().split("[\\s-]+")) {
            if (!w.isEmpty() && !BRAND_WORDS.contains(w.toUpperCase(Locale.ROOT))) {
                return w.toUpperCase(Locale.ROOT);
            }
        }
        return gpuModel.trim().toUpperCase(Locale.ROOT);
    }
}
