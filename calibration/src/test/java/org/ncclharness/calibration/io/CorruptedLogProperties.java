package org.ncclharness.calibration.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Real logs corrupted in thousands of ways, one line at a time: the reader either returns the rows of the
 * uncorrupted lines (plus, at most, a still-valid row made from the corrupted line), or names the corrupted
 * line as the first bad one. Never an uncaught exception of another kind.
 */
class CorruptedLogProperties {

    /** Several generations and launchers: 2.19-era, old `error` column, srun labels, Open MPI tags, rccl. */
    private static final List<String> FILES = List.of(
            "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk.txt",
            "a100_allreduce_128gpu_coreweave_2022.txt",
            "h100_allreduce_16gpu_2node_ib_ndr_default_ncclTests290_partial.txt",
            "h100_allreduce_8gpu_1node_aws_p5_batch.txt",
            "mi300x_allreduce_16gpu_2node_rccl_hisohara.txt",
            "h100pcie_allreduce_2gpu_nvlinkbridge_ncclTests194_partial.txt");
    private static final List<List<String>> LOGS = FILES.stream().map(CorruptedLogProperties::load).toList();
    private static final List<String> GARBAGE = List.of("", "x", "1e", "--", "N/A", "12.3.4", "nan", "-", "0x1f",
            "#", "1,5", "float", "9999999999999999999999");

    private static List<String> load(String name) {
        try {
            return Files.readAllLines(Path.of("../datasets/raw", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Corruption(int file, int line, int op, int position, char ch, String token) {
        List<String> apply() {
            List<String> lines = new ArrayList<>(LOGS.get(file));
            int k = line % lines.size();
            String l = lines.get(k);
            int p = l.isEmpty() ? 0 : position % l.length();
            String bad = switch (op) {
                case 0 -> l.isEmpty() ? l : l.substring(0, p) + l.substring(p + 1);
                case 1 -> l.isEmpty() ? String.valueOf(ch) : l.substring(0, p) + ch + l.substring(p + 1);
                case 2 -> l.substring(0, p);
                case 3 -> replaceToken(l, position, token);
                default -> l.substring(0, p) + ch + l.substring(p);
            };
            lines.set(k, bad);
            return lines;
        }

        int lineNumber() {
            return line % LOGS.get(file).size() + 1;
        }

        List<String> blanked() {
            List<String> lines = new ArrayList<>(LOGS.get(file));
            lines.set(line % lines.size(), "");
            return lines;
        }

        private static String replaceToken(String l, int which, String token) {
            String[] t = l.trim().split("\\s+");
            if (t.length == 0) {
                return token;
            }
            t[which % t.length] = token;
            return String.join("   ", t);
        }
    }

    @Provide
    Arbitrary<Corruption> corruptions() {
        // Bias the line towards the data rows: most real damage is in the table.
        return Combinators.combine(Arbitraries.integers().between(0, FILES.size() - 1),
                Arbitraries.integers().between(0, 10_000), Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, 200), Arbitraries.of('a', '9', '.', '-', '+', ' ', '\t', '#', ':',
                        'e', '/', '|', '0'), Arbitraries.of(GARBAGE))
                .as(Corruption::new);
    }

    @Property(tries = 5000)
    void eitherTheSurvivingRowsOrTheCorruptedLineIsNamed(@ForAll("corruptions") Corruption c) {
        String name = FILES.get(c.file());
        List<Measurement> survivors = rows(new NcclTestsLogReader(name, null).read(c.blanked()));
        List<Measurement> parsed;
        try {
            parsed = rows(new NcclTestsLogReader(name, null).read(c.apply()));
        } catch (InputException e) {
            if (e.line() != c.lineNumber()) {
                // A damaged column header is only noticed at the first row it does not fit; the message
                // must then point back at the header line.
                assertThat(e.getMessage()).contains("column header at line " + c.lineNumber());
            } else {
                assertThat(e.getMessage()).startsWith(name + ":" + c.lineNumber() + ": ");
            }
            return;
        }
        if (parsed.size() == survivors.size()) {
            assertThat(parsed).isEqualTo(survivors);
        } else {
            assertThat(parsed).hasSize(survivors.size() + 1);
            boolean oneExtra = false;
            for (int i = 0; i < parsed.size() && !oneExtra; i++) {
                List<Measurement> without = new ArrayList<>(parsed);
                without.remove(i);
                oneExtra = without.equals(survivors);
            }
            assertThat(oneExtra).as("parsed = survivors plus one row from the corrupted line").isTrue();
        }
    }

    private static List<Measurement> rows(List<Sweep> sweeps) {
        List<Measurement> out = new ArrayList<>();
        sweeps.forEach(s -> out.addAll(s.rows()));
        return out;
    }
}
