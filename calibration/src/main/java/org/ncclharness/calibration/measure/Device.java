package org.ncclharness.calibration.measure;

/**
 * One {@code # Using devices} line: a rank's place in the job. Fields an older nccl-tests generation does not
 * print are null (Group before 2.13.4; the PCI domain before 2.14); the pid is 0 where not printed (before 2019).
 *
 * @param busId PCI id as printed inside the brackets ({@code 0000:18:00}, {@code 0x18})
 */
public record Device(int rank, Integer group, long pid, String host, int device, String busId, String name) { }
