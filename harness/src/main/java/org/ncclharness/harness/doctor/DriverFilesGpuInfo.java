package org.ncclharness.harness.doctor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.harness.ExitCode;

/**
 * GPU facts from the driver's files, with no CUDA call: the kernel module's {@code /proc/driver/nvidia/version}
 * and {@code gpus/<bus id>/information}, {@code libcuda.so.1} and {@code libnccl.so.2} on the linker path, and
 * {@code CUDA_VISIBLE_DEVICES}. Enough to say "no GPU sweep can run here" honestly; the native bridge's probe,
 * which asks CUDA and NCCL themselves, replaces it in {@link GpuInfoSources}.
 *
 * <p>Index entries of {@code CUDA_VISIBLE_DEVICES} are mapped in PCI bus order, which is CUDA's order with
 * {@code CUDA_DEVICE_ORDER=PCI_BUS_ID} and on nodes of one GPU model; UUID entries are mapped exactly.
 */
public final class DriverFilesGpuInfo implements GpuInfoSource {

    private static final Pattern DRIVER = Pattern.compile("Kernel Module(?: for \\S+)?\\s+(\\d+\\.\\d+(?:\\.\\d+)?)");
    private static final Pattern NCCL_FILE = Pattern.compile("libnccl\\.so\\.(\\d+\\.\\d+\\.\\d+)");

    private final Path procNvidia;
    private final List<Path> libraryDirs;
    private final Map<String, String> env;
    private final String cudaPresetsVersion;

    /**
     * @param procNvidia         {@code /proc/driver/nvidia}
     * @param libraryDirs        the linker path ({@link LinkerPath#dirs})
     * @param env                the environment ({@code CUDA_VISIBLE_DEVICES})
     * @param cudaPresetsVersion the JavaCPP CUDA presets version, e.g. {@code 13.3-9.25-1.5.14}
     */
    public DriverFilesGpuInfo(Path procNvidia, List<Path> libraryDirs, Map<String, String> env,
            String cudaPresetsVersion) {
        this.procNvidia = procNvidia;
        this.libraryDirs = List.copyOf(libraryDirs);
        this.env = Map.copyOf(env);
        this.cudaPresetsVersion = cudaPresetsVersion;
    }

    private record Gpu(String busId, String uuid) {
    }

    @Override
    public GpuFacts probe() {
        List<Problem> problems = new ArrayList<>();
        Optional<String> driver = driverVersion();
        Optional<Path> libcuda = LinkerPath.find(libraryDirs, "libcuda.so.1");
        Optional<Path> libnccl = LinkerPath.find(libraryDirs, "libnccl.so.2");
        String cuda = cudaPresetsVersion.split("-")[0] + " (runtime of the JavaCPP presets; not loaded by doctor)";
        String source = "read from " + procNvidia + " and the linker path; no CUDA call made";
        if (driver.isEmpty() && libcuda.isEmpty()) {
            problems.add(new Problem(ExitCode.ENVIRONMENT, "no NVIDIA driver (" + procNvidia.resolve("version")
                    + " is missing and libcuda.so.1 is not on the linker path)",
                    "run on a GPU node with the NVIDIA driver loaded; without a GPU, 'sweep' replays a bundled"
                            + " dataset instead of measuring"));
            return new GpuFacts(List.of(), null, cuda, nccl(libnccl), source, problems);
        }
        if (driver.isEmpty()) {
            problems.add(new Problem(ExitCode.ENVIRONMENT, "libcuda.so.1 is installed but the NVIDIA kernel module"
                    + " is not loaded (" + procNvidia.resolve("version") + " is missing)",
                    "load the driver (modprobe nvidia) or, in a container, run it with the GPUs"
                            + " (docker --gpus all)"));
        }
        if (libcuda.isEmpty()) {
            problems.add(new Problem(ExitCode.ENVIRONMENT, "the NVIDIA kernel module is loaded but libcuda.so.1 is"
                    + " not on the linker path",
                    "install the driver's user-space libraries (libnvidia-compute / libcuda1) or add their"
                            + " directory to LD_LIBRARY_PATH"));
        }
        if (libnccl.isEmpty()) {
            problems.add(new Problem(ExitCode.ENVIRONMENT, "libnccl.so.2 (NCCL) is not on the linker path",
                    "install NCCL (apt install libnccl2, or the nvidia-nccl-cu12 wheel) and add its directory"
                            + " to LD_LIBRARY_PATH"));
        }
        List<String> visible = visible(gpus(), env.get("CUDA_VISIBLE_DEVICES"));
        if (visible.isEmpty()) {
            String cvd = env.get("CUDA_VISIBLE_DEVICES");
            problems.add(new Problem(ExitCode.ENVIRONMENT, "no GPU visible to this process"
                    + (cvd == null ? " (the driver lists none)" : " (CUDA_VISIBLE_DEVICES=" + cvd + ")"),
                    cvd == null ? "check nvidia-smi on this node" : "unset CUDA_VISIBLE_DEVICES, or ask the"
                            + " scheduler for GPUs (srun --gpus-per-task=1)"));
        }
        return new GpuFacts(visible, driver.orElse(null), cuda, nccl(libnccl), source, problems);
    }

    private Optional<String> driverVersion() {
        try {
            Matcher m = DRIVER.matcher(Files.readString(procNvidia.resolve("version")));
            return Optional.of(m.find() ? m.group(1) : "unknown version");
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String nccl(Optional<Path> lib) {
        if (lib.isEmpty()) {
            return null;
        }
        try {
            Matcher m = NCCL_FILE.matcher(lib.get().toRealPath().getFileName().toString());
            return m.matches() ? m.group(1) : "found at " + lib.get() + " (version not in its file name)";
        } catch (IOException e) {
            return "found at " + lib.get() + " (version unreadable)";
        }
    }

    /** The driver's GPUs, in PCI bus order. */
    private List<Gpu> gpus() {
        List<Gpu> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(procNvidia.resolve("gpus"))) {
            for (Path d : ds) {
                String uuid = "";
                try {
                    for (String line : Files.readAllLines(d.resolve("information"))) {
                        if (line.startsWith("GPU UUID:")) {
                            uuid = line.substring("GPU UUID:".length()).trim();
                        }
                    }
                } catch (IOException e) {
                    // a GPU without an information file still counts; it just has no UUID to match
                }
                out.add(new Gpu(d.getFileName().toString(), uuid));
            }
        } catch (IOException e) {
            return List.of();
        }
        out.sort((a, b) -> a.busId().compareToIgnoreCase(b.busId()));
        return out;
    }

    /** CUDA's reading of CUDA_VISIBLE_DEVICES: entries in order, up to the first invalid one. */
    static List<String> visibleFrom(List<String> busIds, List<String> uuids, String cvd) {
        List<String> out = new ArrayList<>();
        if (cvd == null) {
            return List.copyOf(busIds);
        }
        for (String raw : cvd.split(",", -1)) {
            String t = raw.trim();
            int found = -1;
            if (t.matches("\\d+")) {
                int i = Integer.parseInt(t);
                found = i < busIds.size() ? i : -1;
            } else if (t.startsWith("GPU-")) {
                for (int i = 0; i < uuids.size(); i++) {
                    if (!uuids.get(i).isEmpty() && uuids.get(i).startsWith(t)) {
                        found = i;
                    }
                }
            } else if (t.startsWith("MIG-")) {
                out.add(t); // a MIG instance: visible, but it has no bus id of its own
                continue;
            }
            if (found < 0 || out.contains(busIds.get(found))) {
                break;
            }
            out.add(busIds.get(found));
        }
        return out;
    }

    private static List<String> visible(List<Gpu> gpus, String cvd) {
        return visibleFrom(gpus.stream().map(Gpu::busId).toList(), gpus.stream().map(Gpu::uuid).toList(), cvd);
    }
}
