package org.ncclharness.calibration.model;


/**
 * A scale to move a model to ({@link CostModel#at}): N GPUs and, where given, the domains they sit in (NVLink
 * domains for a model across domains, hosts for NCCL's tables) and the GPUs in each. A model takes what it has
 * terms for: a one-tier model N alone.
 *
 * @param gpus          N
 * @param domains       d, null to keep the model's own (a model across domains: N over its domain size)
 * @param gpusPerDomain g, null to keep the model's own domain size
 */
public record Scale(int gpus, Integer domains, Integer gpusPerDomain) {

    public Scale {
        if (gpusPerDomain != null && (domains == null || domains * gpusPerDomain != gpus)) {
            throw new IllegalArgumentException("a domain size needs the domains it makes up, and N = d x g; got N = "
                    + gpus + ", d = " + domains + ", g = " + gpusPerDomain);
        }
    }

    /** N GPUs, domains and their size kept. */
    public static Scale gpus(int gpus) {
        return new Scale(gpus, null, null);
    }

    /** N GPUs on {@code domains} domains (null: kept), the domain size kept. */
    public static Scale gpus(int gpus, Integer domains) {
        return new Scale(gpus, domains, null);
    }

    /** Exactly d × g. */
    public static Scale of(TwoTierConfig c) {
        return new Scale(c.ranks(), c.domains(), c.gpusPerDomain());
    }

    /**
     * The domains at this scale for a model across the domains {@code own}: g kept unless given, d = N/g unless
     * given.
     *
     * @throws ScaleRefused where N is not d whole domains of g
     */
    public TwoTierConfig domainsFrom(TwoTierConfig own) {
        int g = gpusPerDomain != null ? gpusPerDomain : own.gpusPerDomain();
        int d = domains != null ? domains : gpus / g;
        if (d < 1 || d * g != gpus) {
            throw new ScaleRefused(ScaleRefused.Reason.NOT_WHOLE_DOMAINS, this, g);
        }
        return new TwoTierConfig(d, g);
    }

    /**
     * The hosts at this scale for a model on {@code own} hosts: the domains given, else its own.
     *
     * @throws ScaleRefused where N does not split evenly over them
     */
    public int hostsFrom(int own) {
        int h = domains != null ? domains : own;
        if (h < 1 || gpus % h != 0) {
            throw new ScaleRefused(ScaleRefused.Reason.UNEVEN_OVER_HOSTS, this, h);
        }
        return h;
    }
}
