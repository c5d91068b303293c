package org.ncclharness.calibration.export;

import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.nccl.Algorithm;

/**
 * One line of NCCL's example tuner plugin's configuration (plugins/tuner/example/README.md):
 * {@code collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff}.
 * numPipeOps and regBuff are always -1 (any): no input here tells them apart.
 *
 * @param collective one NCCL's tuner is asked about ({@link Algorithm#tuned})
 * @param minBytes   first size of the range, bytes
 * @param maxBytes   last size, bytes, unsigned ({@link #ANY_SIZE}: every size above minBytes)
 * @param pick       the algorithm and protocol
 * @param channels   the channel count, -1 (NCCL's own) unless measured
 * @param nodes      nNodes to match
 * @param ranks      nRanks to match
 * @param origin     where the pick comes from, for the comment line above the rows that share it
 */
public record TunerRow(Collective collective, long minBytes, long maxBytes, TunerPick pick, int channels, int nodes,
                       int ranks, String origin) {

    /** size_t's largest value (strtoull of the plugin's parser reads it): the range has no upper end. */
    public static final long ANY_SIZE = -1L;
    /** channels, numPipeOps, regBuff: NCCL's own / match any. */
    public static final int ANY = -1;

    public TunerRow {
        if (!Algorithm.tuned(collective)) {
            throw new IllegalArgumentException(collective.ncclName() + " is not asked of a tuner: NCCL runs it as"
                    + " point-to-point sends and receives");
        }
        if (Long.compareUnsigned(minBytes, maxBytes) > 0) {
            throw new IllegalArgumentException("empty range " + Long.toUnsignedString(minBytes) + ".."
                    + Long.toUnsignedString(maxBytes));
        }
    }

    /** The CSV line, as the plugin reads it: no spaces, ten fields. */
    public String line() {
        return String.join(",", collective.cliName(), Long.toUnsignedString(minBytes),
                Long.toUnsignedString(maxBytes), pick.tunerAlgorithm(), pick.tunerProtocol(),
                String.valueOf(channels), String.valueOf(nodes), String.valueOf(ranks), String.valueOf(ANY),
                String.valueOf(ANY));
    }
}
