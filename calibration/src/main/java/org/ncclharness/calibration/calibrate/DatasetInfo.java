package org.ncclharness.calibration.calibrate;

import java.util.List;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;

/**
 * What a report says about the data behind an entry: where it came from and the configuration it ran on.
 *
 * @param id          bundled dataset id, or the file as the user named it
 * @param provenance  where the numbers came from (travels into every output)
 * @param collective  nccl-tests stem ({@code all_reduce})
 * @param hardware    GPU, N, hosts, domains, interconnects as far as known
 * @param forcedAlgo  the NCCL_ALGO the run forced, null when none was forced or the source does not say
 * @param flags       dataset flags ({@code busbw-only}, {@code partial}, ...)
 */
public record DatasetInfo(String id, Provenance provenance, String collective, Hardware hardware,
                          String forcedAlgo, List<String> flags) {

    public DatasetInfo {
        flags = flags == null ? List.of() : List.copyOf(flags);
    }
}
