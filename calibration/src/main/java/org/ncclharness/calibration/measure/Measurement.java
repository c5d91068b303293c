package org.ncclharness.calibration.measure;

/**
 * One row of an nccl-tests table: the size nccl-tests prints, its element count, datatype, reduction op and
 * root, then the out-of-place and in-place halves. A half the source lacks is {@link Half#empty()}, never null.
 *
 * @param sizeBytes the {@code size} column (bytes; for all_gather and reduce_scatter the total buffer)
 * @param count     the {@code count} column (elements per rank parameter)
 * @param type      datatype name as nccl-tests prints it ({@code float}, {@code half}, ...)
 * @param redop     reduction op ({@code sum}, ...), {@code none} for non-reducing collectives
 * @param root      root rank, -1 for non-rooted collectives (old logs without the column also read -1)
 */
public record Measurement(long sizeBytes, long count, String type, String redop, int root,
                          Half outOfPlace, Half inPlace) {

    public Measurement {
        // one instance of each name nccl-tests prints, whichever reader split it off its line (README, memory)
        type = RowNames.canonical(type);
        redop = RowNames.canonical(redop);
        outOfPlace = outOfPlace == null ? Half.empty() : outOfPlace;
        inPlace = inPlace == null ? Half.empty() : inPlace;
    }

    /** The half the calibration uses: out-of-place when it has data, else in-place (docs/calibration.md). */
    public Half preferred(Placement placement) {
        return placement == Placement.IN_PLACE ? inPlace : outOfPlace;
    }
}
