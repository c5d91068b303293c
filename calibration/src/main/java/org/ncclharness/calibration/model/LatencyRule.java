package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How the single-tier latency α scales with the configuration (docs/calibration.md, "The model"). Both rules multiply
 * one latency parameter by a step count, so a parameter calibrated at one N predicts another.
 */
public enum LatencyRule {
    /**
     * Method B, explicit pipeline (ASTRA-sim style): α = steps·hops·ℓ_link, steps = 2(N−1) for AllReduce. Once the
     * pipeline is full each step waits only for link propagation across its hops.
     */
    PIPELINE("pipeline", "linkLatencyUs"),
    /**
     * Method A, step-summing: α = (N−1)·α_step for AllReduce, α_step from the chip profile. For a collective with
     * another ring step count the coefficient scales with it (steps/2: half of AllReduce's 2(N−1)).
     */
    STEP_SUM("step-sum", "stepLatencyUs");

    private final String label;
    private final String parameterName;

    LatencyRule(String label, String parameterName) {
        this.label = label;
        this.parameterName = parameterName;
    }

    /** The rule's name, as reports store it. */
    @JsonValue
    public String label() {
        return label;
    }

    /** The name of the latency parameter this rule multiplies. */
    public String parameterName() {
        return parameterName;
    }

    /** α per unit of the latency parameter. */
    public double coefficient(int ringSteps, int hops) {
        return this == PIPELINE ? (double) ringSteps * hops : ringSteps / 2.0;
    }

    @JsonCreator
    public static LatencyRule byLabel(String label) {
        for (LatencyRule r : values()) {
            if (r.label.equals(label)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown latency rule " + label + " (pipeline, step-sum)");
    }
}
