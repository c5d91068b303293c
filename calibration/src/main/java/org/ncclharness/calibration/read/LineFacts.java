package org.ncclharness.calibration.read;

import java.util.List;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * What a log's lines state besides its tables (its {@link LogFacts}, the network NCCL names, the NET/IB devices: a
 * {@link SourceFacts}), gathered line by line in the one pass that reads the tables, so that a log need not be held
 * to know them.
 */
final class LineFacts {

    private final LogFacts.Builder facts = new LogFacts.Builder();
    private final LogNetwork.Finder network;

    LineFacts(HardwareFacts hardware) {
        this.network = new LogNetwork.Finder(hardware);
    }

    static LineFacts of(List<String> lines) {
        LineFacts f = new LineFacts(HardwareFacts.bundled());
        lines.forEach(f::accept);
        return f;
    }

    void accept(String line) {
        facts.accept(line);
        network.accept(line);
    }

    /** The facts gathered, with what a dataset's metadata states ({@code null}: a file, which states nothing). */
    SourceFacts source(RunDocument.Stated stated) {
        return new SourceFacts(facts.build(), network.result().orElse(null), facts.nicDevices(), stated, null);
    }
}
