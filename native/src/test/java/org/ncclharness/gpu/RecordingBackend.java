package org.ncclharness.gpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;

/**
 * Test double for NCCL and CUDA: records every call the loop makes, in order, into a shared log (the test's
 * clock and job group write into the same log), and simulates the collectives on host byte arrays for the
 * ranks of one process, so a data check through it has real data to find right or wrong.
 */
class RecordingBackend implements CollectiveBackend {
    private final int locals;
    final List<String> log;
    private byte[][] send;
    private byte[][] recv;
    private Collective collective;
    private DataType type;
    private ReduceOp op;
    private int root;
    private int groupDepth;
    private boolean capturing;
    private final List<long[]> pending = new ArrayList<>();
    private final List<long[]> captured = new ArrayList<>();
    /** When set, waitAll fails as if NCCL reported an asynchronous error. */
    boolean failWait;
    boolean aborted;

    /** Ranks in the whole communicator: {@code locals} unless it spans other processes too. */
    private final int nranks;

    RecordingBackend(int locals, List<String> log) {
        this(locals, locals, log);
    }

    RecordingBackend(int locals, int nranks, List<String> log) {
        this.locals = locals;
        this.nranks = nranks;
        this.log = log;
    }

    @Override public int localRanks() { return locals; }
    @Override public int rank(int local) { return local; }
    @Override public int nranks() { return nranks; }

    @Override
    public void allocate(long sendBytes, long recvBytes) {
        send = new byte[locals][(int) sendBytes];
        recv = new byte[locals][(int) recvBytes];
        log.add("allocate " + sendBytes + " " + recvBytes);
    }

    @Override
    public void configure(Collective c, DataType t, ReduceOp o, int r) {
        collective = c;
        type = t;
        op = o;
        root = r;
        log.add("configure " + c + " " + t + " " + o + " " + r);
    }

    @Override
    public void groupStart() {
        groupDepth++;
        log.add("groupStart");
    }

    @Override
    public void groupEnd() {
        log.add("groupEnd");
        if (--groupDepth == 0) {
            flush();
        }
    }

    @Override
    public void launch(int local, boolean sendFromRecv, long sendOffset, long recvOffset, long count) {
        log.add("launch l" + local + (sendFromRecv ? " in" : " out") + " s" + sendOffset + " r" + recvOffset + " n" + count);
        long[] opn = {local, sendFromRecv ? 1 : 0, sendOffset, recvOffset, count};
        if (capturing) {
            captured.add(opn);
            return;
        }
        pending.add(opn);
        if (groupDepth == 0) {
            flush();
        }
    }

    private void flush() {
        // The k-th pending op of every rank forms one collective (NCCL matches them the same way).
        List<List<long[]>> byRank = new ArrayList<>();
        for (int l = 0; l < locals; l++) {
            byRank.add(new ArrayList<>());
        }
        pending.forEach(p -> byRank.get((int) p[0]).add(p));
        int rounds = byRank.get(0).size();
        for (List<long[]> r : byRank) {
            if (r.size() != rounds) {
                if (pending.size() < locals) {
                    return; // a single-rank launch outside a group waits for its peers (never completes in NCCL)
                }
                throw new AssertionError("ranks launched different numbers of operations in one group");
            }
        }
        for (int k = 0; k < rounds; k++) {
            long[][] ops = new long[locals][];
            for (int l = 0; l < locals; l++) {
                ops[l] = byRank.get(l).get(k);
            }
            execute(ops);
        }
        pending.clear();
    }

    private long get(byte[] b, long off, long idx) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) (off + idx * type.bytes());
        return switch (type.bytes()) {
            case 1 -> bb.get(at) & 0xFFL;
            case 2 -> bb.getShort(at) & 0xFFFFL;
            case 4 -> bb.getInt(at) & 0xFFFF_FFFFL;
            default -> bb.getLong(at);
        };
    }

    private void put(byte[] b, long off, long idx, long bits) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) (off + idx * type.bytes());
        switch (type.bytes()) {
            case 1 -> bb.put(at, (byte) bits);
            case 2 -> bb.putShort(at, (short) bits);
            case 4 -> bb.putInt(at, (int) bits);
            default -> bb.putLong(at, bits);
        }
    }

    private long reduce(long[] bits) {
        if (type.isFloatingPoint()) {
            double acc = type.decode(bits[0]);
            for (int i = 1; i < bits.length; i++) {
                double v = type.decode(bits[i]);
                acc = switch (op) {
                    case SUM, AVG -> acc + v;
                    case MULSUM -> acc + ReduceOp.preMulScalar(i) * v; // rank 0's scalar is 1
                    case PROD -> acc * v;
                    case MAX -> Math.max(acc, v);
                    case MIN -> Math.min(acc, v);
                };
            }
            return type.encode(op == ReduceOp.AVG ? acc / bits.length : acc);
        }
        long acc = type.decodeInteger(bits[0]);
        for (int i = 1; i < bits.length; i++) {
            long v = type.decodeInteger(bits[i]);
            acc = switch (op) {
                case SUM, AVG -> acc + v;
                case MULSUM -> acc + ReduceOp.preMulScalar(i) * v;
                case PROD -> acc * v;
                case MAX -> Math.max(acc, v);
                case MIN -> Math.min(acc, v);
            };
        }
        return type.encodeInteger(op == ReduceOp.AVG ? acc / bits.length : acc);
    }

    private void execute(long[][] ops) {
        int n = locals;
        long count = ops[0][4];
        byte[][] src = new byte[n][];
        long[] so = new long[n];
        long[] ro = new long[n];
        for (int l = 0; l < n; l++) {
            src[l] = ops[l][1] == 1 ? recv[l].clone() : send[l];
            so[l] = ops[l][2];
            ro[l] = ops[l][3];
        }
        for (int r = 0; r < n; r++) {
            switch (collective) {
                case ALL_REDUCE, REDUCE -> {
                    if (collective == Collective.REDUCE && r != root) {
                        continue;
                    }
                    for (long k = 0; k < count; k++) {
                        long[] v = new long[n];
                        for (int q = 0; q < n; q++) {
                            v[q] = get(src[q], so[q], k);
                        }
                        put(recv[r], ro[r], k, reduce(v));
                    }
                }
                case BROADCAST -> {
                    for (long k = 0; k < count; k++) {
                        put(recv[r], ro[r], k, get(src[root], so[root], k));
                    }
                }
                case ALL_GATHER -> {
                    for (int q = 0; q < n; q++) {
                        for (long k = 0; k < count; k++) {
                            put(recv[r], ro[r], q * count + k, get(src[q], so[q], k));
                        }
                    }
                }
                case REDUCE_SCATTER -> {
                    for (long k = 0; k < count; k++) {
                        long[] v = new long[n];
                        for (int q = 0; q < n; q++) {
                            v[q] = get(src[q], so[q], r * count + k);
                        }
                        put(recv[r], ro[r], k, reduce(v));
                    }
                }
                case ALL_TO_ALL -> {
                    for (int q = 0; q < n; q++) {
                        for (long k = 0; k < count; k++) {
                            put(recv[r], ro[r], q * count + k, get(src[q], so[q], r * count + k));
                        }
                    }
                }
                case SEND_RECV -> {
                    int from = Math.floorMod(r - 1, n);
                    for (long k = 0; k < count; k++) {
                        put(recv[r], ro[r], k, get(src[from], so[from], k));
                    }
                }
                default -> throw new IllegalArgumentException(collective + " is not run by the harness");
            }
        }
    }

    @Override
    public void waitAll(long timeoutNanos) {
        log.add("wait");
        if (failWait) {
            throw new GpuJobException("NCCL async error: unhandled system error (simulated)");
        }
    }

    @Override
    public void deviceBarrier(long timeoutNanos) {
        log.add("deviceBarrier");
    }

    @Override
    public void beginCapture() {
        capturing = true;
        captured.clear();
        log.add("beginCapture");
    }

    @Override
    public void endCaptureAndInstantiate() {
        capturing = false;
        log.add("endCapture+instantiate");
    }

    @Override
    public void launchGraph() {
        log.add("launchGraph");
        pending.addAll(captured);
        flush();
    }

    @Override
    public void destroyGraph() {
        log.add("destroyGraph");
    }

    @Override
    public void prepareEvents(int slots) {
        log.add("prepareEvents " + slots);
    }

    @Override
    public void recordEvent(int slot) {
        log.add("event " + slot);
    }

    @Override
    public double elapsedMillisMaxOverLocal(int slot) {
        return 0.001 * (slot + 1); // 1 µs, 2 µs, ... per iteration
    }

    @Override
    public void zero(int local, boolean recvBuffer, long bytes) {
        java.util.Arrays.fill(recvBuffer ? recv[local] : send[local], 0, (int) bytes, (byte) 0);
        log.add("zero l" + local + (recvBuffer ? " recv " : " send ") + bytes);
    }

    @Override
    public void upload(int local, boolean recvBuffer, long offset, ByteBuffer src) {
        int n = src.remaining();
        src.duplicate().get(recvBuffer ? recv[local] : send[local], (int) offset, n);
        log.add("upload l" + local + (recvBuffer ? " recv " : " send ") + offset + " " + n);
    }

    @Override
    public void download(int local, long offset, ByteBuffer dst) {
        int n = dst.remaining();
        dst.duplicate().put(recv[local], (int) offset, n);
        log.add("download l" + local + " " + offset + " " + n);
    }

    @Override
    public void abort() {
        aborted = true;
        log.add("abort");
    }

    @Override
    public void close() {
        log.add("close");
    }
}
