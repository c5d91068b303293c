package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;

/**
 * {@link TwoTierCalibrator#formsOnly} leaves out the protocol-aware families and nothing else: the forms, their
 * scores and the better of them are the full entry's, on multi-domain AllReduce runs (those with forms).
 */
class TwoTierFormsOnlyTest {

    /** Runs compared: the full entry of each costs its families' leave-one-out refits. */
    private static final int RUNS = 3;

    @Test
    void theFormsAloneAreTheFullEntrysForms() {
        TwoTierCalibrator full = new TwoTierCalibrator(HardwareFacts.bundled());
        TwoTierCalibrator forms = full.formsOnly();
        List<CalibrationInput> all = DatasetCatalog.bundled().all().stream().map(TwoTierFormsOnlyTest::input)
                .toList();
        int checked = 0;
        for (Dataset d : DatasetCatalog.bundled().all()) {
            if (checked == RUNS || !d.metadata().multiDomain() || d.collective() != Collective.ALL_REDUCE
                    || d.metadata().hasFlag("mixed-configurations")) {
                continue;
            }
            if (!(full.calibrate(input(d), all) instanceof TwoTierCalibration whole)
                    || whole.protocolFits().isEmpty()) {
                continue;
            }
            CalibrationEntry alone = forms.calibrate(input(d), all);
            assertThat(alone).as(d.id()).isInstanceOf(TwoTierCalibration.class);
            TwoTierCalibration t = (TwoTierCalibration) alone;
            assertThat(t.protocolFits()).as(d.id() + ": no protocol-aware family").isEmpty();
            assertThat(t.fits()).as(d.id()).isEqualTo(whole.fits());
            assertThat(t.better()).as(d.id()).isEqualTo(whole.better());
            assertThat(t.best()).as(d.id()).isEqualTo(whole.best());
            assertThat(t.best()).as(d.id()).isPresent();
            checked++;
        }
        assertThat(checked).as("multi-domain AllReduce runs compared").isEqualTo(RUNS);
    }

    private static CalibrationInput input(Dataset d) {
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags());
    }
}
