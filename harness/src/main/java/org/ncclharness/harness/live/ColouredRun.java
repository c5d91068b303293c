package org.ncclharness.harness.live;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.CudaNcclBackend;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.TimedLoop;
import org.ncclharness.harness.launch.HostLabels;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.Member;

/**
 * One sweep plan measured on an already joined job, split into one communicator per colour, every colour timed
 * on its own ({@link ColourGroup}): what each step of a bring-up runs (every GPU alone, each host, a pair of
 * hosts, the whole job). Every process returns every colour's sweep, so that all of them can decide the next
 * step alike.
 */
public final class ColouredRun {

    /**
     * One colour's result.
     *
     * @param processes the job ranks of its processes, in order
     * @param hosts     their hosts ({@link HostLabels}), each once, in rank order
     * @param sweep     its rows, every {@code -N} cycle in turn, labelled as measured now
     */
    public record Colour(long colour, List<Integer> processes, List<String> hosts, Sweep sweep) {

        public Colour {
            processes = List.copyOf(processes);
            hosts = List.copyOf(hosts);
        }
    }

    private ColouredRun() {
    }

    /**
     * Measures {@code plan} with communicators over the processes of each colour, each process driving the first
     * {@code plan.localGpus()} of the GPUs its place in the job gives it ({@code jobGpusPerProcess} of them).
     *
     * @param what the step, for the provenance label (e.g. {@code each host})
     */
    public static List<Colour> run(JobGroup job, GpuProbe probe, SweepPlan plan, int jobGpusPerProcess,
                                   LongUnaryOperator colourOf, String what) {
        return run(job, probe, plan, jobGpusPerProcess, 0, colourOf, what);
    }

    /**
     * As {@link #run(JobGroup, GpuProbe, SweepPlan, int, LongUnaryOperator, String)}, each process driving
     * {@code plan.localGpus()} of its GPUs from its {@code firstGpu}-th on: one GPU alone per pass, so that a
     * process driving several ({@code -g N}) has each of them tested on its own in turn.
     */
    public static List<Colour> run(JobGroup job, GpuProbe probe, SweepPlan plan, int jobGpusPerProcess, int firstGpu,
                                   LongUnaryOperator colourOf, String what) {
        int rank = job.rank();
        int local = plan.localGpus();
        Member me = job.members().get(rank);
        List<GpuDevice> gpus = SweepGpus.chosen(plan.testsDevice(), jobGpusPerProcess, me.localRank(),
                probe.devices()).subList(firstGpu, firstGpu + local);
        SweepGpus.agree(job, gpus, plan.testsDevice());
        LiveSweep.Capped cap = LiveSweep.capped(job, plan, gpus, new ArrayList<>());
        CommunicatorSplit split = CommunicatorSplit.of(rank, job.size(), colourOf, job::gather,
                () -> CudaNcclBackend.newUniqueId(probe).bytes());
        LiveSweep.Measured m = LiveSweep.measure(job, probe, plan, gpus, split, cap, new ColourGroup(job, colourOf));
        // each colour's first process speaks for it: the colour's times are the same on all of its processes; its
        // first line is its GPU's name, then the test clock its loop read, if one (a tab is in no GPU's name)
        byte[] mine = split.processInColour() == 0 ? (gpus.get(0).name() + TimedLoop.testClock().map(c -> "\t" + c)
                .orElse("") + "\n"
                + MeasurementCsv.toString(plan.collective(), m.rows())).getBytes(StandardCharsets.UTF_8) : new byte[0];
        List<byte[]> all = job.gather(mine);
        Map<Long, List<Integer>> members = new TreeMap<>();
        for (int p = 0; p < job.size(); p++) {
            members.computeIfAbsent(colourOf.applyAsLong(p), c -> new ArrayList<>()).add(p);
        }
        Map<String, String> labels = HostLabels.of(job.members());
        List<Colour> out = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> e : members.entrySet()) {
            List<Integer> procs = e.getValue();
            String text = new String(all.get(procs.get(0)), StandardCharsets.UTF_8);
            int nl = text.indexOf('\n');
            String[] speaker = text.substring(0, nl).split("\t", 2);
            List<Measurement> rows = MeasurementCsv.read("rank " + procs.get(0), text.substring(nl + 1));
            LinkedHashSet<String> hosts = new LinkedHashSet<>();
            for (int p : procs) {
                hosts.add(labels.get(job.members().get(p).hostId()));
            }
            int n = procs.size() * local;
            Hardware hw = LiveHardware.of(speaker[0], n, hosts.size(), plan.interconnect(),
                    new ArrayList<>());
            // the colour's times are its first process's: so is the clock they were taken on
            Optional<String> clock = Optional.ofNullable(speaker.length > 1 ? speaker[1] : null);
            Sweep sweep = new Sweep(LiveProvenance.of(String.join(",", hosts), "(" + what + ": " + n + " GPU"
                    + (n == 1 ? "" : "s") + " on " + String.join(", ", hosts) + ") by nccl-harness", clock),
                    plan.collective(), LiveSweep.runInfo(plan, probe, cap.sizes()), hw, List.of(), rows, List.of());
            out.add(new Colour(e.getKey(), procs, new ArrayList<>(hosts), sweep));
        }
        return out;
    }
}
