package org.ncclharness.harness.launch;

/** The {@code --rank/--world-size/--local-rank} flags; null where not given. */
public record PlaceFlags(Integer rank, Integer worldSize, Integer localRank) {

    public static final PlaceFlags NONE = new PlaceFlags(null, null, null);
}
