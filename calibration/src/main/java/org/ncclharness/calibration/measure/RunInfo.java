package org.ncclharness.calibration.measure;

/**
 * What a log's preamble says about the run (nccl-tests B.1). Every field is null when the log does not say it.
 *
 * @param testsVersion nccl-tests version ({@code 2.19.6}) or rccl-tests' version text
 * @param library      {@code nccl-tests} or {@code rccl-tests}
 * @param libraryVersion NCCL/RCCL version code or text as printed
 * @param program      {@code all_reduce_perf}
 * @param forcedAlgo   the NCCL_ALGO the log says the run forced ({@code NCCL_ALGO set by environment to RING} from
 *                     NCCL, or {@code NCCL_ALGO=Ring} on a launch or export line), as written
 * @param unalign      {@code -u}: elements by which the buffers were misaligned (the preamble's {@code unalign: N})
 */
public record RunInfo(String testsVersion, String library, String libraryVersion, String program,
                      Integer nThread, Integer nGpus, Long minBytes, Long maxBytes, String step,
                      Integer warmupIters, Integer iters, Integer aggIters, Integer validation, Integer graph,
                      String forcedAlgo, Integer unalign) {

    /** A run whose buffers' misalignment ({@code -u}) is not stated: nccl-tests' default, 0, is printed. */
    public RunInfo(String testsVersion, String library, String libraryVersion, String program, Integer nThread,
                   Integer nGpus, Long minBytes, Long maxBytes, String step, Integer warmupIters, Integer iters,
                   Integer aggIters, Integer validation, Integer graph, String forcedAlgo) {
        this(testsVersion, library, libraryVersion, program, nThread, nGpus, minBytes, maxBytes, step, warmupIters,
                iters, aggIters, validation, graph, forcedAlgo, null);
    }

    public static RunInfo unknown() {
        return new RunInfo(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }
}
