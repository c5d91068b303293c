package org.ncclharness.harness.doctor;

import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.gpu.HostPlatform;
import org.ncclharness.harness.exit.ExitCode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.harness.options.NcclLibOption;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.JobIdentity;
import org.ncclharness.harness.launch.JobOptions;
import org.ncclharness.harness.launch.Launch;
import org.ncclharness.harness.launch.LaunchOptions;
import org.ncclharness.harness.launch.Launcher;
import org.ncclharness.harness.launch.Place;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code harness.jar doctor}: the bring-up check, alone or under the launcher. Each rank prints its place, host,
 * GPUs, versions and rendezvous (lines {@code rank K/N ...}), joins the others for real, and rank 0 prints the
 * job summary. Measures nothing.
 */
@Command(name = "doctor", addMethodSubcommands = false,
        description = {
            "Check that a GPU sweep could run: each rank's place in the job, host, visible GPUs, driver, CUDA and"
                    + " NCCL versions, and the rendezvous, which it exercises for real; rank 0 prints the job"
                    + " summary with one line per problem and its fix. Measures nothing.",
            "Run it the way you will run the sweep: mpirun -np 16 java -jar harness.jar doctor"},
        footer = {"%nExit: 0 if a GPU sweep could run (warnings are printed), else the worst problem's code:"
                + " 2 usage (e.g. two ranks on one GPU), 3 environment (no driver, GPU or NCCL), 4 job (a rank"
                + " missing or lost). All ranks exit with rank 0's verdict."})
public final class DoctorCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Mixin
    LaunchOptions launch;

    @Mixin
    NcclLibOption ncclLib;

    @Option(names = {"-v", "--verbose"}, description = "under a launcher: every rank also prints its own place,"
            + " host, GPUs, versions and rendezvous before the job summary (alone, it always does)")
    boolean verbose;

    @Spec
    CommandSpec spec;

    private final GpuInfoSource gpuInfo;

    public DoctorCommand() {
        this(new NativeGpuInfo());
    }

    DoctorCommand(GpuInfoSource gpuInfo) {
        this.gpuInfo = gpuInfo;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        JobOptions options = launch.jobOptions();
        Launch l = Launch.resolve(launch);
        Place p = l.place();
        String me = p.label();
        ncclLib.apply();
        GpuFacts probed = gpuInfo.probe();
        // the NCCL_* settings that switch a fast path off, said before any sweep shows the slow path
        List<Problem> problems = new ArrayList<>(probed.problems());
        problems.addAll(NcclEnvironment.warnings(System.getenv()));
        HostPlatform platform = HostPlatform.current();
        if (!platform.nativesCarried()) {
            problems.add(new Problem(ExitCode.ENVIRONMENT, "this jar carries no JNI libraries for "
                    + platform.platform() + " (os.arch " + platform.osArch() + ")",
                    "run on a linux-x86_64 or linux-arm64 host"));
        }
        GpuFacts gpus = new GpuFacts(probed.visibleBusIds(), probed.driverVersion(), probed.cudaVersion(),
                probed.ncclVersion(), probed.source(), probed.build(), problems);
        // Under a launcher the summary names every rank; N copies of the detail would bury it.
        PrintWriter detail = verbose || p.launcher() == Launcher.SINGLE ? out : new PrintWriter(Writer.nullWriter());
        detail.println(me + " place: launcher " + p.launcher().label() + " (" + p.evidence() + "), local "
                + (p.localKnown() ? p.localRank() + "/" + p.localSize() : "from host ids") + ", job " + p.jobId());
        detail.println(me + " host: " + l.self(gpus.visibleBusIds()).host() + ", host id " + l.hostId().value() + " ("
                + l.hostId().source() + "), pid " + ProcessHandle.current().pid() + ", cpus "
                + Runtime.getRuntime().availableProcessors());
        detail.println(me + " platform: " + platform.describe());
        detail.println(me + " gpus: " + gpus.visibleCount() + " visible" + (gpus.visibleBusIds().isEmpty() ? ""
                : " " + gpus.visibleBusIds()));
        detail.println(me + " versions: driver " + orNone(gpus.driverVersion()) + ", CUDA " + gpus.cudaVersion()
                + ", NCCL " + orNone(gpus.ncclVersion()) + ", harness " + VersionInfo.projectVersion() + " ("
                + gpus.source() + ")");
        if (gpus.build() != null) {
            detail.println(me + " build: " + gpus.build());
        }
        detail.println(me + " rendezvous: " + l.rendezvous().describe());
        List<String> hints = new ArrayList<>(p.hints());
        if (l.hostId().overridden()) {
            hints.add("pass NCCL_HOSTID=" + l.hostId().value() + " to NCCL so it groups hosts as the harness does");
        }
        for (String hint : hints) {
            detail.println(me + " hint: " + hint);
        }
        for (Problem problem : gpus.problems()) {
            detail.println(me + " " + problem.line());
        }
        detail.flush();

        long t0 = System.nanoTime();
        PrintStream log = System.err;
        try (JobGroup group = l.join(gpus.visibleBusIds(), JobIdentity.hashArguments(List.of("doctor")),
                VersionInfo.projectVersion(), options, log)) {
            detail.println(me + " joined: " + group.size() + " rank(s) in "
                    + Math.round((System.nanoTime() - t0) / 1e6) + " ms");
            detail.flush();
            RankReport mine = new RankReport(p.rank(), gpus, hints, gpus.problems());
            List<byte[]> all = group.gather(encode(mine));
            byte[] verdict = new byte[1];
            if (group.rank() == 0) {
                List<RankReport> reports = new ArrayList<>();
                for (byte[] b : all) {
                    reports.add(decode(b));
                }
                DoctorSummary summary = DoctorSummary.of(group.members(), reports, "launcher "
                        + p.launcher().label() + ", job " + p.jobId() + ", rendezvous " + l.rendezvous().describe()
                        + ", harness " + VersionInfo.projectVersion());
                summary.lines().forEach(out::println);
                out.flush();
                verdict[0] = (byte) summary.exitCode();
            }
            int code = group.broadcast(verdict)[0];
            group.barrier(); // every rank has printed before any exits: mpirun kills the rest on a non-zero exit
            return code;
        }
    }

    private static String orNone(String s) {
        return s == null ? "none" : s;
    }

    /**
     * The ranks' reports' mapper, made when a report is first encoded: picocli makes every command to parse any one,
     * so a mapper made with this class cost every command, {@code --version} included, Jackson's start-up.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private static byte[] encode(RankReport r) {
        try {
            return Json.MAPPER.writeValueAsBytes(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RankReport decode(byte[] b) {
        try {
            return Json.MAPPER.readValue(b, RankReport.class);
        } catch (IOException e) {
            throw new UncheckedIOException("a rank's doctor report is unreadable", e);
        }
    }
}
