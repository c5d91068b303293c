package org.ncclharness.harness.live;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * nccl-tests' {@code MPI_Comm_split(MPI_COMM_WORLD, color, proc)} under NCCL_TESTS_SPLIT / NCCL_TESTS_SPLIT_MASK:
 * the processes of one colour form one communicator, ordered by world rank, from a unique id that the colour's
 * first process creates. As in nccl-tests the barriers and the reduction of times stay on the whole job, so the
 * printed row is the mean over every colour's communicators, each of {@code processesInColour × GPUs} ranks.
 *
 * @param colour            this process's colour: {@link SplitRule#colour} of its world rank, or a bring-up step's
 *                          grouping (a host, a pair of hosts)
 * @param processInColour   its position among the processes of its colour
 * @param processesInColour how many processes share the colour
 * @param uniqueId          the NCCL unique id of the colour's communicator
 */
record CommunicatorSplit(long colour, int processInColour, int processesInColour, byte[] uniqueId) {

    /**
     * Every process calls this at once: the first process of each colour creates an id ({@code newId}), the job
     * gathers them ({@code gather}: every process's bytes in rank order, on every process) and each takes its
     * colour's.
     */
    static CommunicatorSplit of(int rank, int processes, LongUnaryOperator colourOf, Function<byte[], List<byte[]>> gather,
                                Supplier<byte[]> newId) {
        long mine = colourOf.applyAsLong(rank);
        int first = -1;
        int index = 0;
        int size = 0;
        for (int p = 0; p < processes; p++) {
            if (colourOf.applyAsLong(p) == mine) {
                first = first < 0 ? p : first;
                index += p < rank ? 1 : 0;
                size++;
            }
        }
        List<byte[]> ids = gather.apply(first == rank ? newId.get() : new byte[0]);
        byte[] id = ids.get(first);
        if (id.length == 0) {
            throw new IllegalStateException("rank " + first + ", first of colour " + mine + ", sent no unique id");
        }
        return new CommunicatorSplit(mine, index, size, id);
    }

    /** The NCCL rank of local GPU 0 of this process in its colour's communicator. */
    int firstRank(int gpusPerProcess) {
        return processInColour * gpusPerProcess;
    }

    /** Ranks in this colour's communicator. */
    int nranks(int gpusPerProcess) {
        return processesInColour * gpusPerProcess;
    }
}
