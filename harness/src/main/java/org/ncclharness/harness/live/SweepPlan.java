package org.ncclharness.harness.live;

import java.nio.file.Path;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;
import org.ncclharness.gpu.DataType;
import org.ncclharness.gpu.ReduceOp;
import org.ncclharness.harness.options.OutputTarget;

/**
 * A validated sweep request: the nccl-tests flags with their meanings resolved, and ours.
 *
 * @param step          as nccl-tests' preamble prints it: {@code 2(factor)} or {@code 1048576(bytes)}
 * @param collectiveSet true when {@code --collective} was given (a {@code --dataset} then must match it)
 * @param root          {@code -r}; -1 = every root in turn
 * @param cycles        {@code -N}
 * @param minBusBwGBps  {@code --min-busbw} or NCCL_TESTS_MIN_BW; null = not checked
 * @param interconnect  what the GPUs are connected by, for the calibration of a live run (null: not stated)
 * @param csv           {@code --csv}, a file or standard output, null without
 * @param json          {@code -J}, a file or standard output, null without
 * @param report        {@code --report DIR}, null without
 * @param ctaPolicy     {@code -x}: ncclConfig_t.CTAPolicy, -1 = unset (NCCL's default)
 * @param unalignElements {@code -u}: elements by which every buffer pointer is misaligned
 * @param ncclEstimate  {@code --nccl-estimate}: ask NCCL (2.22+) for its own time of each size, beside the measurement
 * @param args          the full command line, for the JSON
 */
public record SweepPlan(List<Long> sizes, long minBytes, long maxBytes, String step, Collective collective,
                        boolean collectiveSet, List<DataType> types, List<ReduceOp> ops, int root,
                        List<Combination> combinations, int threads, int gpusPerThread, int warmupIters, int iters,
                        int aggIters, int cycles, int check, int blocking, boolean streamNull, int timeoutS,
                        int graph, boolean cpuTime, int average, int localRegister, boolean timestamps, int parallelInit,
                        boolean memory, boolean perIter, int perIterSkip, Integer testsDevice, SplitRule split,
                        OutputTarget csv, OutputTarget json, Path report, boolean force, boolean strict, boolean calibrate,
                        String datasetId,
                        Double minBusBwGBps, String interconnect, int ctaPolicy, int unalignElements,
                        boolean ncclEstimate, PeerTraffic traffic, List<String> args) {

    public SweepPlan {
        sizes = List.copyOf(sizes);
        types = List.copyOf(types);
        ops = List.copyOf(ops);
        combinations = List.copyOf(combinations);
        args = List.copyOf(args);
    }

    /** The plan as a replay carries it out: one stored cycle, the stored combination. */
    public SweepPlan asReplay() {
        return new SweepPlan(sizes, minBytes, maxBytes, step, collective, collectiveSet, types, ops, root,
                List.of(Combination.auto()), threads, gpusPerThread, warmupIters, iters, aggIters, 1, check, blocking,
                streamNull, timeoutS, graph, cpuTime, average, localRegister, timestamps, parallelInit, memory, perIter,
                perIterSkip, testsDevice, split, csv, json, report, force, strict, calibrate, datasetId, minBusBwGBps,
                interconnect, ctaPolicy, unalignElements, ncclEstimate, traffic, args);
    }

    /** The plan with other datatypes and ops: {@code -d all} / {@code -o all} as the GPUs at hand resolve them. */
    public SweepPlan withTypesAndOps(List<DataType> newTypes, List<ReduceOp> newOps) {
        return new SweepPlan(sizes, minBytes, maxBytes, step, collective, collectiveSet, newTypes, newOps, root,
                combinations, threads, gpusPerThread, warmupIters, iters, aggIters, cycles, check, blocking,
                streamNull, timeoutS, graph, cpuTime, average, localRegister, timestamps, parallelInit, memory, perIter,
                perIterSkip, testsDevice, split, csv, json, report, force, strict, calibrate, datasetId, minBusBwGBps,
                interconnect, ctaPolicy, unalignElements, ncclEstimate, traffic, args);
    }

    /** GPUs this process drives: {@code -t × -g}. */
    public int localGpus() {
        return threads * gpusPerThread;
    }

    /** True when the request is a matrix of forced combinations rather than NCCL's own choice. */
    public boolean isMatrix() {
        return combinations.size() > 1 || !combinations.get(0).isAuto();
    }
}
