package org.ncclharness.gpu;

import static org.bytedeco.cuda.global.cudart.cudaDeviceSynchronize;
import static org.bytedeco.cuda.global.cudart.cudaErrorNotReady;
import static org.bytedeco.cuda.global.cudart.cudaEventCreate;
import static org.bytedeco.cuda.global.cudart.cudaEventDestroy;
import static org.bytedeco.cuda.global.cudart.cudaEventElapsedTime;
import static org.bytedeco.cuda.global.cudart.cudaEventRecord;
import static org.bytedeco.cuda.global.cudart.cudaFree;
import static org.bytedeco.cuda.global.cudart.cudaGraphDestroy;
import static org.bytedeco.cuda.global.cudart.cudaGraphExecDestroy;
import static org.bytedeco.cuda.global.cudart.cudaGraphInstantiate;
import static org.bytedeco.cuda.global.cudart.cudaGraphLaunch;
import static org.bytedeco.cuda.global.cudart.cudaMalloc;
import static org.bytedeco.cuda.global.cudart.cudaMemcpy;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyAsync;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToDevice;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToHost;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyHostToDevice;
import static org.bytedeco.cuda.global.cudart.cudaMemset;
import static org.bytedeco.cuda.global.cudart.cudaSetDevice;
import static org.bytedeco.cuda.global.cudart.cudaStreamBeginCapture;
import static org.bytedeco.cuda.global.cudart.cudaStreamCaptureModeThreadLocal;
import static org.bytedeco.cuda.global.cudart.cudaStreamCreateWithFlags;
import static org.bytedeco.cuda.global.cudart.cudaStreamDestroy;
import static org.bytedeco.cuda.global.cudart.cudaStreamEndCapture;
import static org.bytedeco.cuda.global.cudart.cudaStreamNonBlocking;
import static org.bytedeco.cuda.global.cudart.cudaStreamQuery;
import static org.bytedeco.cuda.global.nccl.ncclAllGather;
import static org.bytedeco.cuda.global.nccl.ncclAllReduce;
import static org.bytedeco.cuda.global.nccl.ncclBroadcast;
import static org.bytedeco.cuda.global.nccl.ncclCommAbort;
import static org.bytedeco.cuda.global.nccl.ncclCommDestroy;
import static org.bytedeco.cuda.global.nccl.ncclCommGetAsyncError;
import static org.bytedeco.cuda.global.nccl.NCCL_VERSION_CODE;
import static org.bytedeco.cuda.global.nccl.ncclCommInitRank;
import static org.bytedeco.cuda.global.nccl.ncclCommInitRankConfig;
import static org.bytedeco.cuda.global.nccl.ncclFloat;
import static org.bytedeco.cuda.global.nccl.ncclGetErrorString;
import static org.bytedeco.cuda.global.nccl.ncclGetLastError;
import static org.bytedeco.cuda.global.nccl.ncclGetUniqueId;
import static org.bytedeco.cuda.global.nccl.ncclGroupEnd;
import static org.bytedeco.cuda.global.nccl.ncclGroupSimulateEnd;
import static org.bytedeco.cuda.global.nccl.ncclGroupStart;
import static org.bytedeco.cuda.global.nccl.ncclMemAlloc;
import static org.bytedeco.cuda.global.nccl.ncclMemFree;
import static org.bytedeco.cuda.global.nccl.ncclRecv;
import static org.bytedeco.cuda.global.nccl.ncclRedOpCreatePreMulSum;
import static org.bytedeco.cuda.global.nccl.ncclRedOpDestroy;
import static org.bytedeco.cuda.global.nccl.ncclReduce;
import static org.bytedeco.cuda.global.nccl.ncclScalarHostImmediate;
import static org.bytedeco.cuda.global.nccl.ncclReduceScatter;
import static org.bytedeco.cuda.global.nccl.ncclSend;
import static org.bytedeco.cuda.global.nccl.ncclSum;

import java.nio.ByteBuffer;
import java.util.OptionalDouble;
import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.cuda.nccl.ncclSimInfo_t;
import org.bytedeco.cuda.nccl.ncclUniqueId;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;

/**
 * The real {@link CollectiveBackend}: JavaCPP bindings to the CUDA runtime and NCCL, one communicator,
 * stream and buffer pair per local GPU. Created only from a probe that found everything
 * ({@link GpuProbe#requireOk()}), so the bindings are known to load and every call newer than
 * {@link NcclFeature#BASELINE} is gated on the loaded version.
 *
 * <p>Nothing on the timed path allocates: the device pointers handed to NCCL are JavaCPP {@code Pointer}
 * views created once, moved with {@code position(byteOffset)} before each call; the status array of the
 * completion wait is a field. Errors there allocate only to build their message.
 */
public final class CudaNcclBackend implements CollectiveBackend {
    private final NcclVersion version;
    /** ncclAlltoAll, else grouped send/recv: decided once, from the loaded NCCL and binding ({@link NewerNcclCalls}). */
    private final boolean allToAllApi;
    /** ncclGather/ncclScatter, else grouped send/recv: decided as {@link #allToAllApi}. */
    private final boolean gatherScatterApi;
    private final int[] devices;
    private final int nranks;
    private final int firstRank;
    private final boolean nullStream;
    private final int ctaPolicy;
    private final int maxP2pPeers;
    /** -u: elements every pointer handed to NCCL lies past its allocation's start (bytes once the type is known). */
    private final int unalignElements;
    private long shiftBytes;
    private final ncclComm[] comms;
    private final CUstream_st[] streams;
    private final Pointer[] sendBuf;
    private final Pointer[] recvBuf;
    /** One float per local rank for {@link #deviceBarrier}'s all-reduce, apart from the measured buffers. */
    private final Pointer[] barrierBuf;
    private static final long BARRIER_BYTES = 4;
    /** Views positioned per call: send buffer, receive buffer, and the receive buffer as an in-place source. */
    private final BytePointer[] sendView;
    private final BytePointer[] recvView;
    private final BytePointer[] inPlaceSendView;
    private final CUgraph_st[] graphs;
    private final CUgraphExec_st[] graphExecs;
    private final boolean[] done;
    private final int[] asyncError = new int[1];
    private final float[] elapsedMs = new float[1];
    private CUevent_st[][] events = new CUevent_st[0][];
    private boolean usedNcclMemAlloc;
    private volatile boolean aborted;
    private volatile boolean closed;
    /** Set by another thread (the job's failure hook); acted on by the thread that owns the communicators. */
    private volatile String abortRequested;

    private Collective collective = Collective.ALL_REDUCE;
    private PeerTraffic traffic = PeerTraffic.NCCL_TESTS_DEFAULT;
    private int dtype;
    private int eltBytes;
    private int redop;
    /** mulsum's scalar per local rank (null for every other op), and where a created op's handle is returned. */
    private LongPointer[] scalars;
    private final int[] createdOp = new int[1];
    private int root;

    private CudaNcclBackend(GpuProbe probe, CommSpec spec) {
        this.version = probe.ncclVersion();
        this.allToAllApi = NewerNcclCalls.allToAll(version);
        this.gatherScatterApi = NewerNcclCalls.gatherScatter(version);
        this.devices = spec.devices();
        this.nranks = spec.nranks();
        this.firstRank = spec.firstRank();
        this.nullStream = spec.nullStream();
        this.ctaPolicy = spec.ctaPolicy();
        this.maxP2pPeers = spec.maxP2pPeers();
        this.unalignElements = spec.unalignElements();
        int n = devices.length;
        comms = new ncclComm[n];
        streams = new CUstream_st[n];
        sendBuf = new Pointer[n];
        recvBuf = new Pointer[n];
        barrierBuf = new Pointer[n];
        sendView = new BytePointer[n];
        recvView = new BytePointer[n];
        inPlaceSendView = new BytePointer[n];
        graphs = new CUgraph_st[n];
        graphExecs = new CUgraphExec_st[n];
        done = new boolean[n];
        for (int i = 0; i < n; i++) {
            graphs[i] = new CUgraph_st();
            graphExecs[i] = new CUgraphExec_st();
        }
    }

    /** A fresh unique id from {@code ncclGetUniqueId}; this process then hosts the bootstrap root. */
    public static UniqueId newUniqueId(GpuProbe probe) {
        probe.requireOk();
        ncclUniqueId id = new ncclUniqueId();
        int rc = ncclGetUniqueId(id);
        if (rc != 0) {
            throw new GpuJobException("ncclGetUniqueId: " + ncclError(rc, probe.ncclVersion(), null));
        }
        byte[] b = new byte[UniqueId.BYTES];
        id.internal().get(b);
        id.close();
        return new UniqueId(b);
    }

    /**
     * Creates the streams and communicators of {@code spec}: nccl-tests' grouped init, {@code ncclGroupStart},
     * per GPU {@code cudaSetDevice} + {@code ncclCommInitRank}, {@code ncclGroupEnd}. On failure every
     * communicator created is aborted and a {@link GpuJobException} names the call and NCCL's reason.
     */
    public static CudaNcclBackend open(GpuProbe probe, CommSpec spec) {
        probe.requireOk();
        CudaNcclBackend be = new CudaNcclBackend(probe, spec);
        try {
            be.createStreams();
            be.initCommunicators(spec.uniqueId());
            return be;
        } catch (RuntimeException e) {
            be.abort();
            be.close();
            throw e;
        }
    }

    private void createStreams() {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaSetDevice(devices[i]), "cudaSetDevice");
            if (nullStream) {
                streams[i] = null;
            } else {
                streams[i] = new CUstream_st();
                cuda(cudaStreamCreateWithFlags(streams[i], cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
            }
        }
    }

    /**
     * nccl-tests 2.19.6's initComms: {@code ncclCommInitRankConfig} from NCCL 2.14 on, with NCCL's
     * {@code NCCL_CONFIG_INITIALIZER} and what -x (and sendrecv's peer count) set; before 2.14 plain
     * {@code ncclCommInitRank}. A setting the loaded NCCL lacks is refused before any communicator exists.
     */
    private void initCommunicators(UniqueId id) {
        ncclConfig_t config = config();
        ncclUniqueId nid = new ncclUniqueId();
        nid.internal().put(id.bytes());
        nccl(ncclGroupStart(), "ncclGroupStart");
        int failed = 0;
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaSetDevice(devices[i]), "cudaSetDevice");
            comms[i] = new ncclComm();
            int rc = config == null ? ncclCommInitRank(comms[i], nranks, nid, firstRank + i)
                    : ncclCommInitRankConfig(comms[i], nranks, nid, firstRank + i, config);
            failed = failed != 0 ? failed : rc;
        }
        int rc = ncclGroupEnd();
        nid.close();
        if (config != null) {
            config.close();
        }
        if (failed != 0 || rc != 0) {
            throw new GpuJobException("ncclCommInitRank (ranks " + firstRank + ".." + (firstRank + devices.length - 1)
                    + " of " + nranks + "): " + ncclError(failed != 0 ? failed : rc, version, null));
        }
    }

    /**
     * The config nccl-tests passes, or null below NCCL 2.14 (no ncclCommInitRankConfig). JavaCPP zero-fills the
     * struct, and zero is not "unset" (blocking = 0 would make the communicators non-blocking), so every field
     * gets {@code NCCL_CONFIG_INITIALIZER}'s value: NCCL_CONFIG_UNDEF_INT, null pointers, size, magic and the
     * headers' version. An older NCCL reads only the leading fields it knows (it copies min(size, its own)); the
     * CUDA 12 binding's struct ends before 2.28's fields ({@link NewerNcclCalls#newerConfigFields}).
     */
    private ncclConfig_t config() {
        if (ctaPolicy >= 0) {
            (ctaPolicy == 2 ? NcclFeature.CTA_POLICY_ZERO : NcclFeature.CTA_POLICY).require(version);
        }
        if (!NcclFeature.COMM_INIT_RANK_CONFIG.isAvailable(version)) {
            return null;
        }
        int undef = Integer.MIN_VALUE;
        ncclConfig_t c = new ncclConfig_t();
        c.size(c.sizeof()).magic(0xcafebeef).version(NCCL_VERSION_CODE);
        c.blocking(undef).cgaClusterSize(undef).minCTAs(undef).maxCTAs(undef).splitShare(undef).trafficClass(undef)
                .collnetEnable(undef).CTAPolicy(undef).shrinkShare(undef).nvlsCTAs(undef);
        if (ctaPolicy >= 0) {
            c.CTAPolicy(ctaPolicy);
        }
        NewerNcclCalls.newerConfigFields(c, version, maxP2pPeers);
        return c;
    }

    @Override
    public int localRanks() {
        return devices.length;
    }

    @Override
    public int rank(int local) {
        return firstRank + local;
    }

    @Override
    public int nranks() {
        return nranks;
    }

    /** Allocates with ncclMemAlloc where NCCL has it (2.19+, as nccl-tests does: it enables NVLS buffer paths). */
    @Override
    public void allocate(long sendBytes, long recvBytes) {
        usedNcclMemAlloc = NcclFeature.MEM_ALLOC.isAvailable(version);
        long pad = 8L * unalignElements; // nccl-tests' AllocateBuffs: the widest type's shift, whatever -d runs
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaSetDevice(devices[i]), "cudaSetDevice");
            sendBuf[i] = deviceAlloc(sendBytes + pad);
            recvBuf[i] = deviceAlloc(recvBytes + pad);
            sendView[i] = new BytePointer(sendBuf[i]);
            recvView[i] = new BytePointer(recvBuf[i]);
            inPlaceSendView[i] = new BytePointer(recvBuf[i]);
            barrierBuf[i] = deviceAlloc(BARRIER_BYTES);
        }
    }

    @Override
    public void deviceBarrier(long timeoutNanos) {
        if (devices.length > 1) {
            groupStart();
        }
        for (int i = 0; i < devices.length; i++) {
            nccl(ncclAllReduce(barrierBuf[i], barrierBuf[i], 1, ncclFloat, ncclSum, comms[i], streams[i]),
                    "ncclAllReduce (barrier)");
        }
        if (devices.length > 1) {
            groupEnd();
        }
        waitAll(timeoutNanos);
    }

    private Pointer deviceAlloc(long bytes) {
        Pointer p = new Pointer();
        if (usedNcclMemAlloc) {
            nccl(ncclMemAlloc(p, bytes), "ncclMemAlloc(" + bytes + ")");
        } else {
            cuda(cudaMalloc(p, bytes), "cudaMalloc(" + bytes + ")");
        }
        return p;
    }

    @Override
    public void configure(Collective c, DataType type, ReduceOp op, int rootRank, PeerTraffic peerTraffic) {
        configure(c, type, op, rootRank);
        this.traffic = peerTraffic;
    }

    @Override
    public void configure(Collective c, DataType type, ReduceOp op, int rootRank) {
        type.needs().ifPresent(f -> f.require(version));
        if (c.reduces()) {
            op.needs().ifPresent(f -> f.require(version));
        }
        this.collective = c;
        this.dtype = type.ncclCode();
        this.eltBytes = type.bytes();
        this.shiftBytes = (long) unalignElements * eltBytes;
        this.redop = op.ncclCode();
        this.root = rootRank;
        preMulScalars(c.reduces() && op == ReduceOp.MULSUM ? type : null);
    }

    /**
     * mulsum's host-immediate scalars, one per local rank in native memory, written here (outside the timed loop)
     * in {@code type}'s encoding; null frees them (every other op).
     */
    private void preMulScalars(DataType type) {
        if (scalars != null) {
            for (LongPointer p : scalars) {
                p.close();
            }
            scalars = null;
        }
        if (type == null) {
            return;
        }
        scalars = new LongPointer[comms.length];
        for (int l = 0; l < comms.length; l++) {
            scalars[l] = new LongPointer(1);
            scalars[l].put(type.encodeInteger(ReduceOp.preMulScalar(rank(l))));
        }
    }

    /**
     * The op of one launch on local rank {@code l}: the configured one, or (mulsum) a PreMulSum created for this
     * launch on its communicator, as nccl-tests' startColl creates one around every operation.
     */
    private int launchOp(int l) {
        if (scalars == null) {
            return redop;
        }
        int rc = ncclRedOpCreatePreMulSum(createdOp, scalars[l], dtype, ncclScalarHostImmediate, comms[l]);
        if (rc != 0) {
            nccl(rc, "ncclRedOpCreatePreMulSum");
        }
        return createdOp[0];
    }

    @Override
    public void groupStart() {
        nccl(ncclGroupStart(), "ncclGroupStart");
    }

    @Override
    public void groupEnd() {
        nccl(ncclGroupEnd(), "ncclGroupEnd");
    }

    @Override
    public void launch(int l, boolean sendFromRecv, long sendOffset, long recvOffset, long count) {
        BytePointer s = sendFromRecv ? inPlaceSendView[l] : sendView[l];
        BytePointer r = recvView[l];
        sendOffset += shiftBytes;
        recvOffset += shiftBytes;
        s.position(sendOffset);
        r.position(recvOffset);
        ncclComm comm = comms[l];
        CUstream_st st = streams[l];
        int op = collective.reduces() ? launchOp(l) : redop;
        int rc = switch (collective) {
            case ALL_REDUCE -> ncclAllReduce(s, r, count, dtype, op, comm, st);
            case ALL_GATHER -> ncclAllGather(s, r, count, dtype, comm, st);
            case REDUCE_SCATTER -> ncclReduceScatter(s, r, count, dtype, op, comm, st);
            case BROADCAST -> ncclBroadcast(s, r, count, dtype, root, comm, st);
            case REDUCE -> ncclReduce(s, r, count, dtype, op, root, comm, st);
            case ALL_TO_ALL -> allToAll(s, r, sendOffset, recvOffset, count, comm, st);
            case ALL_TO_ALL_V -> allToAllV(s, r, sendOffset, recvOffset, count, rank(l), comm, st);
            case SEND_RECV -> sendRecv(s, r, count, rank(l), comm, st);
            case GATHER -> gather(s, r, recvOffset, count, rank(l), comm, st);
            case SCATTER -> scatter(s, r, sendOffset, count, rank(l), comm, st);
            case HYPERCUBE -> hypercube(s, r, recvOffset, count, rank(l), comm, st);
            case UNKNOWN -> throw new IllegalArgumentException("an unknown collective cannot be run");
        };
        if (op != redop) {
            int destroyed = ncclRedOpDestroy(op, comm);
            rc = rc != 0 ? rc : destroyed;
        }
        if (rc != 0) {
            nccl(rc, collective.ncclName());
        }
    }

    /**
     * nccl-tests 2.19.6's alltoall: {@code ncclAlltoAll} where the loaded NCCL has it (2.28 on, its run-time check
     * in alltoall.cu) and the packaged binding declares it, else a group of one send and one receive per peer,
     * {@code count} elements each.
     */
    private int allToAll(BytePointer s, BytePointer r, long sendOffset, long recvOffset, long count, ncclComm comm,
                         CUstream_st st) {
        if (allToAllApi) {
            return NewerNcclCalls.ncclAlltoAll(s, r, count, dtype, comm, st);
        }
        long block = count * eltBytes;
        int rc = ncclGroupStart();
        for (int peer = 0; peer < nranks && rc == 0; peer++) {
            s.position(sendOffset + peer * block);
            r.position(recvOffset + peer * block);
            rc = ncclSend(s, count, dtype, peer, comm, st);
            rc = rc != 0 ? rc : ncclRecv(r, count, dtype, peer, comm, st);
        }
        int end = ncclGroupEnd();
        return rc != 0 ? rc : end;
    }

    /**
     * nccl-tests 2.19.6's alltoallv: one group, per peer in rank order a send of what the pattern gives that peer
     * and a receive of what the peer sends here, each packed after the previous one; empty ones are skipped.
     * {@code count} is the per-peer share, so the pattern's total is {@code count × N} elements (unused by a matrix).
     */
    private int allToAllV(BytePointer s, BytePointer r, long sendOffset, long recvOffset, long count, int rank,
                          ncclComm comm, CUstream_st st) {
        long totalBytes = count * nranks * eltBytes;
        long sendAt = sendOffset;
        long recvAt = recvOffset;
        int rc = ncclGroupStart();
        for (int peer = 0; peer < nranks && rc == 0; peer++) {
            long sendElems = traffic.peerBytes(rank, peer, nranks, totalBytes) / eltBytes;
            long recvElems = traffic.peerBytes(peer, rank, nranks, totalBytes) / eltBytes;
            if (sendElems > 0) {
                s.position(sendAt);
                rc = ncclSend(s, sendElems, dtype, peer, comm, st);
                sendAt += sendElems * eltBytes;
            }
            if (recvElems > 0 && rc == 0) {
                r.position(recvAt);
                rc = ncclRecv(r, recvElems, dtype, peer, comm, st);
                recvAt += recvElems * eltBytes;
            }
        }
        int end = ncclGroupEnd();
        return rc != 0 ? rc : end;
    }

    /**
     * nccl-tests 2.19.6's gather: {@code ncclGather} from NCCL 2.28 (gather.cu) where the binding declares it, else
     * every rank sends its block to the root, which receives one block per rank, grouped. {@code count} elements per rank.
     */
    private int gather(BytePointer s, BytePointer r, long recvOffset, long count, int rank, ncclComm comm,
                       CUstream_st st) {
        if (count == 0) {
            return 0;
        }
        if (gatherScatterApi) {
            return NewerNcclCalls.ncclGather(s, r, count, dtype, root, comm, st);
        }
        int rc = ncclGroupStart();
        rc = rc != 0 ? rc : ncclSend(s, count, dtype, root, comm, st);
        for (int peer = 0; rank == root && peer < nranks && rc == 0; peer++) {
            r.position(recvOffset + peer * count * eltBytes);
            rc = ncclRecv(r, count, dtype, peer, comm, st);
        }
        int end = ncclGroupEnd();
        return rc != 0 ? rc : end;
    }

    /** nccl-tests 2.19.6's scatter: {@code ncclScatter} as {@link #gather}, else the root sends each rank its block. */
    private int scatter(BytePointer s, BytePointer r, long sendOffset, long count, int rank, ncclComm comm,
                        CUstream_st st) {
        if (count == 0) {
            return 0;
        }
        if (gatherScatterApi) {
            return NewerNcclCalls.ncclScatter(s, r, count, dtype, root, comm, st);
        }
        int rc = ncclGroupStart();
        for (int peer = 0; rank == root && peer < nranks && rc == 0; peer++) {
            s.position(sendOffset + peer * count * eltBytes);
            rc = ncclSend(s, count, dtype, peer, comm, st);
        }
        rc = rc != 0 ? rc : ncclRecv(r, count, dtype, root, comm, st);
        int end = ncclGroupEnd();
        return rc != 0 ? rc : end;
    }

    /**
     * nccl-tests' hypercube_perf: the rank's block copied into its place in the receive buffer (unless in place),
     * then log2(N) rounds, each a grouped exchange with {@code rank ^ mask} of the {@code mask} blocks gathered so far.
     */
    private int hypercube(BytePointer s, BytePointer r, long recvOffset, long count, int rank, ncclComm comm,
                          CUstream_st st) {
        long block = count * eltBytes;
        r.position(recvOffset + rank * block);
        if (r.address() + r.position() != s.address() + s.position()) {
            int rc = cudaMemcpyAsync(r, s, block, cudaMemcpyDeviceToDevice, st);
            if (rc != 0) {
                throw new GpuJobException("cudaMemcpyAsync: " + CudaErrors.describe(rc));
            }
        }
        int rc = 0;
        for (int mask = 1; mask < nranks && rc == 0; mask <<= 1) {
            int from = rank & ~(mask - 1);
            rc = ncclGroupStart();
            r.position(recvOffset + from * block);
            rc = rc != 0 ? rc : ncclSend(r, count * mask, dtype, rank ^ mask, comm, st);
            r.position(recvOffset + (from ^ mask) * block);
            rc = rc != 0 ? rc : ncclRecv(r, count * mask, dtype, rank ^ mask, comm, st);
            int end = ncclGroupEnd();
            rc = rc != 0 ? rc : end;
        }
        return rc;
    }

    /** nccl-tests' sendrecv: a ring, send to rank + 1 and receive from rank − 1, grouped. */
    private int sendRecv(BytePointer s, BytePointer r, long count, int rank, ncclComm comm, CUstream_st st) {
        int rc = ncclGroupStart();
        rc = rc != 0 ? rc : ncclSend(s, count, dtype, (rank + 1) % nranks, comm, st);
        rc = rc != 0 ? rc : ncclRecv(r, count, dtype, (rank - 1 + nranks) % nranks, comm, st);
        int end = ncclGroupEnd();
        return rc != 0 ? rc : end;
    }

    /**
     * NCCL's own estimate (ncclGroupSimulateEnd, 2.22+) of one out-of-place operation of {@code count} elements of
     * the configured collective, in µs: every local rank's launch in one group, simulated instead of run. NCCL
     * reports the time its tuning model chose the algorithm and protocol by; nothing is launched. Outside the timed
     * region; empty where the loaded NCCL lacks the call or reports no time.
     */
    @Override
    public OptionalDouble ncclEstimateUs(long count) {
        if (!NcclFeature.GROUP_SIMULATE.isAvailable(version)) {
            return OptionalDouble.empty();
        }
        try (ncclSimInfo_t sim = new ncclSimInfo_t()) {
            sim.size(sim.sizeof()).magic(0x74685283).version(NCCL_VERSION_CODE).estimatedTime(-1f);
            nccl(ncclGroupStart(), "ncclGroupStart");
            for (int l = 0; l < devices.length; l++) {
                launch(l, false, 0, 0, count);
            }
            nccl(ncclGroupSimulateEnd(sim), "ncclGroupSimulateEnd");
            float us = sim.estimatedTime();
            return us > 0 ? OptionalDouble.of(us) : OptionalDouble.empty(); // 0: no time for these tasks
        }
    }

    /** nccl-tests' testStreamSynchronize: poll every stream, check NCCL's async error, honour -T. */
    @Override
    public void waitAll(long timeoutNanos) {
        long start = System.nanoTime();
        int remaining = devices.length;
        for (int i = 0; i < done.length; i++) {
            done[i] = false;
        }
        while (remaining > 0) {
            boolean idle = true;
            for (int i = 0; i < devices.length; i++) {
                if (done[i]) {
                    continue;
                }
                int rc = cudaStreamQuery(streams[i]);
                if (rc == 0) {
                    done[i] = true;
                    remaining--;
                    idle = false;
                    continue;
                }
                if (rc != cudaErrorNotReady) {
                    abort();
                    throw new GpuJobException("cudaStreamQuery: " + CudaErrors.describe(rc));
                }
                String request = abortRequested;
                if (request != null) {
                    abort();
                    throw new GpuJobException("the job failed (" + request + "): communicators aborted");
                }
                nccl(ncclCommGetAsyncError(comms[i], asyncError), "ncclCommGetAsyncError");
                if (asyncError[0] != 0) {
                    int err = asyncError[0];
                    abort();
                    throw new GpuJobException("NCCL asynchronous error on rank " + rank(i) + ": "
                            + ncclError(err, version, null));
                }
                if (timeoutNanos > 0 && System.nanoTime() - start > timeoutNanos) {
                    abort();
                    throw new GpuJobException("timeout: operations on rank " + rank(i) + " did not complete within "
                            + timeoutNanos / 1_000_000_000L + " s (-T); communicators aborted");
                }
            }
            if (idle) {
                Thread.yield();
            }
        }
    }

    @Override
    public void beginCapture() {
        if (nullStream) {
            throw new IllegalStateException("-G needs a stream that can be captured: drop -y 1");
        }
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        }
    }

    @Override
    public void endCaptureAndInstantiate() {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaStreamEndCapture(streams[i], graphs[i]), "cudaStreamEndCapture");
        }
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaGraphInstantiate(graphExecs[i], graphs[i], 0L), "cudaGraphInstantiate");
        }
    }

    @Override
    public void launchGraph() {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaGraphLaunch(graphExecs[i], streams[i]), "cudaGraphLaunch");
        }
    }

    @Override
    public void destroyGraph() {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaGraphExecDestroy(graphExecs[i]), "cudaGraphExecDestroy");
            cuda(cudaGraphDestroy(graphs[i]), "cudaGraphDestroy");
        }
    }

    @Override
    public void prepareEvents(int slots) {
        destroyEvents();
        events = new CUevent_st[devices.length][slots];
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaSetDevice(devices[i]), "cudaSetDevice");
            for (int s = 0; s < slots; s++) {
                events[i][s] = new CUevent_st();
                cuda(cudaEventCreate(events[i][s]), "cudaEventCreate");
            }
        }
    }

    @Override
    public void recordEvent(int slot) {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaEventRecord(events[i][slot], streams[i]), "cudaEventRecord");
        }
    }

    @Override
    public double elapsedMillisMaxOverLocal(int slot) {
        double max = 0;
        for (int i = 0; i < devices.length; i++) {
            cuda(cudaEventElapsedTime(elapsedMs, events[i][slot], events[i][slot + 1]), "cudaEventElapsedTime");
            max = Math.max(max, elapsedMs[0]);
        }
        return max;
    }

    @Override
    public void zero(int l, boolean recvBuffer, long bytes) {
        cuda(cudaSetDevice(devices[l]), "cudaSetDevice");
        cuda(cudaMemset(recvBuffer ? recvBuf[l] : sendBuf[l], 0, bytes + shiftBytes), "cudaMemset");
        // the loop's streams are non-blocking, so they do not wait for legacy-stream work: finish it here
        cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }

    @Override
    public void upload(int l, boolean recvBuffer, long offset, ByteBuffer src) {
        cuda(cudaSetDevice(devices[l]), "cudaSetDevice");
        try (BytePointer dst = new BytePointer(recvBuffer ? recvBuf[l] : sendBuf[l]);
             BytePointer host = new BytePointer(src.slice())) {
            dst.position(offset + shiftBytes);
            cuda(cudaMemcpy(dst, host, src.remaining(), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
        }
        cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }

    /** @param dst a direct buffer (JavaCPP would copy a heap buffer, and the data would not come back) */
    @Override
    public void download(int l, long offset, ByteBuffer dst) {
        if (!dst.isDirect()) {
            throw new IllegalArgumentException("download needs a direct ByteBuffer");
        }
        cuda(cudaSetDevice(devices[l]), "cudaSetDevice");
        try (BytePointer srcDev = new BytePointer(recvBuf[l]); BytePointer host = new BytePointer(dst.slice())) {
            srcDev.position(offset + shiftBytes);
            cuda(cudaMemcpy(host, srcDev, dst.remaining(), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
        }
    }

    /**
     * For another thread, such as the job's failure hook: asks the thread that drives the communicators to abort
     * them at its next poll of the streams ({@link #waitAll}), which then throws. NCCL forbids using one
     * communicator from two threads at once, so the hook must not abort it itself. A thread stuck inside a native
     * call never polls: the job's halt after failure is the backstop.
     */
    public void requestAbort(String reason) {
        abortRequested = reason == null ? "no reason given" : reason;
    }

    /**
     * Synchronized with {@link #close}: aborting a destroyed communicator is a use after free. Call it from the
     * thread that drives the communicators; other threads use {@link #requestAbort}.
     */
    @Override
    public synchronized void abort() {
        if (aborted || closed) {
            return;
        }
        aborted = true;
        for (ncclComm c : comms) {
            if (c != null && !c.isNull()) {
                ncclCommAbort(c);
            }
        }
    }

    /** Communicators first, then buffers and streams, as nccl-tests tears down (its buffers may be registered). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        destroyEvents();
        preMulScalars(null);
        for (int i = 0; i < devices.length; i++) {
            if (!aborted && comms[i] != null && !comms[i].isNull()) {
                cudaSetDevice(devices[i]);
                ncclCommDestroy(comms[i]);
            }
            comms[i] = null;
        }
        for (int i = 0; i < devices.length; i++) {
            cudaSetDevice(devices[i]);
            free(sendBuf[i]);
            free(recvBuf[i]);
            free(barrierBuf[i]);
            if (streams[i] != null && !streams[i].isNull()) {
                cudaStreamDestroy(streams[i]);
            }
        }
    }

    private void free(Pointer p) {
        if (p != null && !p.isNull()) {
            if (usedNcclMemAlloc) {
                ncclMemFree(p);
            } else {
                cudaFree(p);
            }
        }
    }

    private void destroyEvents() {
        for (CUevent_st[] perDevice : events) {
            for (CUevent_st e : perDevice) {
                if (e != null && !e.isNull()) {
                    cudaEventDestroy(e);
                }
            }
        }
        events = new CUevent_st[0][];
    }

    private static void cuda(int rc, String call) {
        if (rc != 0) {
            throw new GpuJobException(call + ": " + CudaErrors.describe(rc));
        }
    }

    private void nccl(int rc, String call) {
        if (rc != 0) {
            throw new GpuJobException(call + ": " + ncclError(rc, version, comms.length > 0 ? comms[0] : null));
        }
    }

    /** NCCL's error string, plus {@code ncclGetLastError}'s detail where the library has it (2.13+). */
    private static String ncclError(int rc, NcclVersion version, ncclComm comm) {
        String text = ncclGetErrorString(rc).getString() + " (" + rc + ")";
        if (version != null && NcclFeature.GET_LAST_ERROR.isAvailable(version)) {
            String last = ncclGetLastError(comm).getString();
            if (last != null && !last.isBlank()) {
                text += ": " + last.trim();
            }
        }
        return text;
    }
}
