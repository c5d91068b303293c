package org.ncclharness.calibration.measure;

/**
 * How much a finding weighs in the verdict: INFO never changes it, WARN and FAIL do. Spoken by check's rules, by
 * the diagnosis of NCCL's lines, and by the diagnosis a run's JSON keeps.
 */
public enum Severity {
    INFO, WARN, FAIL
}
