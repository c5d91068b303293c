package org.ncclharness.gpu;

import java.util.Optional;

/**
 * nccl-tests' {@code -x} (ncclConfig_t.CTAPolicy) as nccl-tests treats it against the loaded NCCL (src/common.cu,
 * case 'x'): a policy that NCCL lacks is not an error but ignored, with one line on standard output, and the
 * communicators get NCCL's default. So a command line that runs under nccl-tests runs here too.
 *
 * @param value   the policy to put in the config, -1 to leave it unset
 * @param ignored nccl-tests' own line where the request was dropped, empty where it stands
 */
public record CtaPolicy(int value, Optional<String> ignored) {

    /** The policy a request for {@code requested} (-1: no {@code -x}) gives on the {@code loaded} library. */
    public static CtaPolicy of(int requested, NcclVersion loaded) {
        if (requested < 0) {
            return new CtaPolicy(-1, Optional.empty());
        }
        if (!NcclFeature.CTA_POLICY.isAvailable(loaded)) {
            return new CtaPolicy(-1, Optional.of("Option -x (cta_policy) is not supported before NCCL "
                    + shortVersion(NcclFeature.CTA_POLICY) + ". Ignoring"));
        }
        if (requested > 1 && !NcclFeature.CTA_POLICY_ZERO.isAvailable(loaded)) {
            return new CtaPolicy(-1, Optional.of("Option -x (cta_policy) " + requested + " is not supported before"
                    + " NCCL " + shortVersion(NcclFeature.CTA_POLICY_ZERO) + ". Ignoring"));
        }
        return new CtaPolicy(requested, Optional.empty());
    }

    /** {@code 2.28}, as nccl-tests' line names the release. */
    private static String shortVersion(NcclFeature f) {
        return f.since().major() + "." + f.since().minor();
    }
}
