package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A fuzz run: from one seed, cases spread over the 28 {@link Mutation} kinds of a log and the
 * {@link DocumentMutation} kinds of a CSV and a JSON, each a fresh random table damaged or disguised one way and
 * judged by the {@link FuzzOracle} or the {@link DocumentOracle}. The same seed and count give the same cases.
 *
 * @param counts   per kind, how many cases came out each way
 * @param defects  the first defects found, for a report
 * @param silent   how many defects were a damaged row silently dropped
 */
public record FuzzRun(Map<String, Map<FuzzOracle.Verdict, Integer>> counts, List<FuzzOracle.Outcome> defects,
                      int silent) {

    private static final int DEFECTS_KEPT = 20;

    /** Every kind's name, the log's 28 first, then the CSV's and the JSON's, in the order they are reported. */
    public static List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (Mutation m : Mutation.values()) {
            out.add(m.name());
        }
        for (DocumentMutation m : DocumentMutation.values()) {
            out.add(m.name());
        }
        return out;
    }

    /** {@code cases} cases spread evenly over the log's, the CSV's and the JSON's kinds, in turn. */
    public static FuzzRun of(long seed, int cases) {
        Random r = new Random(seed);
        Map<String, Map<FuzzOracle.Verdict, Integer>> counts = new LinkedHashMap<>();
        List<String> kinds = kinds();
        kinds.forEach(k -> counts.put(k, new EnumMap<>(FuzzOracle.Verdict.class)));
        List<FuzzOracle.Outcome> defects = new ArrayList<>();
        int silent = 0;
        Mutation[] logKinds = Mutation.values();
        DocumentMutation[] documentKinds = DocumentMutation.values();
        for (int i = 0; i < cases; i++) {
            int k = i % kinds.size();
            FuzzOracle.Outcome o = k < logKinds.length ? judge(logKinds[k], r)
                    : judge(documentKinds[k - logKinds.length], r);
            counts.get(o.kind()).merge(o.verdict(), 1, Integer::sum);
            if (o.verdict() == FuzzOracle.Verdict.DEFECT) {
                silent += o.silentDrop() ? 1 : 0;
                if (defects.size() < DEFECTS_KEPT) {
                    defects.add(o);
                }
            }
        }
        return new FuzzRun(counts, defects, silent);
    }

    /** One case of this CSV or JSON kind on a fresh random table, judged. */
    public static FuzzOracle.Outcome judge(DocumentMutation kind, Random r) {
        return DocumentOracle.judge(kind.apply(FuzzTable.random(r), r));
    }

    /** One case of this kind on a fresh random table (tables the kind cannot apply to are skipped), judged. */
    public static FuzzOracle.Outcome judge(Mutation kind, Random r) {
        while (true) {
            FuzzTable t = FuzzTable.random(r);
            Mutation.Case c = kind.apply(t, r);
            if (c != null) {
                return FuzzOracle.judge(c, t.rows());
            }
        }
    }

    public int total(FuzzOracle.Verdict v) {
        return counts.values().stream().mapToInt(m -> m.getOrDefault(v, 0)).sum();
    }
}
