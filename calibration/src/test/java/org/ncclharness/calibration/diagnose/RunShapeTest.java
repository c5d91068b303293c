package org.ncclharness.calibration.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;

/**
 * The diagnosis of a log whose lines show some ranks only reports N and hosts as the log's tables resolve them,
 * not the lower bound its lines show: before, diagnose said 100 ranks on 13 hosts of a 1024-rank run whose device
 * list is cut after rank 99.
 */
class RunShapeTest {

    private static final String REAL = "src/test/resources/logs/real/";

    private static Diagnosis diagnosed(String log, boolean withShape) {
        RunDocument doc = Inputs.document(REAL + log, null, Inputs.Text.KEEP);
        return Diagnoser.diagnose(doc.name(), doc.lines(), withShape ? RunShape.of(doc) : RunShape.UNKNOWN);
    }

    @Test
    void aListCutShortCountsNeitherRanksNorHosts() {
        String log = "failed_h100_1024rank_listcut_reducedmaxbytes_issue322.txt";
        Diagnosis alone = diagnosed(log, false);
        assertThat(alone.ranks()).isEqualTo(100);
        assertThat(alone.nodes()).isEqualTo(13);
        Diagnosis shaped = diagnosed(log, true);
        assertThat(shaped.ranks()).isEqualTo(1024);
        assertThat(shaped.nodes()).as("13 hosts seen of a run of 1024 ranks: some of its hosts").isNull();
    }

    @Test
    void aWholeRunKeepsTheCountsItsLinesShow() {
        // a real two-host log whose lines show every rank: the same counts with or without the tables' shape
        String log = "multihost_h100_10x1_ib_xxrjun.txt";
        assertThat(diagnosed(log, true).ranks()).isEqualTo(diagnosed(log, false).ranks());
        assertThat(diagnosed(log, true).nodes()).isEqualTo(diagnosed(log, false).nodes());
    }
}
