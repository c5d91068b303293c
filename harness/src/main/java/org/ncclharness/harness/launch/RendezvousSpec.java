package org.ncclharness.harness.launch;

import java.nio.file.Path;

/** Where rank 0 listens and how the others find it. */
public sealed interface RendezvousSpec {

    /** One line for the log: the mechanism and why it was chosen. */
    String describe();

    /** A single process: nothing to meet. */
    record None() implements RendezvousSpec {
        @Override
        public String describe() {
            return "none (single process)";
        }
    }

    /**
     * Rank 0 listens on {@code port}; the others connect to {@code host}. Rank 0 binds {@code host} itself when
     * it is a loopback address, else the wildcard (a host name may resolve to 127.0.1.1 on its own machine).
     */
    record Tcp(String host, int port, String why) implements RendezvousSpec {
        @Override
        public String describe() {
            return "tcp://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + " (" + why + ")";
        }
    }

    /**
     * Rank 0 binds an ephemeral port and writes its addresses and a session token to {@code path} (atomic
     * rename, mode 0600, deleted on exit); the others poll for it. {@code loopbackOnly}: every rank is on this
     * host, so rank 0 listens and advertises on loopback alone.
     */
    record File(Path path, boolean loopbackOnly, String why) implements RendezvousSpec {
        @Override
        public String describe() {
            return "file " + path + " (" + why + ")";
        }
    }
}
