package org.ncclharness.harness.bringup;

import java.util.List;

/**
 * What a pair search found.
 *
 * @param hosts      how many hosts took part (indices 0 … hosts − 1)
 * @param measured   every group measured, in the order measured
 * @param slowHosts  the hosts named slow, ascending
 * @param reasons    one line per named host (or per slow pair that no host explains), with the figures
 * @param rounds     how many rounds the search ran
 * @param method     {@code all pairs} or {@code halving search}
 */
public record PairResult(int hosts, List<Group> measured, List<Integer> slowHosts, List<String> reasons, int rounds,
                         String method) {

    /** One group as measured: its hosts, its busbw, and whether it was judged slow against its round's reference. */
    public record Group(List<Integer> hosts, double busBwGBps, double referenceGBps, boolean slow) {

        public Group {
            hosts = List.copyOf(hosts);
        }
    }

    public PairResult {
        measured = List.copyOf(measured);
        slowHosts = List.copyOf(slowHosts);
        reasons = List.copyOf(reasons);
    }

    /** Pair busbw as a host × host matrix (NaN where that pair was not measured on its own). */
    public double[][] pairMatrix() {
        double[][] m = new double[hosts][hosts];
        for (double[] row : m) {
            java.util.Arrays.fill(row, Double.NaN);
        }
        for (Group g : measured) {
            if (g.hosts().size() == 2) {
                m[g.hosts().get(0)][g.hosts().get(1)] = g.busBwGBps();
                m[g.hosts().get(1)][g.hosts().get(0)] = g.busBwGBps();
            }
        }
        return m;
    }
}
