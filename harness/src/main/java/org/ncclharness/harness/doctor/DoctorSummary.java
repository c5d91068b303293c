package org.ncclharness.harness.doctor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.launch.DeviceChoice;
import org.ncclharness.harness.launch.Member;

/**
 * The job-wide block rank 0 prints, a pure function of what every rank reported: the ranks and hosts, each
 * problem once with the ranks it affects and its fix, and the verdict. Exit 0 only if a GPU sweep could run.
 *
 * @param lines    the block, headed {@code # doctor: job summary}
 * @param exitCode 0, or the largest exit code among the problems
 */
public record DoctorSummary(List<String> lines, int exitCode) {

    public static final String HEADER = "# doctor: job summary";

    public static DoctorSummary of(List<Member> members, List<RankReport> reports, String launch) {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        Map<String, List<Member>> hosts = new LinkedHashMap<>();
        for (Member m : members) {
            hosts.computeIfAbsent(m.hostId(), k -> new ArrayList<>()).add(m);
        }
        lines.add("# job: " + members.size() + " rank(s) on " + hosts.size() + " host(s); " + launch);
        for (List<Member> onHost : hosts.values()) {
            Member first = onHost.get(0);
            lines.add("# host " + first.host() + " (host id " + first.hostId() + "): ranks "
                    + ranges(onHost.stream().map(Member::rank).toList()));
        }
        for (Member m : members) {
            int device = DeviceChoice.device(m.localRank(), m.gpuBusIds().size());
            lines.add("# rank " + m.rank() + ": host=" + m.host() + " pid=" + m.pid() + " local=" + m.localRank()
                    + "/" + m.localSize() + " cpus=" + m.cpus() + " gpus=" + m.gpuBusIds().size() + " device="
                    + (device < 0 ? "none" : device + " (" + m.gpuBusIds().get(device) + ")"));
        }
        Map<Problem, List<Integer>> grouped = new LinkedHashMap<>();
        for (RankReport r : reports) {
            for (Problem p : r.problems()) {
                grouped.computeIfAbsent(p, k -> new ArrayList<>()).add(r.rank());
            }
        }
        DeviceChoice.duplicates(members).ifPresent(c -> grouped.put(new Problem(ExitCode.USAGE, c.what(), c.fix()),
                members.stream().map(Member::rank).toList()));
        for (Member m : members) {
            if (m.cpus() == 1 && members.size() > 1) {
                grouped.computeIfAbsent(new Problem(ExitCode.OK, "1 available processor (the launcher bound the"
                        + " rank to one core; Open MPI does when np <= 2)", "mpirun --bind-to none, or"
                        + " --map-by ppr:N:node:pe=CORES"), k -> new ArrayList<>()).add(m.rank());
            }
        }
        // One line per distinct set of versions: a job mixing NCCL or driver versions shows it here.
        Map<String, List<Integer>> versions = new LinkedHashMap<>();
        for (RankReport r : reports) {
            GpuFacts g = r.gpus();
            versions.computeIfAbsent("driver " + orNone(g.driverVersion()) + ", CUDA " + g.cudaVersion() + ", NCCL "
                    + orNone(g.ncclVersion()), k -> new ArrayList<>()).add(r.rank());
        }
        versions.forEach((v, ranks) -> lines.add("# versions on ranks " + ranges(ranks) + ": " + v));
        Map<String, List<Integer>> hints = new LinkedHashMap<>();
        for (RankReport r : reports) {
            r.hints().forEach(h -> hints.computeIfAbsent(h, k -> new ArrayList<>()).add(r.rank()));
        }
        hints.forEach((h, ranks) -> lines.add("# hint on ranks " + ranges(ranks) + ": " + h));
        Problem worst = null;
        for (Map.Entry<Problem, List<Integer>> e : grouped.entrySet()) {
            Problem p = e.getKey();
            lines.add("# " + (p.warning() ? "warning" : "problem [exit " + p.exitCode() + "]") + " on ranks "
                    + ranges(e.getValue()) + ": " + p.what() + "; fix: " + p.fix());
            if (!p.warning() && (worst == null || p.exitCode() > worst.exitCode())) {
                worst = p;
            }
        }
        if (worst == null) {
            lines.add("# verdict: a GPU sweep can run on all " + members.size() + " rank(s) (exit 0)");
            return new DoctorSummary(lines, ExitCode.OK);
        }
        lines.add("# verdict: no GPU sweep can run (exit " + worst.exitCode() + "): " + worst.what());
        return new DoctorSummary(lines, worst.exitCode());
    }

    private static String orNone(String s) {
        return s == null ? "none" : s;
    }

    /** {@code [0,1,2,3,5]} as {@code 0-3,5}. */
    static String ranges(List<Integer> ranks) {
        StringBuilder sb = new StringBuilder();
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(ranks));
        for (int i = 0; i < sorted.size(); i++) {
            int start = sorted.get(i);
            int end = start;
            while (i + 1 < sorted.size() && sorted.get(i + 1) == end + 1) {
                end = sorted.get(++i);
            }
            sb.append(sb.length() == 0 ? "" : ",").append(start).append(end == start ? "" : "-" + end);
        }
        return sb.toString();
    }
}
