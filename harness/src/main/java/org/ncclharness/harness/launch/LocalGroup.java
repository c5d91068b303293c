package org.ncclharness.harness.launch;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** A job of one process: every operation is the identity, nothing can be lost. */
final class LocalGroup implements JobGroup {

    private final List<Member> members;
    private volatile String failure;
    private volatile boolean closed;

    LocalGroup(Member self) {
        this.members = LocalRanks.recompute(List.of(self));
    }

    private void check() {
        if (failure != null || closed) {
            throw new JobFailedException("rank 0/1: " + (failure != null ? failure : "the job was closed"));
        }
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public List<Member> members() {
        return members;
    }

    @Override
    public void barrier() {
        check();
    }

    @Override
    public double[] allreduce(double[] values, Op op) {
        check();
        return values.clone();
    }

    @Override
    public byte[] broadcast(byte[] data) {
        check();
        return data.clone();
    }

    @Override
    public List<byte[]> gather(byte[] mine) {
        check();
        return List.of(mine.clone());
    }

    @Override
    public void onFailure(Consumer<String> hook) {
        if (failure != null) {
            hook.accept(failure);
        }
    }

    @Override
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void abort(String reason) {
        failure = members.get(0).describe() + " aborted the job: " + reason;
    }

    @Override
    public void close() {
        closed = true;
    }
}
