package org.ncclharness.harness.diagnose;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.diagnose.Diagnoser;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.calibration.diagnose.DiagnosisWriter;
import org.ncclharness.calibration.diagnose.RunShape;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import org.ncclharness.harness.runs.RunInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code diagnose LOG...}: what NCCL actually used, from its NCCL_DEBUG=INFO lines, and what is wrong with it. */
@Command(name = "diagnose", addMethodSubcommands = false, sortOptions = false,
        description = {"Read the NCCL INFO/WARN lines of any log (an nccl-tests log, a training job's stderr) and say"
                + " what NCCL used: version, ranks and nodes, the bootstrap interface, each connection's transport inside"
                + " a host and between hosts, GPUDirect RDMA, NICs, NVLS and CollNet; then every known misconfiguration"
                + " with a stable code, the evidence (file:line) and the fix.",
            "Run the job with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV so that these lines are there."},
        footer = {"%nCodes: SOCKET_FALLBACK, NO_IB_DEVICE, SOCKET_ON_LOOPBACK, SOCKET_ON_VIRTUAL_IFACE, GDR_OFF, P2P_OFF,"
                + " NET_PLUGIN_FAILED, IB_COMPLETION_ERROR, IB_QP_FAILED, IB_MEMLOCK, IB_VERBS_FAILED, IB_DEVICE_UNUSABLE,"
                + " CONNECT_FAILED, SOCKET_ADDRESS_INVALID, SOCKET_UNUSABLE, SOCKET_IFNAME_NOT_FOUND, NET_TYPE_MISMATCH,"
                + " SHM_FAILED, SYSTEM_CALL_FAILED, CUDA_ERROR, NVLS_FAILED, DUPLICATE_GPU, RING_MISMATCH, NCCL_ERROR,"
                + " COLLNET_UNSUPPORTED, VERSION_MISMATCH,"
                + " IB_LIST_MIXES_LINK_LAYERS, ONE_RANK_PER_NODE, SEPARATE_JOBS, ONE_RANK, CONNECT_RETRY, MIXED_GPUS,"
                + " NIC_COUNT_DIFFERS, TEST_FAILED, NCCL_WARN, NO_NCCL_LINES; as INFO FORCED_ALGO, FORCED_PROTO,"
                + " COLLNET_IN_USE.",
            "Which NCCL message gives which finding, and its severity, is the table nccl/diagnosis-rules.json"
                    + " (NCCL's own format strings, 2.3 to 2.30).",
            "Exit: 0 without a FAIL finding, 1 with one (a failed connection, an IB completion error, a fatal NCCL"
                    + " result, mixed NCCL versions, a host with fewer NICs, a rank's 'Test NCCL failure'), 2 bad usage"
                    + " or input, 3 an output that cannot be written."})
public final class DiagnoseCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "log files, - for standard input, or bundled dataset"
            + " ids (their raw source)")
    List<String> logs = new ArrayList<>();

    @Option(names = "--json", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write the diagnosis as JSON (schema " + Diagnosis.SCHEMA + "); - for standard output"
                    + " (the text then goes to standard error)")
    OutputTarget json;

    @Option(names = "--force", description = "overwrite an existing --json file")
    boolean force;

    @Override
    public Integer call() {
        if (json != null) {
            json.checkWritable(force);
        }
        List<Diagnosis> all = new ArrayList<>();
        for (String log : logs) {
            RunDocument doc = RunInputs.document(log, null);
            all.add(Diagnoser.diagnose(log, doc.lines(), RunShape.of(doc)));
        }
        PrintWriter report = new PrintWriter(OutputTarget.reportStream(json), true, StandardCharsets.UTF_8);
        all.forEach(d -> DiagnosisWriter.text(report, d));
        report.flush();
        if (json != null) {
            new Outputs().add(json, Outputs.utf8(DiagnosisWriter.json(all))).commit(force);
            if (!json.isStdout()) {
                report.println("# diagnosis written to " + json);
            }
        }
        report.flush();
        boolean failed = all.stream().flatMap(d -> d.findings().stream()).anyMatch(i -> i.severity() == Severity.FAIL);
        return failed ? ExitCode.FAIL : ExitCode.OK;
    }
}
