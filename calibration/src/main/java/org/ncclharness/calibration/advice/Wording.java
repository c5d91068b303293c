package org.ncclharness.calibration.advice;

/**
 * How the caller of the calibration core names each {@link Setting} in the messages the core writes: the command
 * line by its flags, installed once when it starts ({@link Advice#install}); any other caller gets
 * {@link PlainWording}.
 */
public interface Wording {

    /** The setting as a message names it: {@code --gpus} on the command line, "the GPU count" in plain words. */
    String name(Setting setting);

    /** The setting as a user gives it, with what it takes: {@code --gpus N}; its {@link #name} in plain words. */
    String usage(Setting setting);
}
