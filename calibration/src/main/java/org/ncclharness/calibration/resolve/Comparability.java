package org.ncclharness.calibration.resolve;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Whether two runs can be compared size by size: the same collective, data type, rank count, node count and GPU
 * model, each where both sides say it. A baseline of another scale or chip gives numbers that are not wrong but
 * mean nothing for this run.
 */
public final class Comparability {

    /** A chip family in a device name: H100, A100, GB200, MI325X, RTX4090, V100, L40S, K80. */
    private static final Pattern FAMILY = Pattern.compile("\\b((?:RTX|GTX) ?\\d{3,4}(?: ?TI)?|[A-Z]{1,2}\\d{2,4}[A-Z]?)\\b");
    private static final Pattern VENDOR_WORDS = Pattern.compile("\\b(NVIDIA|TESLA|GEFORCE|QUADRO|AMD|INSTINCT|RADEON)\\b");

    /**
     * What one side states.
     *
     * @param gpuFamily the chip family ({@link #gpuFamily}), null when not stated
     */
    public record Side(Collective collective, String type, Integer ranks, Integer hosts, String gpuFamily) {

        public static Side of(Sweep s) {
            String type = s.rows().isEmpty() ? null : s.rows().get(0).type();
            return new Side(s.collective(), type == null || type.isBlank() ? null : type,
                    s.hardware() == null ? null : s.hardware().ranks(),
                    s.hardware() == null ? null : s.hardware().hosts(),
                    s.hardware() == null ? null : Comparability.gpuFamily(s.hardware().gpuModel()).orElse(null));
        }

        /** {@code all_reduce float, 16 GPUs on 2 hosts, H100}: what was stated. */
        public String describe() {
            List<String> parts = new ArrayList<>();
            parts.add(collective.testName() + (type == null ? "" : " " + type));
            if (ranks != null) {
                parts.add(ranks + " GPUs" + (hosts == null ? "" : " on " + hosts + (hosts == 1 ? " host" : " hosts")));
            }
            if (gpuFamily != null) {
                parts.add(gpuFamily);
            }
            return String.join(", ", parts);
        }
    }

    private Comparability() {
    }

    /** The chip family of a device name; empty when none is recognised. */
    public static Optional<String> gpuFamily(String deviceName) {
        if (deviceName == null) {
            return Optional.empty();
        }
        String upper = VENDOR_WORDS.matcher(deviceName.toUpperCase(Locale.ROOT).replace('-', ' ')).replaceAll(" ");
        Matcher m = FAMILY.matcher(upper);
        return m.find() ? Optional.of(m.group(1).replace(" ", "")) : Optional.empty();
    }

    /** What differs between a run and a baseline, each as {@code collective all_gather vs all_reduce}. */
    public static List<String> differences(Side run, Side other) {
        List<String> d = new ArrayList<>(modelDifferences(run, other));
        differ(d, "GPUs", run.ranks(), other.ranks());
        differ(d, "hosts", run.hosts(), other.hosts());
        return d;
    }

    /**
     * What differs between a run and a calibrated model: collective, data type and GPU model. A model is
     * evaluated at the run's ranks and nodes, so those may differ.
     */
    public static List<String> modelDifferences(Side run, Side model) {
        List<String> d = new ArrayList<>();
        if (run.collective() != model.collective() && run.collective().known() && model.collective().known()) {
            d.add("collective " + run.collective().testName() + " vs " + model.collective().testName());
        }
        differ(d, "data type", run.type(), model.type());
        differ(d, "GPU", run.gpuFamily(), model.gpuFamily());
        return d;
    }

    private static void differ(List<String> out, String what, Object run, Object other) {
        if (run != null && other != null && !Objects.equals(run, other)) {
            out.add(what + " " + run + " vs " + other);
        }
    }
}
