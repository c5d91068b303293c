package org.ncclharness.calibration.check;

/** How much a finding weighs in the verdict: INFO never changes it, WARN and FAIL do. */
public enum Severity {
    INFO, WARN, FAIL
}
