package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which GPU a rank drives: {@code localRank % visibleDevices} (docs/launch.md, "GPU choice"). Right both when the
 * launcher gives each task one GPU (device 0 of 1) and when every GPU is visible. Two ranks of one host on one
 * physical GPU are refused before NCCL sees them (it would fail later with "Duplicate GPU detected", or on 2.30
 * ask for NCCL_MULTI_RANK_GPU_ENABLE).
 */
public final class DeviceChoice {

    private DeviceChoice() {
    }

    /** The device index, or -1 with no visible device. */
    public static int device(int localRank, int visibleDevices) {
        if (visibleDevices <= 0) {
            return -1;
        }
        return Math.floorMod(localRank, visibleDevices);
    }

    /** The physical GPU a member drives: host id + the bus id of its device, or empty without a GPU. */
    public static Optional<String> gpuOf(Member m) {
        int d = device(m.localRank(), m.gpuBusIds().size());
        return d < 0 ? Optional.empty() : Optional.of(m.hostId() + "/" + m.gpuBusIds().get(d));
    }

    /**
     * Two or more ranks on one GPU.
     *
     * @param what which ranks, on which host and GPU
     * @param fix  what to do about it
     */
    public record Clash(String what, String fix) {
        /** The one-line refusal. */
        public String message() {
            return what + ": " + fix;
        }
    }

    /**
     * The clash when two ranks would share a GPU, or empty. {@code members} carry recomputed local ranks
     * ({@link LocalRanks#recompute}).
     */
    public static Optional<Clash> duplicates(List<Member> members) {
        return clash(members, m -> {
            int d = device(m.localRank(), m.gpuBusIds().size());
            return d < 0 ? List.of() : List.of(m.gpuBusIds().get(d));
        }, "(device = local rank % visible GPUs)", "all map to", "start at most as many ranks per host as it"
                        + " has GPUs (mpirun -npernode N, srun --gpus-per-task=1)");
    }

    /**
     * The clash when two ranks chose one GPU, where each member's {@link Member#gpuBusIds} are the GPUs it chose
     * to drive (a command's own rule, e.g. {@code sweep -g N} or NCCL_TESTS_DEVICE), not every GPU it sees.
     *
     * @param fix what to do about it, in the command's terms
     */
    public static Optional<Clash> sharedChoices(List<Member> members, String fix) {
        return clash(members, Member::gpuBusIds, "(the GPUs each rank chose)", "all chose", fix);
    }

    private static Optional<Clash> clash(List<Member> members, Function<Member, List<String>> gpus, String rule,
            String verb, String fix) {
        // keyed by (host id, bus id): one physical GPU
        Map<List<String>, List<Member>> byGpu = new LinkedHashMap<>();
        for (Member m : members) {
            for (String busId : new LinkedHashSet<>(gpus.apply(m))) {
                byGpu.computeIfAbsent(List.of(m.hostId(), busId), k -> new ArrayList<>()).add(m);
            }
        }
        List<String> clashes = new ArrayList<>();
        byGpu.forEach((gpu, ranks) -> {
            if (ranks.size() > 1) {
                clashes.add("ranks " + ranks.stream().map(m -> Integer.toString(m.rank())).toList() + " on host "
                        + ranks.get(0).host() + " " + verb + " GPU " + gpu.get(1));
            }
        });
        if (clashes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Clash("two or more ranks would drive one GPU " + rule + ": "
                + String.join("; ", clashes), fix));
    }
}
