package org.ncclharness.calibration.diagnose;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCCL lines of any log: each {@code NCCL INFO} or {@code NCCL WARN} message with the host that printed it,
 * whatever came before it (a launcher tag, {@code > } quoting, a stripped or partial {@code host:pid:tid [dev]}
 * prefix) and however many were spliced into one physical line.
 */
public final class NcclLines {

    /**
     * One NCCL message.
     *
     * @param lineNo physical line, from 1
     * @param host   the host of its {@code host:pid:tid} prefix, null where the prefix was stripped
     * @param warn   a {@code NCCL WARN}
     * @param text   the message after {@code NCCL INFO } / {@code NCCL WARN }
     * @param raw    the physical line, for evidence
     */
    public record Line(int lineNo, String host, String pid, String device, boolean warn, String text, String raw) { }

    /** {@code NCCL INFO}/{@code NCCL WARN}; a WARN whose poster dropped "NCCL" still has its {@code file.h:344}. */
    private static final Pattern MESSAGE = Pattern.compile("(?:NCCL |(?<=\\.(?:cc|cu|h|c):\\d{1,5} ))(INFO|WARN) ?");
    /** The NCCL source file that printed a WARN, as its prefix names it ({@code transport/nvls.cc:158}). */
    private static final Pattern WARN_SOURCE = Pattern.compile("([\\w./-]+\\.(?:cc|cu|h|c)):\\d+(?: \\([^)]*\\))?"
            + " (?:NCCL )?WARN");
    /**
     * {@code host:pid:tid [dev]}, and before a WARN the {@code file:line} (NCCL 2.4+) and {@code (function)} (2.30)
     * of the call: {@code h1:123:456 [0] transport/net_ib/p2p.cc:688 (ncclIbTest) NCCL WARN}.
     */
    private static final Pattern HOST = Pattern.compile("([A-Za-z0-9][\\w.-]*):(\\d+):\\d+ \\[(\\d+)\\]"
            + "(?: [\\w./<>-]+:\\d+(?: \\([^)]*\\))?)? ?$");
    /** Messages posters kept without any prefix: what NCCL's INFO lines begin with. */
    private static final Pattern BARE = Pattern.compile("^(?:[NR]CCL version|NET/|Bootstrap|Channel \\d|comm 0x|Using (?:internal )?"
            + "[Nn]etwork|NVLS|Connected all|ncclCommInitRank|Init COMPLETE|NCCL_[A-Z_]+ set by|CollNet|Ring \\d|Trees|"
            + "\\d+ coll channels|cudaDriverVersion|P2P plugin|Plugin|Setting affinity|MNNVL|DMA-BUF)");

    private static final Pattern SPLICED = Pattern.compile("\\S*:\\d+:\\d+ \\[\\d+\\](?: [\\w./<>-]+:\\d+(?: \\([^)]*\\))?)?"
            + " ?$");

    /** NCCL's version line where it stands alone: at the start, or after a launcher's tag. */
    private static final Pattern VERSION_LINE = Pattern.compile("(?:^\\s*|[>:\\]]\\s*)([NR]CCL version \\d+\\.\\d+\\.\\d+)");

    private NcclLines() {
    }

    public static List<Line> of(List<String> lines) {
        List<Line> out = new ArrayList<>();
        boolean prefixed = false;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            if (raw.stripLeading().startsWith("#")) {
                // nccl-tests' own comment lines (and prose quoted behind '#') are never NCCL's
                continue;
            }
            Matcher m = MESSAGE.matcher(raw);
            List<int[]> at = new ArrayList<>();
            while (m.find()) {
                at.add(new int[] {m.start(), m.end(), m.group(1).equals("WARN") ? 1 : 0});
            }
            prefixed |= !at.isEmpty();
            Matcher v = VERSION_LINE.matcher(raw);
            if (at.isEmpty() && v.find()) {
                // NCCL before 2.4 printed its version on rank 0 without the INFO prefix (and launchers tag it)
                out.add(new Line(i + 1, null, null, null, false, raw.substring(v.start(1)).strip(), raw));
            }
            for (int k = 0; k < at.size(); k++) {
                int prefixFrom = k == 0 ? 0 : at.get(k - 1)[1];
                String prefix = raw.substring(prefixFrom, at.get(k)[0]);
                int textEnd = k + 1 < at.size() ? start(raw, at.get(k + 1)[0]) : raw.length();
                Matcher h = HOST.matcher(prefix);
                boolean found = h.find();
                out.add(new Line(i + 1, found ? h.group(1) : null, found ? h.group(2) : null, found ? h.group(3) : null,
                        at.get(k)[2] == 1, raw.substring(at.get(k)[1], textEnd).strip(), raw));
            }
        }
        if (!prefixed) {
            // Posters sometimes strip the whole prefix, "NCCL INFO" included: take the lines NCCL's messages start
            // with (a bare version line, read above, does not make the others prefixed ones)
            Set<Integer> taken = new HashSet<>();
            out.forEach(l -> taken.add(l.lineNo()));
            for (int i = 0; i < lines.size(); i++) {
                String t = lines.get(i).strip();
                if (!taken.contains(i + 1) && BARE.matcher(t).find()) {
                    out.add(new Line(i + 1, null, null, null, false, t, lines.get(i)));
                }
            }
            out.sort(Comparator.comparingInt(Line::lineNo));
        }
        return out;
    }

    /** The NCCL source file a WARN line names in its prefix ({@code transport/nvls.cc}), null where it names none. */
    public static String warnSource(Line l) {
        if (!l.warn()) {
            return null;
        }
        Matcher m = WARN_SOURCE.matcher(l.raw());
        return m.find() ? m.group(1) : null;
    }

    /** Where the next spliced message's prefix begins: the start of its {@code host:pid:tid [dev]}, if any. */
    private static int start(String raw, int nextMessage) {
        String before = raw.substring(0, nextMessage);
        Matcher h = SPLICED.matcher(before);
        return h.find() ? h.start() : nextMessage;
    }
}
