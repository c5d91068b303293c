package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench barrier} under a real Open MPI mpirun: the control plane's barrier timed on one host. */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class MpirunBenchBarrierIT {

    @TempDir
    Path tmp;

    private static List<String> stdoutOf(Processes.Result r, int rank) {
        String tag = "[1," + rank + "]<stdout>:";
        return r.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length())).toList();
    }

    @Test
    void rankZeroReportsTheDurationAndTheReleaseSpreadOnOneHost() throws Exception {
        Processes.Result r = Processes.runMpirun(Processes.mpirun(3, List.of(), Processes.harness("bench", "barrier",
                "--iters", "300", "--warmup", "30")), Map.of(), tmp, "bench-barrier", Processes.HANG_S);
        assertThat(r.rc()).as(String.join("\n", r.outLines())).isZero();
        List<String> out = stdoutOf(r, 0);
        assertThat(out).anyMatch(l -> l.startsWith("bench barrier: 3 ranks on 1 host, control plane TCP"));
        assertThat(out).anyMatch(l -> l.matches("  duration on rank 0 \\(call to return\\): median [0-9.]+ us, p99"
                + " [0-9.]+ us"));
        String spread = out.stream().filter(l -> l.startsWith("  release spread")).findFirst().orElseThrow();
        double median = Double.parseDouble(spread.replaceAll(".*median ([0-9.]+) us.*", "$1"));
        double max = Double.parseDouble(spread.replaceAll(".*max ([0-9.]+) us.*", "$1"));
        // the last rank leaves after the first, by less than a second on an idle or busy machine
        assertThat(median).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(max).isLessThan(1e6);
        assertThat(stdoutOf(r, 1)).isEmpty();
        assertThat(stdoutOf(r, 2)).isEmpty();
    }
}
