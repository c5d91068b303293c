package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** -d all / -o all against nccl-tests 2.19.6's common.cu: by NCCL version, and fp8 by compute capability. */
class TestListsTest {

    private static List<String> types(String nccl, int arch) {
        return TestLists.allTypes(NcclVersion.parse(nccl), arch).stream().map(DataType::testName).toList();
    }

    @Test
    void typesFollowTheLoadedNcclAndDropFp8BeforeHopper() {
        List<String> nine = List.of("int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double");
        assertThat(types("2.9.9", 900)).containsExactlyElementsOf(nine);
        assertThat(types("2.23.4", 900)).containsExactlyElementsOf(concat(nine, "bfloat16"));
        assertThat(types("2.24.3", 800)).containsExactlyElementsOf(concat(nine, "bfloat16"));
        assertThat(types("2.24.3", 890)).doesNotContain("f8e4m3");
        assertThat(types("2.27.3", 900)).containsExactlyElementsOf(concat(nine, "bfloat16", "f8e4m3", "f8e5m2"));
    }

    @Test
    void opsFollowTheLoadedNccl() {
        assertThat(TestLists.allOps(NcclVersion.parse("2.9.9"))).containsExactly(ReduceOp.SUM, ReduceOp.PROD,
                ReduceOp.MAX, ReduceOp.MIN);
        assertThat(TestLists.allOps(NcclVersion.parse("2.10.3"))).endsWith(ReduceOp.AVG);
        assertThat(TestLists.allOps(NcclVersion.parse("2.11.4"))).containsExactly(ReduceOp.SUM, ReduceOp.PROD,
                ReduceOp.MAX, ReduceOp.MIN, ReduceOp.AVG, ReduceOp.MULSUM);
    }

    @Test
    void minArchIsTheSmallestOfTheGpus() {
        GpuDevice h100 = new GpuDevice(0, "H100", "0000:18:00.0", 80L << 30, 9, 0, 132);
        GpuDevice a100 = new GpuDevice(1, "A100", "0000:19:00.0", 80L << 30, 8, 0, 108);
        assertThat(TestLists.minArch(List.of(h100, a100))).isEqualTo(800);
        assertThat(TestLists.minArch(List.of(h100))).isEqualTo(900);
    }

    private static List<String> concat(List<String> a, String... more) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(List.of(more));
        return out;
    }
}
