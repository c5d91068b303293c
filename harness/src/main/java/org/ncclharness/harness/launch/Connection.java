package org.ncclharness.harness.launch;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One control-plane socket and its reader thread: the per-connection watchdog. The reader drains every frame
 * (heartbeats included) into {@link #inbox}; end of stream, a reset or a heartbeat silence longer than the
 * socket's read timeout is reported at once to the {@link Listener}, so a dead peer is noticed within
 * milliseconds (EOF) and a hung one within the heartbeat timeout, whatever the main thread is doing.
 */
final class Connection {

    interface Listener {
        /** The peer sent ABORT: the job is over. */
        void onAbort(Connection c, String reason);

        /** The connection broke before the peer said BYE. */
        void onLost(Connection c, String reason);
    }

    final Socket socket;
    final DataInputStream in;
    final DataOutputStream out;
    final LinkedBlockingQueue<Wire.Frame> inbox = new LinkedBlockingQueue<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean byeReceived;
    volatile Member peer;

    Connection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    synchronized void send(byte type, byte[] body) throws IOException {
        Wire.write(out, type, body);
    }

    /** Sends and ignores a failure: for ABORT, BYE and heartbeats, where the reader reports a broken peer. */
    void sendQuietly(byte type, byte[] body) {
        try {
            send(type, body);
        } catch (IOException e) {
            // the reader thread sees the same broken socket and reports it
        }
    }

    boolean byeReceived() {
        return byeReceived;
    }

    /** Waits until the peer said BYE or the socket ended. */
    void awaitEnd(Duration max) throws InterruptedException {
        ended.await(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    void startReader(String name, int limit, Duration heartbeatTimeout, Listener listener) {
        Thread t = new Thread(() -> readLoop(limit, heartbeatTimeout, listener), name);
        t.setDaemon(true);
        t.start();
    }

    private void readLoop(int limit, Duration heartbeatTimeout, Listener listener) {
        try {
            socket.setSoTimeout((int) heartbeatTimeout.toMillis());
            while (true) {
                Wire.Frame f = Wire.read(in, limit);
                switch (f.type()) {
                    case Wire.PING -> {
                        // a heartbeat: the read itself reset the timeout
                    }
                    case Wire.ABORT -> listener.onAbort(this, Wire.utf(f.body()));
                    case Wire.BYE -> {
                        byeReceived = true; // keep draining until EOF, so closing sends FIN, not RST
                        ended.countDown();
                    }
                    default -> inbox.add(f);
                }
            }
        } catch (IOException e) {
            ended.countDown();
            if (!byeReceived) {
                listener.onLost(this, reason(e, heartbeatTimeout));
            }
        }
    }

    static String reason(IOException e, Duration heartbeatTimeout) {
        if (e instanceof EOFException) {
            return "connection closed (the process died or was killed)";
        }
        if (e instanceof SocketTimeoutException) {
            return "no message or heartbeat for " + heartbeatTimeout.toSeconds()
                    + " s (the process hung, or its host or the network is down)";
        }
        if (e instanceof Wire.OversizeException) {
            return "it sent " + e.getMessage();
        }
        String m = String.valueOf(e.getMessage());
        if (m.contains("reset")) {
            return "connection reset (the process died or was killed)";
        }
        return m;
    }

    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to tell
        }
    }

    String remote() {
        return String.valueOf(socket.getRemoteSocketAddress());
    }
}
