package org.ncclharness.harness.runs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.RunResolver.UnstatedHosts;

/** A contradiction the resolver finds is one input error that names the flag to fix, where it came from. */
class FactAdviceTest {

    private static final RunDocument P4D = Inputs.document(Path.of(
            "../calibration/src/test/resources/logs/real/prefix_mpitag_eks_efa_p4d_interleaved_errorcol.txt")
            .toString(), null);

    private static void resolve(Integer gpus, Integer nodes) {
        RunInputs.resolve(P4D, new Hints(gpus, nodes, null, null, null, null, Nics.UNKNOWN),
                UnstatedHosts.LEAVE_UNKNOWN);
    }

    @Test
    void aFlagThatContradictsTheFileIsRefusedNamingBoth() {
        assertThatThrownBy(() -> resolve(null, 4)).isInstanceOf(InputException.class)
                .hasMessage(P4D.name() + ": the file's node count is 2 but --nodes says 4; drop the flag or fix it");
    }

    @Test
    void aCountBelowOneIsItsOwnErrorWhereItCameFromAlsoWhereTheFileSaysOne() {
        assertThatThrownBy(() -> resolve(-4, null)).isInstanceOf(InputException.class)
                .hasMessage("--gpus: GPU count must be at least 1, got -4");
        assertThatThrownBy(() -> resolve(null, 0)).isInstanceOf(InputException.class)
                .hasMessage("--nodes: node count must be at least 1, got 0");
    }
}
