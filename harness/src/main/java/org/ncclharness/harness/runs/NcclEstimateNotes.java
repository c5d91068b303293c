package org.ncclharness.harness.runs;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.NcclEstimateComparison;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;

/**
 * For {@code calibrate}: NCCL's own estimate as a third curve beside the measurement and the fitted model, one line
 * per size band of every input JSON that carries it (a sweep's {@code -J} file with NCCL 2.22+). Informative only:
 * the fit does not use it.
 */
public final class NcclEstimateNotes {

    private NcclEstimateNotes() {
    }

    /** {@code # FILE: INFO measured 2.10× NCCL's own estimate at 1 MiB–16 MiB (...)}, in input order. */
    public static List<String> lines(List<Path> files) {
        List<String> out = new ArrayList<>();
        for (Path p : files) {
            if (!isJson(p)) {
                continue; // a log, a CSV or a bundled dataset id: none carries NCCL's estimate
            }
            RunDocument doc = Inputs.document(p.toString(), null, Inputs.Text.DROP);
            List<Sweep> tables = doc.sweeps();
            for (int i = 0; i < tables.size(); i++) {
                String id = tables.size() == 1 ? p.toString() : p + "#" + (i + 1);
                for (Finding f : NcclEstimateComparison.findings(tables.get(i).rows(),
                        doc.ncclEstimates(tables.get(i)))) {
                    out.add("# " + id + ": " + f.severity() + " " + f.message());
                }
            }
        }
        return out;
    }

    /** Whether a regular file's first non-blank character opens a JSON object (read without loading the file). */
    private static boolean isJson(Path p) {
        if (!Files.isRegularFile(p)) {
            return false;
        }
        try (BufferedReader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            int c;
            do {
                c = r.read();
            } while (c != -1 && Character.isWhitespace(c));
            return c == '{';
        } catch (IOException e) {
            return false; // the calibration's own read of the file reports what is wrong with it
        }
    }
}
