package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.VersionInfo;
import picocli.CommandLine;

/**
 * A test program, not part of harness.jar: joins the job through the same code as the commands, prints
 * {@code joined rank K pid P}, then waits in a barrier, or with {@code --hang} never enters it (so a test can
 * kill it, or another rank, while the rest wait in the collective). Once it waits in the barrier it prints
 * {@code in barrier rank K}, so a test kills "during barrier #1" when that is so, not after a sleep that a loaded
 * machine can outlast. Exits like {@code Main}: the message on stderr and its exit code.
 */
public final class JobMemberMain {

    private JobMemberMain() {
    }

    /** Prints {@code in barrier rank K} from a watcher thread once {@code main} waits inside the barrier. */
    private static void announceInBarrier(Thread main, int rank) {
        Thread watcher = new Thread(() -> {
            try {
                InBarrier.await(main);
                System.out.println("in barrier rank " + rank);
                System.out.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "in-barrier-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    public static void main(String[] args) throws InterruptedException {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean hang = rest.remove("--hang");
        try {
            LaunchOptions options = new LaunchOptions();
            new CommandLine(options).parseArgs(rest.toArray(String[]::new));
            Launch launch = Launch.resolve(options);
            try (JobGroup g = launch.join(List.of(), JobIdentity.hashArguments(List.of("member")),
                    VersionInfo.projectVersion(), options.jobOptions(), System.err)) {
                System.out.println("joined rank " + g.rank() + " pid " + ProcessHandle.current().pid());
                System.out.flush();
                if (hang) {
                    Thread.sleep(60_000);
                    System.exit(9); // nobody killed it: the test failed to
                }
                announceInBarrier(Thread.currentThread(), g.rank());
                g.barrier();
                System.out.println("done rank " + g.rank());
            }
            System.exit(0);
        } catch (HarnessException e) {
            System.err.println(e.getMessage());
            System.exit(e.exitCode());
        }
    }
}
