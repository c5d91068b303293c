package org.ncclharness.gpu;

/**
 * The machine lacks a piece the run needs (exit code 3; README, "Exit codes"); the message is the problem's one line.
 */
public class GpuEnvironmentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ProbeProblem problem;

    public GpuEnvironmentException(ProbeProblem problem) {
        super(problem.oneLine());
        this.problem = problem;
    }

    public ProbeProblem problem() {
        return problem;
    }
}
