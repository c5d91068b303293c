package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.Member;
import org.ncclharness.harness.live.ColouredRun;
import org.ncclharness.harness.live.SweepPlan;

/**
 * {@code bringup --pairs} measured now: each round of the {@link PairSearch} is one sweep of the largest sizes,
 * every group of the round on its own communicator at the same time; hosts the round leaves out run alone, on a
 * communicator of their own, and are not judged. Every rank feeds the same figures to its own copy of the search,
 * so all of them agree on the next round without a word from rank 0.
 */
record PairsRun(JobGroup job, GpuProbe probe, SweepPlan plan, int gpusPerProcess, CheckRules rules,
               BringupOutputs outputs) {

    int run(List<String> hostNames, Map<String, Integer> hostIndex, String shape) {
        List<Member> members = job.members();
        if (hostNames.size() < 2) {
            if (job.rank() == 0) {
                System.err.println("bringup --pairs: the job runs on one host (" + hostNames.get(0) + "); pairs of"
                        + " hosts need two or more (with HARNESS_HOST_ID or --host-id where hosts share a name)");
            }
            return ExitCode.USAGE;
        }
        PairSearch search = PairSearch.forHosts(hostNames.size(), rules);
        int round = 0;
        for (List<List<Integer>> groups = search.nextRound(); !groups.isEmpty(); groups = search.nextRound()) {
            round++;
            int[] groupOfHost = new int[hostNames.size()];
            java.util.Arrays.fill(groupOfHost, -1);
            for (int g = 0; g < groups.size(); g++) {
                for (int h : groups.get(g)) {
                    groupOfHost[h] = g;
                }
            }
            int count = groups.size();
            if (job.rank() == 0) {
                System.err.println("# bringup --pairs round " + round + ": " + count + " group(s) at once");
            }
            List<ColouredRun.Colour> colours = ColouredRun.run(job, probe, plan, gpusPerProcess, p -> {
                int h = hostIndex.get(members.get((int) p).hostId());
                return groupOfHost[h] >= 0 ? groupOfHost[h] : count + h;
            }, "pair round " + round);
            List<Double> busBw = new ArrayList<>();
            for (int g = 0; g < count; g++) {
                Measurement top = BringupRun.fastestAtLargest(colours.get(g).sweep());
                busBw.add(top.outOfPlace().busBwGBps() == null ? 0.0 : top.outOfPlace().busBwGBps());
            }
            search.record(busBw);
        }
        if (job.rank() != 0) {
            return ExitCode.OK;
        }
        return outputs.write(new PairsReport("measured now: " + shape, search.result(hostNames), hostNames,
                plan.sizes().get(plan.sizes().size() - 1)));
    }
}
