package org.ncclharness.harness.accuracy;

import org.ncclharness.harness.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.accuracy.AccuracyMarkdown;
import org.ncclharness.calibration.accuracy.AccuracyReport;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code accuracy [--markdown OUT]}: every model scored on every bundled dataset with times. */
@Command(name = "accuracy",
        description = {"Score every cost model on every bundled dataset with times: in-sample and leave-one-out"
                + " RMSPE overall and per size band, and on unseen points (interleaved, extrapolation beyond 256 MiB,"
                + " cross-scale), for the datasheet model, method B, the protocol envelope, NCCL's own tuner"
                + " (an estimate), the two-tier fit and the algorithm envelope (Ring/Tree x LL/LL128/Simple across"
                + " domains), and on multi-domain runs which of them calibrate picks.",
            "docs/model-accuracy.md is this command's output."})
public final class AccuracyCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--markdown", paramLabel = "OUT", description = "write the Markdown to OUT instead of stdout")
    Path markdown;

    @Option(names = "--force", description = "overwrite an existing --markdown file")
    boolean force;

    @Override
    public Integer call() {
        if (markdown != null) {
            OutputFile.checkWritable(markdown, force);
        }
        String text = AccuracyMarkdown.render(AccuracyReport.bundled());
        if (markdown != null) {
            OutputFile.write(markdown, force, o -> o.write(text.getBytes(StandardCharsets.UTF_8)));
            System.err.println("wrote " + markdown);
        } else {
            PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            out.print(text);
            out.flush();
        }
        return ExitCode.OK;
    }
}
