package org.ncclharness.gpu;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SizeList;

/**
 * The shortest end-to-end check of the real path on each visible GPU: a one-rank communicator
 * ({@code ncclGetUniqueId} + {@code ncclCommInitRank(nranks = 1)}), then one checked AllReduce sweep of
 * 8 B..1 MiB through the timed loop, plain and with CUDA-graph capture. A failure names the call.
 */
public final class GpuSmoke {

    /**
     * @param wrongPlain #wrong of the plain run (summed over sizes and placements)
     * @param wrongGraph #wrong of the -G 1 run
     * @param largestTimeUs out-of-place time of the largest size, plain
     */
    public record Result(int device, long wrongPlain, long wrongGraph, double largestTimeUs, String error) {
        public boolean ok() {
            return error == null && wrongPlain == 0 && wrongGraph == 0;
        }
    }

    private GpuSmoke() {
    }

    public static List<Result> run(GpuProbe probe) {
        probe.requireOk();
        List<Result> out = new ArrayList<>();
        for (GpuDevice d : probe.devices()) {
            out.add(runOn(probe, d.index()));
        }
        return out;
    }

    private static Result runOn(GpuProbe probe, int device) {
        List<Long> sizes = SizeList.sizes(8, 1 << 20, 0, 4);
        LoopOptions o = LoopOptions.defaults(Collective.ALL_REDUCE, DataType.FLOAT, ReduceOp.SUM, 0, sizes)
                .withIters(1, 5, 1).withTimeoutNanos(60_000_000_000L);
        UniqueId id = CudaNcclBackend.newUniqueId(probe);
        try (CudaNcclBackend be = CudaNcclBackend.open(probe, new CommSpec(new int[] {device}, 1, 0, id, false))) {
            be.allocate(TimedLoop.bufferBytes(o.maxBytes()), TimedLoop.bufferBytes(o.maxBytes()));
            TimedLoop loop = new TimedLoop(be, JobGroup.single());
            List<SizeResult> plain = loop.run(o);
            List<SizeResult> graph = loop.run(o.withGraph(1));
            return new Result(device, wrong(plain), wrong(graph), plain.get(plain.size() - 1).outOfPlace().timeUs(), null);
        } catch (GpuJobException | GpuEnvironmentException e) {
            return new Result(device, -1, -1, Double.NaN, e.getMessage());
        }
    }

    private static long wrong(List<SizeResult> rs) {
        return rs.stream().mapToLong(r -> r.outOfPlace().wrong() + r.inPlace().wrong()).sum();
    }
}
