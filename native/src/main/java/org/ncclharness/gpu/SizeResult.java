package org.ncclharness.gpu;

import org.ncclharness.calibration.measure.Measurement;

/**
 * One size of a sweep: the row nccl-tests prints (as calibration's {@link Measurement}, with times in µs
 * and #wrong as counted) plus what that row cannot hold: CPU launch times and per-iteration samples.
 */
public record SizeResult(Measurement measurement, PlacementResult outOfPlace, PlacementResult inPlace) {
}
