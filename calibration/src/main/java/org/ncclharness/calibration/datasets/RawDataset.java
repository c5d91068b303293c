package org.ncclharness.calibration.datasets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.format.Echo;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.NcclTestsLogReader;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Trailer;

/**
 * One raw dataset text as collected in {@code datasets/raw/}: a header written by the collector (source, GPU,
 * columns, ...), then the source's own lines between {@code === RAW} and {@code === END RAW}. The raw part is
 * read as an nccl-tests log; the three summary tables that give only bus bandwidth are read as the markdown
 * tables they are.
 *
 * @param id        the {@code # Dataset:} id, which must equal the file name without {@code .txt}
 * @param header    the collector's header lines
 * @param rawStart  1-based line number of the first raw line in the file
 * @param raw       the source's lines
 */
public record RawDataset(String id, List<String> header, int rawStart, List<String> raw) {

    private static final Pattern DATASET = Pattern.compile("^# Dataset:\\s*(\\S+)");
    private static final Pattern MD_ROW = Pattern.compile("^\\|\\s*([0-9.]+)\\s*([KMG]?)B?\\s*\\|\\s*([0-9.]+)\\s*\\|.*");
    private static final int FLOAT_BYTES = 4;

    /** Splits a raw file into header and raw part; {@code fileName} is used in messages. */
    public static RawDataset parse(String fileName, List<String> lines) {
        String id = null;
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher m = DATASET.matcher(l);
            if (id == null && m.find()) {
                id = m.group(1);
            } else if (start < 0 && l.startsWith("=== RAW")) {
                start = i + 1;
            } else if (start >= 0 && l.startsWith("=== END RAW")) {
                end = i;
                break;
            }
        }
        if (id == null) {
            throw new InputException(fileName, 1, "expected a '# Dataset: ID' line naming the dataset");
        }
        if (start < 0 || end < 0) {
            throw new InputException(fileName, start < 0 ? lines.size() : start,
                    "expected the source's lines between '=== RAW' and '=== END RAW'");
        }
        String stem = fileName.replaceAll(".*/", "").replaceAll("\\.txt$", "");
        if (!stem.equals(id)) {
            throw new InputException(fileName, 1, "the '# Dataset:' id '" + id + "' differs from the file name");
        }
        return new RawDataset(id, List.copyOf(lines.subList(0, start - 1)), start + 1,
                List.copyOf(lines.subList(start, end)));
    }

    /**
     * The collective the collector states: the first word of the {@code collective:} line that names one
     * ({@code all_gather_perf (redop none)}), else the id's second word ({@code b200_allgather_...}).
     */
    public Collective collective() {
        String h = header.stream().filter(l -> l.startsWith("collective:")).findFirst()
                .map(l -> l.substring("collective:".length()).trim()).orElse("");
        String first = h.isEmpty() ? "" : h.split("[\\s,;(]+")[0];
        String[] idWords = id.split("_");
        return Collective.byName(first)
                .or(() -> idWords.length > 1 ? Collective.byName(idWords[1]) : java.util.Optional.empty())
                .orElseThrow(() -> new InputException(id, 1, "the header's 'collective:' line names no collective "
                        + "nccl-tests runs (all_reduce, all_gather, ...): " + Echo.quote(h)));
    }

    /**
     * The rows, in source order. Raw nccl-tests lines are numbered as in the dataset file, so an error names the
     * line a user can open.
     */
    public List<Measurement> rows(String fileName) {
        List<String> numbered = new ArrayList<>();
        for (int i = 1; i < rawStart; i++) {
            numbered.add("");
        }
        numbered.addAll(raw);
        List<Measurement> mdRows = markdownBusBw(fileName);
        if (!mdRows.isEmpty()) {
            return mdRows;
        }
        List<Measurement> rows = new ArrayList<>();
        for (Sweep s : new NcclTestsLogReader(fileName, collective()).read(numbered)) {
            rows.addAll(s.rows());
        }
        return rows;
    }

    /**
     * The trailer the source states, when its raw text holds one nccl-tests table (the markdown summary tables
     * and multi-table extracts state none of their own).
     */
    public Trailer trailer() {
        if (!markdownBusBw(id).isEmpty()) {
            return Trailer.NONE;
        }
        return NcclTestsLogReader.statedTrailer(raw);
    }

    /**
     * A markdown summary table {@code | 65K | 3.72 |}: bus bandwidth only. Its rounded size labels (65K for
     * 65536, 132K for 131072) are decoded as the nearest power of two, which is how nccl-tests' {@code -f 2}
     * sizes print when rounded; the decoding must double from row to row, or it is refused. The count is what
     * nccl-tests computes for float, the default type these tables were produced with.
     */
    private List<Measurement> markdownBusBw(String fileName) {
        boolean inPlace = header.stream().anyMatch(l -> l.startsWith("columns:") && l.toUpperCase(Locale.ROOT)
                .contains("IN-PLACE"));
        List<Measurement> rows = new ArrayList<>();
        long previous = 0;
        for (int i = 0; i < raw.size(); i++) {
            Matcher m = MD_ROW.matcher(raw.get(i).trim());
            if (!m.matches()) {
                continue;
            }
            long size = decode(Double.parseDouble(m.group(1)), m.group(2));
            if (previous != 0 && size != 2 * previous) {
                throw new InputException(fileName, rawStart + i, "size label '" + m.group(1) + m.group(2)
                        + "' does not decode to twice the previous size (" + previous + ")");
            }
            previous = size;
            Half bus = new Half(null, null, Double.valueOf(m.group(3)), null);
            rows.add(new Measurement(size, size / FLOAT_BYTES, "float", "sum", -1,
                    inPlace ? Half.empty() : bus, inPlace ? bus : Half.empty()));
        }
        return rows;
    }

    private static long decode(double value, String unit) {
        double scale = switch (unit) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            default -> 1;
        };
        return Math.round(Math.pow(2, Math.round(Math.log(value * scale) / Math.log(2))));
    }
}
