package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose collective the rows do not decide is refused by {@code check} and {@code calibrate} with the
 * reader's reason, found by the note's kind (never by searching its words for a flag): {@code calibrate} quotes the
 * note as the user reads it, {@code check} its reason without the flag, which its own advice names with examples.
 * Real logs: an AllToAll run that names no program (superbench), and nccl-tests#179's excerpt whose rows fail the
 * data check.
 */
class UnknownCollectiveReasonTest {

    private static final String REAL = "../calibration/src/test/resources/logs/real/";
    private static final String ALLTOALL = REAL + "old_superbench_a100_alltoall.txt";
    private static final String WRONG = REAL + "ncclinfo_wrong_2x2_ring_nccltests179_excerpt.txt";
    private static final String ALLTOALL_WHY = "the log does not name its test program and its rows (size = 8 x count"
            + " x 4 B, busbw/algbw = 0.8750) fit all_gather/reduce_scatter/alltoall/alltoallv/gather/scatter";

    @TempDir
    Path dir;

    @Test
    void checkGivesTheReasonAndAsksForTheCollectiveOnce() {
        CliRun run = CliRun.of("check", ALLTOALL);
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).isEqualTo(ALLTOALL + ": unknown float: the collective is not known (" + ALLTOALL_WHY
                + "); pass --collective NAME (all_reduce, all_gather, ...)\n");
    }

    @Test
    void calibrateQuotesTheNoteAsTheUserReadsIt() {
        CliRun run = CliRun.of("calibrate", ALLTOALL, "--interconnect", "NVLink3");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).isEqualTo(ALLTOALL + ": no table can be calibrated: " + ALLTOALL + " (unknown float): "
                + ALLTOALL_WHY + "; pass --collective NAME\n");
    }

    @Test
    void whatTheRowsSayBesideTheQuestionStaysInTheReason() {
        CliRun check = CliRun.of("check", WRONG);
        assertThat(check.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(check.err()).isEqualTo(WRONG + ": unknown float sum: the collective is not known (the log does not"
                + " name its test program and its rows (redop sum, root -1, size = count x 4 B) fit"
                + " all_reduce/sendrecv; 5 of its 5 rows report #wrong > 0: nccl-tests' data check failed, so the results are corrupt"
                + " whatever the collective); pass --collective NAME (all_reduce, all_gather, ...)\n");
        CliRun calibrate = CliRun.of("calibrate", WRONG, "--interconnect", "NVLink3");
        assertThat(calibrate.err()).contains("fit all_reduce/sendrecv; pass --collective NAME; 5 of its 5 rows report"
                + " #wrong > 0");
    }

    @Test
    void aSweepJsonOfSuchATableIsDecidedAgainWhenReadSoTheReasonAndTheFlagBothHold() {
        String json = dir.resolve("alltoall.json").toString();
        assertThat(CliRun.of("convert", ALLTOALL, "--json", json).exitCode()).isEqualTo(ExitCode.OK);
        // the file keeps the words of its notes, not their kinds: the reader decides the collective again
        CliRun refused = CliRun.of("check", json);
        assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err()).startsWith(json + ": unknown float: the collective is not known (the log does not"
                + " name its test program and its rows (").endsWith(") fit all_gather/alltoall/alltoallv); pass --collective"
                + " NAME (all_reduce, all_gather, ...)\n");
        CliRun given = CliRun.of("check", json, "--collective", "alltoall");
        assertThat(given.exitCode()).as(given.err()).isEqualTo(ExitCode.OK);
        assertThat(given.out()).contains("Verdict: WARN");
    }
}
