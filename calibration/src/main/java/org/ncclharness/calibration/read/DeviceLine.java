package org.ncclharness.calibration.read;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Device;

/**
 * One line of nccl-tests' {@code # Using devices} list: {@code #  Rank  0 Group  0 Pid 1234 on host device  0
 * [0x05] NVIDIA H100 80GB HBM3}. Group and Pid came in later versions (2019's lines have neither; the pid is 0 where
 * not printed). The reader takes the run's ranks, hosts and GPU from these lines, and diagnose its hosts and GPU
 * models where NCCL's own lines come from one host only.
 */
public final class DeviceLine {

    private static final Pattern DEVICE = Pattern.compile(
            "Rank\\s+(\\d{1,9})\\s+(?:Group\\s+(\\d{1,9})\\s+)?(?:Pid\\s+(\\d{1,18})\\s+)?on\\s+(\\S+)\\s+device\\s+(\\d{1,9})\\s+"
            + "\\[([^\\]]*)\\]\\s*(.*)");

    private DeviceLine() {
    }

    /** The device a line lists, empty where the line is not one of the list's. */
    public static Optional<Device> parse(String text) {
        Matcher m = DEVICE.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new Device(Integer.parseInt(m.group(1)),
                m.group(2) == null ? null : Integer.valueOf(m.group(2)),
                m.group(3) == null ? 0 : Long.parseLong(m.group(3)),
                m.group(4), Integer.parseInt(m.group(5)), m.group(6), m.group(7).trim()));
    }
}
