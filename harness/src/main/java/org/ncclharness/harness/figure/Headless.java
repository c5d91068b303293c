package org.ncclharness.harness.figure;

/**
 * Charts are drawn on servers and CI runners with no display: AWT must start headless. The property is read once,
 * when AWT first asks, so it is set before any chart is built; an explicit {@code -Djava.awt.headless} wins.
 */
final class Headless {

    private Headless() {
    }

    static void ensure() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }
}
