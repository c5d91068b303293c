package org.ncclharness.calibration.nccl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether NCCL can run NVLS (NVLink SHARP) for a run: the domain's switches reduce in the network (the interconnect's
 * {@code inNetworkReduction} in hardware/interconnects.json, a hardware fact) and the NCCL version has NVLS (2.17 on,
 * its release notes). An unstated version does not rule it out: the hardware that has NVLS shipped after 2.17.
 */
public final class NvlsSupport {

    /** The interconnects' in-network reduction that NCCL drives as its NVLS algorithm. */
    public static final String NVLS = "NVLS";
    private static final int FIRST_MINOR = 17;
    private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+)");

    private NvlsSupport() {
    }

    /**
     * @param inNetworkReduction the intra-domain interconnect's, null where it has none or is not known
     * @param ncclVersion        as the dataset states it ({@code 2.26.2+cuda12.8}), null where unstated
     */
    public static boolean allowed(String inNetworkReduction, String ncclVersion) {
        if (!NVLS.equals(inNetworkReduction)) {
            return false;
        }
        Matcher m = ncclVersion == null ? null : MAJOR_MINOR.matcher(ncclVersion);
        if (m == null || !m.find()) {
            return true;
        }
        int major = Integer.parseInt(m.group(1));
        return major > 2 || major == 2 && Integer.parseInt(m.group(2)) >= FIRST_MINOR;
    }
}
