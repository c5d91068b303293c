package org.ncclharness.harness.bench;

import java.util.Locale;

/**
 * One row of the speed targets' table (README) as {@code bench speed} measured it: what ran, the figure, and the goal with whether it
 * was met. A row with nothing to judge (the baseline, a figure the bench was not given) has {@link Met#NONE}.
 *
 * @param what     the command or figure, as the table names it
 * @param measured the figure, with its ratio to {@code --version} where the goal is one
 * @param goal     the goal, in the words
 * @param met      whether the figure meets the goal
 */
record SpeedRow(String what, String measured, String goal, Met met) {

    enum Met {
        YES("yes"), NO("NO"), NONE("-");

        private final String text;

        Met(String text) {
            this.text = text;
        }

        static Met of(boolean ok) {
            return ok ? YES : NO;
        }
    }

    /** The row in the Markdown layout. */
    String markdown() {
        return String.format(Locale.ROOT, "| %s | %s | %s | %s |", what, measured, goal, met.text);
    }

    static final String HEADER = "| what | measured | goal | met |\n|---|---|---|---|";
}
