package org.ncclharness.harness.options;

import picocli.CommandLine.Option;

/** {@code --allow-predicted}, shared by {@code check}, {@code calibrate} and {@code plot}: see {@link PredictedRows}. */
public final class AllowPredictedOption {
    @Option(names = "--allow-predicted", description = "take tables a model computed (predict's output, in any"
            + " format) as if measured; the output says they are predictions (default: refused, exit 2)")
    boolean allowed;

    /** What the command that was run does with a predicted table. */
    public PredictedRows rows(PredictedRows.Command command) {
        return new PredictedRows(allowed, command);
    }
}
