package org.ncclharness.harness.accuracy;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.accuracy.AccuracyMarkdown;
import org.ncclharness.calibration.accuracy.AccuracyReport;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code accuracy [--markdown OUT]}: every model scored on every bundled dataset with times. */
@Command(name = "accuracy", addMethodSubcommands = false,
        description = {"Score every cost model on every bundled dataset with times: in-sample and leave-one-out"
                + " RMSPE overall and per size band, and on unseen points (interleaved, extrapolation beyond 256 MiB,"
                + " cross-scale), for the datasheet model, method B, the protocol envelope, NCCL's own tuner"
                + " (an estimate), the two-tier fit and the algorithm envelope (Ring/Tree x LL/LL128/Simple across"
                + " domains), and on multi-domain runs which of them calibrate picks.",
            "docs/model-accuracy.md is this command's output."})
public final class AccuracyCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--markdown", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write the Markdown to OUT (- or no --markdown: standard output)")
    OutputTarget markdown = new OutputTarget.ToStdout();

    @Option(names = "--force", description = "overwrite an existing --markdown file")
    boolean force;

    @Override
    public Integer call() {
        markdown.checkWritable(force);
        String text = AccuracyMarkdown.render(AccuracyReport.bundled());
        new Outputs().add(markdown, Outputs.utf8(text)).commit(force);
        if (!markdown.isStdout()) {
            System.err.println("wrote " + markdown);
        }
        return ExitCode.OK;
    }
}
