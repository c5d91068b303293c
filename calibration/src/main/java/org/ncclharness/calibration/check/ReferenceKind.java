package org.ncclharness.calibration.check;

/**
 * What kind of curve a run is compared with. Every output calls it "the reference" and names its kind with it
 * (text, Markdown, the HTML page's column heads, findings), so a reader never meets "baseline" for another cluster's
 * curve or "expected" for a calibration's.
 */
public enum ReferenceKind {
    /** A run the user gave as healthy ({@code --baseline}): it can FAIL a run. */
    BASELINE("baseline"),
    /** A bundled run of the same hardware on another cluster (or a model of it moved to this run's scale). */
    OTHER_CLUSTER("another cluster's run"),
    /**
     * A bundled run of the cluster the checked run is itself a bundled run of (clusters.json names both), at
     * another scale or date: the same machines and software, so not "another cluster's".
     */
    SAME_CLUSTER("the same cluster's run"),
    /** A calibrated model's prediction at the run's sizes ({@code --calibration}). */
    CALIBRATION("calibration");

    private final String noun;

    ReferenceKind(String noun) {
        this.noun = noun;
    }

    /** A bundled run the user did not vouch for (either cluster's): it can warn, not FAIL. */
    public boolean bundledPeer() {
        return this == OTHER_CLUSTER || this == SAME_CLUSTER;
    }

    /** The kind alone: {@code baseline}, {@code another cluster's run}, {@code calibration}. */
    public String noun() {
        return noun;
    }

    /** How findings name the curve: {@code the reference (baseline)}. */
    public String phrase() {
        return "the reference (" + noun + ")";
    }

    /** The phrase, so a message that joins the kind into its text reads as the findings do. */
    @Override
    public String toString() {
        return phrase();
    }
}
