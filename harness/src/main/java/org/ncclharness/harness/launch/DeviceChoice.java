package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which GPU a rank drives: {@code localRank % visibleDevices} (reference launch.md §4). Right both when the
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
        Map<String, List<Member>> byGpu = new LinkedHashMap<>();
        for (Member m : members) {
            gpuOf(m).ifPresent(g -> byGpu.computeIfAbsent(g, k -> new ArrayList<>()).add(m));
        }
        List<String> clashes = new ArrayList<>();
        for (List<Member> ranks : byGpu.values()) {
            if (ranks.size() > 1) {
                Member first = ranks.get(0);
                clashes.add("ranks " + ranks.stream().map(m -> Integer.toString(m.rank())).toList()
                        + " on host " + first.host() + " all map to GPU "
                        + first.gpuBusIds().get(device(first.localRank(), first.gpuBusIds().size())));
            }
        }
        if (clashes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Clash("two or more ranks would drive one GPU (device = local rank % visible GPUs): "
                + String.join("; ", clashes), "start at most as many ranks per host as it has GPUs (mpirun"
                + " -npernode N, srun --gpus-per-task=1)"));
    }
}
