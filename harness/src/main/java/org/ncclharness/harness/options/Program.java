package org.ncclharness.harness.options;

/**
 * How this program is started again in a child process (a sweep's matrix of combinations, a rerun with NCCL's debug
 * lines on): its entry point by name, so that the commands that relaunch it need not depend on the class that
 * wires every command (MainTest holds the name to the class).
 */
public final class Program {

    /** The class whose {@code main} runs the command line. */
    public static final String MAIN_CLASS = "org.ncclharness.harness.cli.Main";

    private Program() {
    }
}
