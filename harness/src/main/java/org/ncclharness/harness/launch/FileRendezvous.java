package org.ncclharness.harness.launch;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The rendezvous file: rank 0 writes {@code job=}, {@code token=} and one {@code addr=IP PORT} line per address
 * (temp file, mode 0600, atomic rename, so a reader never sees half of it) and deletes it on exit. Readers skip
 * a file of another job (a stale one), and the random token keeps out anyone who cannot read the file.
 */
final class FileRendezvous {

    /** Comma-separated interface-name prefixes rank 0 advertises, like NCCL_SOCKET_IFNAME (e.g. {@code ib,eth}). */
    static final String IFNAME_ENV = "HARNESS_SOCKET_IFNAME";

    record Content(String job, String token, List<InetSocketAddress> addresses) {
    }

    private final Path path;
    private final String token;

    private FileRendezvous(Path path, String token) {
        this.path = path;
        this.token = token;
    }

    String token() {
        return token;
    }

    static FileRendezvous publish(Path path, String jobId, List<InetAddress> addresses, int port)
            throws IOException {
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        StringBuilder sb = new StringBuilder("job=" + jobId + "\ntoken=" + token + "\n");
        for (InetAddress a : addresses) {
            sb.append("addr=").append(a.getHostAddress()).append(' ').append(port).append('\n');
        }
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, path.getFileName().toString() + ".", ".tmp");
        try {
            trySetOwnerOnly(tmp);
            Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new FileRendezvous(path, token);
    }

    private static void trySetOwnerOnly(Path p) throws IOException {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX filesystem: the token still keeps other jobs out
        }
    }

    /** The file's content, or empty while it does not exist (or is not a rendezvous file yet). */
    static Optional<Content> read(Path path) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        String job = null;
        String token = null;
        List<InetSocketAddress> addrs = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("job=")) {
                job = line.substring(4);
            } else if (line.startsWith("token=")) {
                token = line.substring(6);
            } else if (line.startsWith("addr=")) {
                String[] parts = line.substring(5).trim().split(" ");
                if (parts.length == 2) {
                    try {
                        addrs.add(new InetSocketAddress(InetAddress.getByName(parts[0]),
                                Integer.parseInt(parts[1])));
                    } catch (NumberFormatException e) {
                        // not an address line we wrote: skip it
                    }
                }
            }
        }
        if (job == null || token == null || addrs.isEmpty()) {
            throw new IOException(path + " is not a harness rendezvous file (no job=, token= or addr= line)");
        }
        return Optional.of(new Content(job, token, List.copyOf(addrs)));
    }

    void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a leftover file is skipped by the next job (other job id)
        }
    }

    /**
     * The addresses rank 0 advertises: loopback alone when every rank is on this host; else every up IPv4
     * interface matching {@code ifnamePrefixes} (all when null), loopback last. Never {@code getLocalHost()}:
     * Debian maps the host name to 127.0.1.1.
     */
    static List<InetAddress> advertised(boolean loopbackOnly, String ifnamePrefixes) throws SocketException {
        if (loopbackOnly) {
            return List.of(InetAddress.getLoopbackAddress());
        }
        List<InetAddress> outside = new ArrayList<>();
        List<InetAddress> loopback = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || !matches(nif.getName(), ifnamePrefixes)) {
                continue;
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    (a.isLoopbackAddress() ? loopback : outside).add(a);
                }
            }
        }
        outside.addAll(loopback);
        if (outside.isEmpty()) {
            throw new SocketException("no up IPv4 interface"
                    + (ifnamePrefixes == null ? "" : " matches " + IFNAME_ENV + "=" + ifnamePrefixes));
        }
        return outside;
    }

    static boolean matches(String name, String prefixes) {
        if (prefixes == null || prefixes.isBlank()) {
            return true;
        }
        for (String p : prefixes.split(",")) {
            if (!p.isBlank() && name.startsWith(p.trim())) {
                return true;
            }
        }
        return false;
    }
}
