package org.ncclharness.harness.calibrate;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.report.CalibrationEntry;
import org.ncclharness.calibration.report.CalibrationInput;
import org.ncclharness.calibration.report.CalibrationJson;
import org.ncclharness.calibration.report.CalibrationOptions;
import org.ncclharness.calibration.report.CalibrationReport;
import org.ncclharness.calibration.report.CalibrationTable;
import org.ncclharness.calibration.report.SingleTierCalibrator;
import org.ncclharness.calibration.report.TwoTierCalibration;
import org.ncclharness.calibration.report.TwoTierCalibrator;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code calibrate [FILE...]}: fits the α-β model of SPEC §3 to every bundled dataset, or to the files given. */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit the alpha-beta model of SPEC section 3 to nccl-tests measurements: one tier,"
                + " T(M) = alpha + f*M/beta_eff, saying how wrong each way of choosing alpha and beta is; two tiers"
                + " (NVLink domain + inter-domain fabric) for multi-domain runs.",
            "Without FILE: every bundled dataset. Multi-domain runs (NVLink domains joined by IB/RoCE) get the two-tier"
                + " fit, both forms (hierarchical, flat-ring), with each parameter's 1%% profile and whether the data"
                + " determine it; they are never fitted with one tier.",
            "FILE: an nccl-tests or rccl-tests log (any generation), the project CSV or a sweep JSON; what the file does not"
                + " say comes from --gpus, --nodes, --interconnect (one tier) or --intra/--inter/--domain-size (two).",
            "--joint [ID|FILE...]: one two-tier fit across runs of the same hardware at different configurations (bundled"
                + " ids or files); without arguments, the bundled joint groups."})
public final class CalibrateCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "logs, CSVs or sweep JSONs; - reads stdin (default: the bundled datasets)")
    List<Path> files = new ArrayList<>();

    @Option(names = "--gpus", paramLabel = "N", description = "GPU (rank) count, for files without '# Using devices'")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "N", description = "node count, for files that do not show it")
    Integer nodes;

    @Option(names = "--interconnect", paramLabel = "NAME",
            description = "the interconnect the files ran over: NVLink2..5, PCIe3..5, IB-HDR/NDR/XDR,"
                    + " RoCE-100G/200G/400G, EFA, Slingshot11, TCP, InfinityFabric (hardware/interconnects.json)")
    String interconnect;

    @Option(names = "--intra", paramLabel = "NAME",
            description = "two tiers: the fabric inside an NVLink domain (NVLink3, NVLink4, NVLink5, InfinityFabric, ...)")
    String intra;

    @Option(names = "--inter", paramLabel = "NAME",
            description = "two tiers: the fabric between domains (IB-NDR, RoCE-400G, ...); without it beta_IB is fitted"
                    + " with no physical reference and u_IB is not reported")
    String inter;

    @Option(names = "--domain-size", paramLabel = "G",
            description = "two tiers: GPUs per NVLink domain (default: GPUs per host)")
    Integer domainSize;

    @Option(names = "--joint", description = "fit one two-tier model across the runs given (or the bundled joint"
            + " groups): a single entry whose parameters hold at every configuration")
    boolean joint;

    @Option(names = "--config", paramLabel = "FILE=GPUSxHOSTS",
            description = "the configuration of one file whose log does not show it, e.g. run.txt=16x2")
    Map<String, String> configs = new LinkedHashMap<>();

    @Option(names = "--topology", paramLabel = "NAME",
            description = "override the interconnect's topology: NVSwitch, direct, PCIe, switched-network")
    String topology;

    @Option(names = "--link-latency", paramLabel = "TIME", converter = LatencyConverter.class,
            description = "fix l_link for method B instead of fitting it, e.g. 0.936us")
    Double linkLatencyUs;

    @Option(names = "--json", paramLabel = "OUT", description = "also write the report as JSON (schema "
            + CalibrationReport.SCHEMA + ")")
    Path json;

    @Option(names = "--report", paramLabel = "DIR", description = "also write a page that opens from disk:"
            + " DIR/index.html with the verdicts, the table and one figure per dataset (DIR/<id>.png)")
    Path report;

    @Option(names = "--force", description = "overwrite an existing --json file or --report page")
    boolean force;

    @Override
    public Integer call() {
        if (json != null) {
            OutputFile.checkWritable(json, force);
        }
        if (report != null) {
            OutputFile.checkWritable(report.resolve("index.html"), force);
        }
        HardwareFacts facts = HardwareFacts.bundled();
        if (topology != null && facts.topology(topology).isEmpty()) {
            throw new InputException("--topology", 0, "unknown topology " + topology + "; known: "
                    + String.join(", ", facts.topologyNames()));
        }
        if (linkLatencyUs != null && !(linkLatencyUs >= 0)) {
            throw new InputException("--link-latency", 0, "must be zero or positive");
        }
        List<CalibrationInput> in = joint ? jointInputs(facts) : inputs(facts);
        CalibrationReport calibration = joint ? joint(facts, in)
                : run(facts, in, new CalibrationOptions(linkLatencyUs, topology));
        StringWriter table = new StringWriter();
        CalibrationTable.write(new PrintWriter(table), calibration);
        PrintWriter out = new PrintWriter(System.out, true);
        out.print(table);
        out.flush();
        if (json != null) {
            OutputFile.write(json, force, o -> CalibrationJson.write(calibration, o));
            out.println("# report written to " + json);
        }
        if (report != null) {
            List<CalibrationInput> shown = joint ? firstMembers(calibration, in) : in;
            Path page = CalibrationReportPage.of(shown, calibration, table.toString()).write(report, force);
            out.println("# page written to " + page);
        }
        return ExitCode.OK;
    }

    private List<CalibrationInput> inputs(HardwareFacts facts) {
        if (files.isEmpty()) {
            return CalibrationInputs.bundled();
        }
        return CalibrationInputs.files(files, flags(), configs, facts);
    }

    private CalibrationInputs.Flags flags() {
        return new CalibrationInputs.Flags(gpus, nodes, interconnect, intra, inter, domainSize);
    }

    /** {@code --joint}: the runs given (bundled ids or files), or every bundled dataset for the bundled groups. */
    private List<CalibrationInput> jointInputs(HardwareFacts facts) {
        return files.isEmpty() ? CalibrationInputs.bundled()
                : CalibrationInputs.bundledOrFiles(files, flags(), configs, facts);
    }

    /** {@code --joint}: one entry for the runs given, or one per bundled joint group. */
    private CalibrationReport joint(HardwareFacts facts, List<CalibrationInput> in) {
        TwoTierCalibrator two = new TwoTierCalibrator(facts);
        return new CalibrationReport(files.isEmpty() ? List.copyOf(two.bundledJoint(in))
                : List.of(two.joint("joint", in)));
    }

    /** For the page, which draws one sweep per entry: each joint entry's first member. */
    private static List<CalibrationInput> firstMembers(CalibrationReport calibration, List<CalibrationInput> in) {
        return calibration.entries().stream().map(e -> ((TwoTierCalibration) e).members().get(0))
                .map(id -> in.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow()).toList();
    }

    /** Calibrates every input; the benchmark calls this too, so it measures exactly what the command does. */
    public static CalibrationReport run(HardwareFacts facts, List<CalibrationInput> inputs, CalibrationOptions o) {
        SingleTierCalibrator calibrator = new SingleTierCalibrator(facts, o);
        List<CalibrationEntry> entries = new ArrayList<>();
        for (CalibrationInput in : inputs) {
            entries.add(calibrator.calibrate(in));
        }
        return new CalibrationReport(new TwoTierCalibrator(facts).complete(inputs, entries));
    }

    /** The bundled datasets, as {@code calibrate} with no argument reads them. */
    public static List<CalibrationInput> bundledInputs() {
        return CalibrationInputs.bundled();
    }
}
