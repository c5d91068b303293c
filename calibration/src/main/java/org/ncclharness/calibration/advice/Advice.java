package org.ncclharness.calibration.advice;

import java.util.Objects;

/**
 * The one way the calibration core words a {@link Setting} in a message: by the {@link Wording} its caller
 * installed, plain words until one is. The command line installs its flags once, before any command runs.
 */
public final class Advice {

    private static volatile Wording wording = PlainWording.INSTANCE;

    private Advice() {
    }

    /** The wording every later message uses. */
    public static void install(Wording w) {
        wording = Objects.requireNonNull(w);
    }

    /** The wording in use. */
    public static Wording wording() {
        return wording;
    }

    /** The setting's name ({@code --gpus}). */
    public static String name(Setting setting) {
        return wording.name(setting);
    }

    /** The setting with what it takes ({@code --gpus N}). */
    public static String usage(Setting setting) {
        return wording.usage(setting);
    }

    /** The setting with a value ({@code --gpus 16}). */
    public static String with(Setting setting, Object value) {
        return wording.name(setting) + " " + value;
    }
}
