package org.ncclharness.harness.launch;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/** The job cannot go on: a rank was lost, refused, timed out or diverged. Exit code 4 (README, "Exit codes"). */
public final class JobFailedException extends HarnessException {
    private static final long serialVersionUID = 1L;

    public JobFailedException(String message) {
        super(ExitCode.JOB, message);
    }
}
