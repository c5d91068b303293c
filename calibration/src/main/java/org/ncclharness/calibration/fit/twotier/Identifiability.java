package org.ncclharness.calibration.fit.twotier;

/** What the data (and any prior) say about one parameter. */
public enum Identifiability {
    /** Pinned down: moving it changes RMSPE by more than the profile tolerance on both sides. */
    DETERMINED("determined"),
    /** Only one side is pinned: the profile runs into the search box on the other (e.g. "T_sw ≤ 3 µs"). */
    BOUNDED("bounded"),
    /**
     * The data cannot separate it from the other parameters (a flat valley: only a combination is fixed), or
     * the profile spans the whole search range. The fitted value is one arbitrary point of the profile.
     */
    UNDETERMINED("undetermined"),
    /** Not fitted: the search range is a single value (e.g. T_sw held at 0), so the data were not asked. */
    FIXED("fixed");

    private final String id;

    Identifiability(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
