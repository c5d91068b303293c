package org.ncclharness.calibration.accuracy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The cross-scale groups of docs/model-accuracy.md ({@code accuracy/cross-scale.json}): one system measured at
 * several configurations, smallest first. A group whose runs differ in settings no model term carries (a channel
 * count or QP setting on one run only) says so in {@code settingsDiffer}: it is scored as it is, not tuned around,
 * and the report prints why its score says as much about those settings as about the scale law.
 */
public final class CrossScaleGroups {

    private static final String RESOURCE = "/accuracy/cross-scale.json";

    /**
     * @param name           the group's row label
     * @param datasets       dataset ids, smallest configuration first
     * @param settingsDiffer what its runs set differently that the models cannot know; null where they share settings
     */
    public record Group(String name, List<String> datasets, String settingsDiffer) {
        public Group {
            datasets = List.copyOf(datasets);
            if (settingsDiffer != null && settingsDiffer.isBlank()) {
                throw new IllegalArgumentException(RESOURCE + ": group '" + name + "' has a blank settingsDiffer;"
                        + " leave it out where the runs share their settings");
            }
        }

        public Optional<String> settingsNote() {
            return Optional.ofNullable(settingsDiffer);
        }
    }

    private record File(String about, List<Group> groups) {
    }

    private CrossScaleGroups() {
    }

    /** The groups shipped in the jar. */
    public static List<Group> bundled() {
        ObjectMapper m = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        try (InputStream in = CrossScaleGroups.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return List.copyOf(m.readValue(in, File.class).groups());
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
