package org.ncclharness.harness.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/**
 * --nics-per-host and --nic-speed on a bundled id resolve as on a file: they fill what the dataset's metadata leaves
 * open (the real AWS p5 EKS run states no EFA NIC count or speed), so calibrate's line rate, R flag and β ceiling
 * and check's line rate (and plot's NCCL estimate) follow them; a flag that says otherwise than the metadata is
 * the contradiction error.
 */
class NicOptionsOnBundledRunsTest {

    private static final String P5 = "h100_allreduce_16gpu_2node_aws_p5_efa_eks";
    /** 2 x 4 A100 p4d over EFA whose metadata states 4 NICs per host at 100 Gb/s. */
    private static final String P4D = "a100_allreduce_16gpu_2node_aws_p4d_efa_eks";

    private static String row(CliRun r, String id) {
        return r.out().lines().filter(l -> l.startsWith(id)).findFirst().orElseThrow(() -> new AssertionError(r.out()));
    }

    private static String flags(String row) {
        String[] f = row.trim().split(" +");
        // id N model RMSPE alpha busbw [flags]
        return f.length > 6 ? f[6] : "";
    }

    @Test
    void calibrateTakesTheNicsTheFlagsStateForWhatTheMetadataLeavesOpen() {
        CliRun plain = CliRun.of("calibrate", P5, "--verbose");
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("per NIC: NICs per host not stated");
        assertThat(flags(row(plain, P5))).doesNotContain("R");

        // 32 EFA NICs of 100 Gb/s: 400 GB/s between the two hosts, which the measured 437.8 GB/s passes
        CliRun stated = CliRun.of("calibrate", P5, "--nics-per-host", "32", "--nic-speed", "100Gb/s", "--verbose");
        assertThat(stated.exitCode()).as(stated.err()).isZero();
        assertThat(stated.out()).doesNotContain("NICs per host not stated")
                .contains("(32 NICs per domain), u_IB 0.734 of 12.50 GB/s")
                .contains("above the 400 GB/s the network carries for AllReduce between domains (32 EFA NICs per"
                        + " domain, 400 GB/s)");
        assertThat(flags(row(stated, P5))).contains("R");
        // the fit's numbers are the plain run's: a line rate the data pass sets no ceiling
        assertThat(row(stated, P5).trim().split(" +")[5]).isEqualTo(row(plain, P5).trim().split(" +")[5]);
    }

    @Test
    void aLineRateTheDataDoNotPassCapsTheFittedBandwidthAtWhatAnyAlgorithmMoves() {
        // 10 NICs of 200 Gb/s: 250 GB/s; on 2 domains of 8 no algorithm passes 250 x 15·2/16 = 468.75 GB/s, above
        // every measured busbw (437.8 GB/s) and below the 534 GB/s fitted without it
        CliRun r = CliRun.of("calibrate", P5, "--nics-per-host", "10", "--nic-speed", "200Gb/s", "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("beta_IB       468.8 GB/s  [332.1, 468.8] undetermined");
        double busBw = Double.parseDouble(row(r, P5).trim().split(" +")[5]);
        assertThat(busBw).isLessThanOrEqualTo(468.75);
        CliRun plain = CliRun.of("calibrate", P5);
        assertThat(Double.parseDouble(row(plain, P5).trim().split(" +")[5])).isGreaterThan(468.75);
    }

    @Test
    void checkJudgesTheSameRunAgainstTheSameLineRate() {
        CliRun r = CliRun.of("check", P5, "--nics-per-host", "32", "--nic-speed", "100Gb/s");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("437.79 GB/s = 109.4 % of the line rate of 32 EFA NICs per host at 12.5 GB/s"
                + " (400 GB/s)");
    }

    @Test
    void plotsNcclEstimateTakesTheSameNics(@TempDir Path dir) {
        CliRun r = CliRun.of("plot", P5, "--model=nccl", "--nics-per-host", "32", "--nic-speed", "100Gb/s", "--out",
                dir.resolve("p5.png").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("network per channel: 32 NICs x 100.0 Gb/s / 8 / 16 channels");
        assertThat(r.out()).contains("busbw 438 GB/s above the network's 400 GB/s");
    }

    @Test
    void aFlagThatContradictsTheMetadataIsOneLineAndExit2InEveryCommand() {
        for (String command : new String[] {"calibrate", "check"}) {
            CliRun count = CliRun.of(command, P4D, "--nics-per-host", "8");
            assertThat(count.exitCode()).as(command).isEqualTo(2);
            assertThat(count.err()).contains(P4D + ": the file's NICs per host is 4 but --nics-per-host says 8;"
                    + " drop the flag or fix it");
            CliRun speed = CliRun.of(command, P4D, "--nic-speed", "400Gb/s");
            assertThat(speed.exitCode()).as(command).isEqualTo(2);
            assertThat(speed.err()).contains(P4D + ": the file's NIC speed is 100 Gb/s but --nic-speed says 400 Gb/s;"
                    + " drop the flag or fix it");
        }
        // the same facts stated again are no contradiction
        CliRun same = CliRun.of("calibrate", P4D, "--nics-per-host", "4", "--nic-speed", "100Gb/s");
        assertThat(same.exitCode()).as(same.err()).isZero();
        assertThat(row(same, P4D)).isEqualTo(row(CliRun.of("calibrate", P4D), P4D));
    }
}
