package org.ncclharness.gpu;

import java.util.Arrays;
import java.util.List;

/**
 * What {@code -d all} and {@code -o all} run: nccl-tests 2.19.6's lists for the NCCL and GPUs at hand (common.cu).
 * It counts bfloat16 and {@code avg} from NCCL 2.10, fp8 from 2.24, and then drops fp8 where the job's smallest
 * compute capability is below 9.0 (pre-Hopper); an explicitly named type or op the loaded NCCL lacks is refused
 * instead ({@link LoopOptions#requireSupportedBy}).
 */
public final class TestLists {

    /** The compute capability (×100, nccl-tests' {@code 100*major + 10*minor}) from which fp8 is run. */
    static final int FP8_MIN_ARCH = 900;

    private TestLists() {
    }

    /** Every datatype nccl-tests' {@code -d all} runs with NCCL {@code loaded} on GPUs of at least {@code minArch}. */
    public static List<DataType> allTypes(NcclVersion loaded, int minArch) {
        return Arrays.stream(DataType.values())
                .filter(t -> t.needs().map(f -> f.isAvailable(loaded)).orElse(true))
                .filter(t -> t.needs().filter(f -> f == NcclFeature.FLOAT8).isEmpty() || minArch >= FP8_MIN_ARCH)
                .toList();
    }

    /** Every op nccl-tests' {@code -o all} runs with NCCL {@code loaded}. */
    public static List<ReduceOp> allOps(NcclVersion loaded) {
        return Arrays.stream(ReduceOp.values()).filter(o -> o.needs().map(f -> f.isAvailable(loaded)).orElse(true))
                .toList();
    }

    /** nccl-tests' {@code minCudaArch} of some GPUs: the smallest {@code 100*major + 10*minor}. */
    public static int minArch(List<GpuDevice> gpus) {
        return gpus.stream().mapToInt(g -> 100 * g.ccMajor() + 10 * g.ccMinor()).min().orElse(0);
    }
}
