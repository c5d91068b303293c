package org.ncclharness.harness.live;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.launch.DeviceChoice;
import org.ncclharness.harness.launch.JobGroup;
import org.ncclharness.harness.launch.Member;

/**
 * Which GPUs each process of a sweep drives, and the refusal of two processes on one GPU before NCCL sees them
 * (NCCL would stop later with "Duplicate GPU detected", or on 2.30 ask for NCCL_MULTI_RANK_GPU_ENABLE). The
 * choice is nccl-tests': GPU i of a process is {@code NCCL_TESTS_DEVICE + i}, else {@code localRank·(-t·-g) + i}.
 * It depends on the local rank, which the job knows only once every rank has joined, so the choices are
 * exchanged after the join; each rank's own NCCL_TESTS_DEVICE counts, not an assumption about the others'.
 */
final class SweepGpus {

    private SweepGpus() {
    }

    /**
     * The devices this process drives.
     *
     * @param testsDevice NCCL_TESTS_DEVICE, or null
     * @param perProcess  {@code -t × -g}
     * @param visible     the probe's devices, in CUDA order
     * @throws HarnessException exit 3 when the choice runs past the visible devices (nccl-tests' message)
     */
    static List<GpuDevice> chosen(Integer testsDevice, int perProcess, int localRank, List<GpuDevice> visible) {
        int first = testsDevice != null ? testsDevice : localRank * perProcess;
        if (first < 0 || first + perProcess > visible.size()) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "Invalid number of GPUs: " + (first + perProcess)
                    + " requested but only " + visible.size() + " were found.");
        }
        return visible.subList(first, first + perProcess);
    }

    /** The PCI bus ids of devices, in order: what a rank tells the job about its GPUs. */
    static List<String> busIds(List<GpuDevice> devices) {
        return devices.stream().map(GpuDevice::pciBusId).toList();
    }

    /**
     * Every rank's chosen GPUs, exchanged in one gather; every rank refuses alike when two chose one GPU.
     *
     * @throws HarnessException exit 2 with the one-line fix
     */
    static void agree(JobGroup job, List<GpuDevice> mine, Integer testsDevice) {
        byte[] own = String.join("\n", busIds(mine)).getBytes(StandardCharsets.UTF_8);
        List<byte[]> all = job.gather(own);
        List<Member> members = job.members();
        List<Member> drivers = new ArrayList<>();
        for (int r = 0; r < members.size(); r++) {
            Member m = members.get(r);
            String ids = new String(all.get(r), StandardCharsets.UTF_8);
            drivers.add(new Member(m.rank(), m.host(), m.hostId(), m.pid(), m.localRank(), m.localSize(), m.cpus(),
                    ids.isEmpty() ? List.of() : List.of(ids.split("\n"))));
        }
        refuseShared(drivers, testsDevice);
    }

    /** @param drivers members whose bus ids are the GPUs each chose */
    static void refuseShared(List<Member> drivers, Integer testsDevice) {
        DeviceChoice.sharedChoices(drivers, testsDevice != null
                ? "NCCL_TESTS_DEVICE=" + testsDevice + " gives every rank of a host the same GPUs: unset it, or set it"
                        + " per rank (local rank × -t × -g)"
                : "give every rank of a host the same CUDA_VISIBLE_DEVICES and start at most (GPUs per host) /"
                        + " (-t × -g) ranks per host (mpirun -npernode N, srun --ntasks-per-node=N)").ifPresent(c -> {
                            throw new HarnessException(ExitCode.USAGE, c.message());
                        });
    }
}
