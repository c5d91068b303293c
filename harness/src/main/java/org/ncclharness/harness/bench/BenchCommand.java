package org.ncclharness.harness.bench;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;

/** {@code bench}: the speed targets, measured by running the real code paths (never by timed unit tests). */
@Command(name = "bench", addMethodSubcommands = false,
        description = "Benchmarks of the harness's own code paths; their output goes into the README.",
        subcommands = {SpeedBench.class, CalibrateBench.class, EnvelopeBench.class, BarrierBench.class, LaunchBench.class,
            ReadBench.class})
public final class BenchCommand implements Runnable {

    @Mixin
    HelpOptions helpOptions;

    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }
}
