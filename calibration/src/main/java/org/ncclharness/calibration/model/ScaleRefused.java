package org.ncclharness.calibration.model;

/**
 * A model that cannot be moved to a {@link Scale}, and why: a caller turns the reason into advice, not the message
 * into a decision.
 */
public final class ScaleRefused extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Why a scale was refused. */
    public enum Reason {
        /** N is not a whole number of domains of the domain size ({@link #size()}). */
        NOT_WHOLE_DOMAINS,
        /** N does not split evenly over the hosts ({@link #size()}). */
        UNEVEN_OVER_HOSTS
    }

    private final Reason reason;
    private final transient Scale scale;
    private final int size;

    /** @param size the domain size N did not fill, or the hosts N did not split over */
    public ScaleRefused(Reason reason, Scale scale, int size) {
        super(reason == Reason.NOT_WHOLE_DOMAINS
                ? scale.gpus() + " GPUs are not " + (scale.domains() != null ? scale.domains() + " domains"
                : "whole domains") + " of " + size + " GPUs"
                : scale.gpus() + " GPUs do not split evenly over " + size + " nodes");
        this.reason = reason;
        this.scale = scale;
        this.size = size;
    }

    public Reason reason() {
        return reason;
    }

    /** The scale asked for. */
    public Scale scale() {
        return scale;
    }

    /** The domain size N did not make whole domains of, or the hosts it did not split over. */
    public int size() {
        return size;
    }
}
