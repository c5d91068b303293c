package org.ncclharness.gpu;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Collective;

/**
 * Reads what NCCL actually ran from an NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING log (src/enqueue.cc), in every
 * format NCCL has used:
 *
 * <ul>
 *   <li>2.24+: {@code AllReduce: 1048576 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..7}} (some builds
 *       append {@code comm 0x...});</li>
 *   <li>2.23: {@code AllReduce: 1048576 Bytes -> Algo 1 proto 0 time 12.345678} (numeric ids);</li>
 *   <li>2.20–2.22: {@code 1048576 Bytes -> Algo 1 proto 0 time 12.345678} (no function name);</li>
 *   <li>2.27+ non-classic paths: {@code AllReduce [Symmetric]: 1048576 Bytes -> Kernel NAME nchannels ...}.</li>
 * </ul>
 *
 * NCCL ≤ 2.19 logs no per-operation choice outside debug builds; such a log yields nothing, and the caller
 * reports the actual algorithm as unknown rather than assuming the requested one.
 */
public final class TuningLog {
    /** Algorithm and protocol names by NCCL's numeric id (nccl_tuner.h), for the 2.20–2.23 formats. */
    private static final String[] ALGOS = {"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"};
    private static final String[] PROTOS = {"LL", "LL128", "SIMPLE"};

    private static final Pattern CLASSIC = Pattern.compile(
            "NCCL INFO (?:(\\w+): )?(\\d+) Bytes -> Algo (\\w+) proto (\\w+)"
                    + "(?: channel\\{Lo\\.\\.Hi\\}=\\{(\\d+)\\.\\.(\\d+)\\})?(?: time ([-+0-9.eE]+))?");
    private static final Pattern OTHER_PATH = Pattern.compile(
            "NCCL INFO (\\w+) \\[([\\w ]+)\\]: (\\d+) Bytes -> Kernel (\\S+)");

    private TuningLog() {
    }

    public static List<TuningChoice> parse(List<String> lines) {
        List<TuningChoice> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.contains(" Bytes -> ")) {
                continue;
            }
            Matcher m = CLASSIC.matcher(l);
            if (m.find()) {
                out.add(new TuningChoice(m.group(1), Long.parseLong(m.group(2)), name(m.group(3), ALGOS),
                        name(m.group(4), PROTOS), intOrNull(m.group(5)), intOrNull(m.group(6)),
                        m.group(7) == null ? null : Double.valueOf(m.group(7)), null, i + 1));
                continue;
            }
            Matcher o = OTHER_PATH.matcher(l);
            if (o.find()) {
                out.add(new TuningChoice(o.group(1), Long.parseLong(o.group(3)), o.group(4), null, null, null, null,
                        o.group(2), i + 1));
            }
        }
        return out;
    }

    /**
     * The distinct (algorithm, protocol) pairs logged for one collective at one size, in order of appearance
     * ({@code ALGO/PROTO}, e.g. {@code RING/LL}). {@code apiBytes} is {@link #apiBytes}; lines without a
     * function name (2.20–2.22) match any collective.
     */
    public static List<String> ran(List<TuningChoice> choices, Collective collective, long apiBytes) {
        Set<String> pairs = new LinkedHashSet<>();
        for (TuningChoice c : choices) {
            boolean fn = c.function() == null || c.function().equalsIgnoreCase(collective.ncclName());
            if (fn && c.bytes() == apiBytes) {
                pairs.add(c.protocol() == null ? c.algorithm() + "/" + c.path() : c.algorithm() + "/" + c.protocol());
            }
        }
        return List.copyOf(pairs);
    }

    /** The byte count NCCL logs for a size: the API call's {@code count · elementSize}. */
    public static long apiBytes(SizeSetup s) {
        return s.counts().paramCount() * s.type().bytes();
    }

    /**
     * Whether a logged pair is one NCCL_ALGO / NCCL_PROTO allow for {@code collective}, per their syntax
     * (NCCL src/graph/tuning.cc): comma lists, a leading {@code ^} for "all except", and from 2.24 {@code ;func:LIST}
     * sections. A null or blank request allows everything.
     */
    public static boolean allowed(String request, String name, Collective collective) {
        if (request == null || request.isBlank()) {
            return true;
        }
        String list = null;
        for (String section : request.split(";")) {
            int colon = section.indexOf(':');
            if (colon < 0) {
                list = list == null ? section : list;
            } else if (section.substring(0, colon).trim().equalsIgnoreCase(collective.ncclName())) {
                list = section.substring(colon + 1);
            }
        }
        if (list == null) {
            return true;
        }
        String l = list.trim();
        boolean except = l.startsWith("^");
        if (except) {
            l = l.substring(1);
        }
        boolean listed = false;
        for (String item : l.split(",")) {
            listed |= canonical(item).equals(canonical(name));
        }
        return except != listed;
    }

    private static String canonical(String s) {
        return s.trim().replace("_", "").toUpperCase(Locale.ROOT);
    }

    private static String name(String token, String[] byId) {
        if (token.chars().allMatch(Character::isDigit)) {
            int id = Integer.parseInt(token);
            return id < byId.length ? byId[id] : token;
        }
        return token.toUpperCase(Locale.ROOT);
    }

    private static Integer intOrNull(String s) {
        return s == null ? null : Integer.valueOf(s);
    }
}
