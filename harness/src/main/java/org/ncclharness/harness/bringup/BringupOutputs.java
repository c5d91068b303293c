package org.ncclharness.harness.bringup;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.ReportPage;

/**
 * What rank 0 prints and writes at the end: the report on stdout, then DIR's files all at once or none
 * ({@link OutputFile#writeAll}); the exit code is the verdict's (FAIL 1, else 0; a replay's is never FAIL).
 */
final class BringupOutputs {

    private final Path dir;
    private final boolean force;
    private final boolean strict;

    /** @param strict a WARN exits 1 as a FAIL does ({@code --strict}) */
    BringupOutputs(Path dir, boolean force, boolean strict) {
        this.dir = dir;
        this.force = force;
        this.strict = strict;
    }

    int write(BringupReport report) {
        Map<Path, OutputFile.Content> files = new LinkedHashMap<>();
        report.baseline().ifPresent(b -> {
            // with what the run's input states besides its rows, so that check of the file knows its NICs and network
            files.put(dir.resolve("baseline.json"), bytes(SweepJson.write(b, List.of(), SweepJson.Context.none()
                    .withSource(report.baselineSource().toJson().orElse(null)))));
            // a replay's CSV says so on every row (its provenance columns), as its JSON and page do
            files.put(dir.resolve("baseline.csv"), bytes(MeasurementCsv.toString(List.of(b))));
            files.put(dir.resolve("baseline.png"), ReportPage.png(Figure.of(List.of(FigureSeries.of(b)))));
        });
        files.putAll(report.page().files(dir));
        print(report.text(), files);
        return ExitCode.of(report.verdict(), strict);
    }

    /** The page's figure is pairs.png, the heatmap. */
    int write(PairsReport report) {
        Map<Path, OutputFile.Content> files = new LinkedHashMap<>();
        files.put(dir.resolve("pairs.csv"), bytes(report.csv()));
        files.putAll(report.page().files(dir));
        print(report.text(), files);
        return report.failed() ? ExitCode.FAIL : ExitCode.OK;
    }

    private void print(String text, Map<Path, OutputFile.Content> files) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        // line by line: a launcher that tags output (mpirun --tag-output) would split a line cut by a buffer
        text.lines().forEach(out::println);
        OutputFile.writeAll(files, force);
        out.println("# page written to " + dir.resolve("index.html"));
        out.flush();
    }

    private static OutputFile.Content bytes(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return o -> o.write(b);
    }
}
