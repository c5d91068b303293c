package org.ncclharness.harness.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.diagnose.NcclRules;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code diagnose} on real NCCL_DEBUG=INFO excerpts (calibration's test resources, sources in their headers). */
class DiagnoseCommandTest {

    private static final Path LOGS = Path.of("../calibration/src/test/resources/logs/ncclinfo");

    @Test
    void aSocketFallbackIsSaidWithItsEvidenceAndFix() {
        String log = LOGS.resolve("efa_plugin_no_provider_socket_fallback_g6e8x_nccl2273.txt").toString();
        CliRun r = CliRun.of("diagnose", log);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inter-node: NET/Socket (").contains("GPUDirect RDMA OFF")
                .contains("WARN SOCKET_FALLBACK: inter-node traffic runs on NET/Socket (TCP) over eth0")
                .containsPattern("evidence: .*efa_plugin_no_provider_socket_fallback_g6e8x_nccl2273.txt:\\d+: ")
                .contains("fix: give NCCL an RDMA device");
    }

    @Test
    void anIbCompletionErrorFailsAndTheJsonCarriesTheSchema(@TempDir Path dir) throws IOException {
        String log = LOGS.resolve("ib_completion_error4_vendor81_h100_5node_issue928.txt").toString();
        CliRun r = CliRun.of("diagnose", log, "--json", "-");
        assertThat(r.exitCode()).isEqualTo(ExitCode.FAIL);
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.path("schema").asText()).isEqualTo("nccl-harness/diagnosis/1");
        JsonNode f = root.path("runs").get(0).path("findings").get(0);
        assertThat(f.path("code").asText()).isEqualTo("IB_COMPLETION_ERROR");
        assertThat(f.path("message").asText()).contains("local protection error");
        assertThat(f.path("rule").asText())
                .startsWith("ib-completion-error: src/transport/net_ib.cc (NCCL 2.18.1-2.19.4)");
        Path out = dir.resolve("d.json");
        assertThat(CliRun.of("diagnose", log, "--json", out.toString()).exitCode()).isEqualTo(ExitCode.FAIL);
        assertThat(Files.readString(out)).contains("\"code\" : \"IB_COMPLETION_ERROR\"");
        assertThat(CliRun.of("diagnose", "no/such.log").exitCode()).isEqualTo(ExitCode.USAGE);
    }

    /** The help names every finding code the diagnosis table can give. */
    @Test
    void theHelpNamesEveryCodeOfTheTable() {
        String help = CliRun.of("diagnose", "--help").out().replaceAll("\\s+", " ");
        assertThat(NcclRules.table().rules()).extracting(NcclRules.Rule::code).allSatisfy(c -> assertThat(help)
                .contains(c));
    }

    @Test
    void checkPutsTheLogsDiagnosisNextToItsBandwidthVerdict(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("run.txt");
        String nccl = String.join("\n", Files.readAllLines(LOGS.resolve(
                "rccl_slingshot_no_ofi_plugin_socket_hsn_crusher.txt")).stream()
                .filter(l -> l.contains("NCCL INFO") || l.contains("NCCL WARN")).toList());
        Files.writeString(log, nccl + "\n" + Files.readString(Path.of("../datasets/raw/a100_allreduce_16gpu_2node_oci_roce.txt")));
        CliRun r = CliRun.of("check", log.toString(), "--nodes", "2", "--interconnect", "RoCE-100G");
        assertThat(r.out()).contains("INFO: diagnosis SOCKET_FALLBACK: inter-node traffic runs on NET/Socket (TCP)");
    }
}
