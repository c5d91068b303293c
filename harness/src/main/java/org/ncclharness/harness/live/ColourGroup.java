package org.ncclharness.harness.live;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.ncclharness.gpu.JobGroup;

/**
 * The processes of one colour as the native timed loop sees them, while every colour of the job runs the same
 * loop at once: a bring-up step measures each host (or pair of hosts) on its own communicator, and each colour's
 * times must be its own, not the job's mean as under NCCL_TESTS_SPLIT. The reduction is a gather over the whole
 * job, each process keeping its colour's values; that works because every colour makes the same calls in the
 * same order (the same sizes and iterations). The barrier is the job's: waiting for more processes than the
 * colour holds changes nothing in a loop that all of them run.
 */
final class ColourGroup implements JobGroup {

    private final org.ncclharness.harness.launch.JobGroup job;
    private final LongUnaryOperator colourOf;
    private final long mine;
    private final int index;
    private final int count;

    ColourGroup(org.ncclharness.harness.launch.JobGroup job, LongUnaryOperator colourOf) {
        this.job = job;
        this.colourOf = colourOf;
        this.mine = colourOf.applyAsLong(job.rank());
        int before = 0;
        int size = 0;
        for (int p = 0; p < job.size(); p++) {
            if (colourOf.applyAsLong(p) == mine) {
                before += p < job.rank() ? 1 : 0;
                size++;
            }
        }
        this.index = before;
        this.count = size;
    }

    @Override
    public int processIndex() {
        return index;
    }

    @Override
    public int processCount() {
        return count;
    }

    @Override
    public void barrier() {
        job.barrier();
    }

    @Override
    public void allreduce(double[] values, Reduction op) {
        ByteBuffer own = ByteBuffer.allocate(Double.BYTES * values.length);
        for (double v : values) {
            own.putDouble(v);
        }
        List<byte[]> all = job.gather(own.array());
        boolean first = true;
        for (int p = 0; p < all.size(); p++) {
            if (colourOf.applyAsLong(p) != mine) {
                continue;
            }
            ByteBuffer b = ByteBuffer.wrap(all.get(p));
            for (int i = 0; i < values.length; i++) {
                double v = b.getDouble();
                values[i] = first ? v : switch (op) {
                    case SUM -> values[i] + v;
                    case MIN -> Math.min(values[i], v);
                    case MAX -> Math.max(values[i], v);
                };
            }
            first = false;
        }
    }
}
