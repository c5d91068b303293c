package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A fuzz run: from one seed, cases spread over the 28 {@link Mutation} kinds, each a fresh random table damaged
 * or disguised one way and judged by the {@link FuzzOracle}. The same seed and count give the same cases.
 *
 * @param counts   per kind, how many cases came out each way
 * @param defects  the first defects found, for a report
 * @param silent   how many defects were a damaged row silently dropped
 */
public record FuzzRun(Map<Mutation, Map<FuzzOracle.Verdict, Integer>> counts, List<FuzzOracle.Outcome> defects,
                      int silent) {

    private static final int DEFECTS_KEPT = 20;

    public static FuzzRun of(long seed, int cases) {
        Random r = new Random(seed);
        Map<Mutation, Map<FuzzOracle.Verdict, Integer>> counts = new EnumMap<>(Mutation.class);
        for (Mutation m : Mutation.values()) {
            counts.put(m, new EnumMap<>(FuzzOracle.Verdict.class));
        }
        List<FuzzOracle.Outcome> defects = new ArrayList<>();
        int silent = 0;
        Mutation[] kinds = Mutation.values();
        for (int i = 0; i < cases; i++) {
            Mutation kind = kinds[i % kinds.length];
            FuzzOracle.Outcome o = judge(kind, r);
            counts.get(kind).merge(o.verdict(), 1, Integer::sum);
            if (o.verdict() == FuzzOracle.Verdict.DEFECT) {
                silent += o.silentDrop() ? 1 : 0;
                if (defects.size() < DEFECTS_KEPT) {
                    defects.add(o);
                }
            }
        }
        return new FuzzRun(counts, defects, silent);
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
