package org.ncclharness.calibration.twotier;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.ncclharness.calibration.datasets.DatasetMetadata;

/**
 * The joint groups the bundled metadata supports: AllReduce runs of the same hardware published by the same
 * source at several configurations (MI325X on 1/2/4/8 nodes; GB200 on 1, 2 and 20 racks; A100 at OCI on 8 and 16
 * GPUs). "Same hardware" is: the same GPU model (vendor prefix ignored: "GB200" is "NVIDIA GB200"), the same
 * intra-domain fabric, the same test suite, the same forced algorithm, and the same source repository (a page
 * at two revisions is one source). A group needs two distinct configurations, one of them multi-domain.
 */
public final class JointGroups {

    /**
     * @param key  what the members share, for headings
     * @param ids  dataset ids in metadata order
     */
    public record Group(String key, List<String> ids) {
    }

    private JointGroups() {
    }

    public static List<Group> of(List<DatasetMetadata> all) {
        Map<String, List<DatasetMetadata>> byKey = new LinkedHashMap<>();
        for (DatasetMetadata m : all) {
            if (!"all_reduce".equals(m.collective()) || m.domains() == null || m.domainSize() == null
                    || m.gpuModel() == null || m.sourceUrl() == null) {
                continue;
            }
            byKey.computeIfAbsent(key(m), k -> new ArrayList<>()).add(m);
        }
        List<Group> out = new ArrayList<>();
        byKey.forEach((k, members) -> {
            Set<TwoTierConfig> configs = new LinkedHashSet<>();
            members.forEach(m -> configs.add(new TwoTierConfig(m.domains(), m.domainSize())));
            boolean multi = members.stream().anyMatch(DatasetMetadata::multiDomain);
            if (configs.size() >= 2 && multi) {
                out.add(new Group(k, members.stream().map(DatasetMetadata::id).toList()));
            }
        });
        return out;
    }

    static String key(DatasetMetadata m) {
        return String.join(" | ", model(m.gpuModel()), Objects.toString(m.intra(), "?"),
                Objects.toString(m.library(), "?"), Objects.toString(m.algo(), "default"), repository(m.sourceUrl()));
    }

    static String model(String gpuModel) {
        String g = gpuModel.trim();
        for (String vendor : List.of("NVIDIA ", "AMD ")) {
            if (g.regionMatches(true, 0, vendor, 0, vendor.length())) {
                g = g.substring(vendor.length());
            }
        }
        return g.toUpperCase(Locale.ROOT);
    }

    /** {@code github.com/owner/repo} of a GitHub address; the address itself otherwise. */
    static String repository(String url) {
        String u = url.replaceFirst("^https?://", "");
        String[] parts = u.split("/");
        if (parts.length >= 3 && parts[0].equalsIgnoreCase("github.com")) {
            return (parts[0] + "/" + parts[1] + "/" + parts[2]).toLowerCase(Locale.ROOT);
        }
        return u;
    }
}
