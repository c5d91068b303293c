package org.ncclharness.gpu;

/**
 * A CUDA or NCCL call failed during a job, an asynchronous NCCL error was reported, or the completion wait ran past its
 * timeout (exit code 4; README, "Exit codes"). The communicators involved have been aborted when this is thrown from
 * the timed loop, so no peer rank waits forever on this one.
 */
public class GpuJobException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GpuJobException(String message) {
        super(message);
    }
}
