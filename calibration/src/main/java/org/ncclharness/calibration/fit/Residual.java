package org.ncclharness.calibration.fit;

/**
 * One point of a fit: measured and predicted time at one size.
 *
 * @param relErrPct (predicted − measured)/measured × 100
 */
public record Residual(double bytes, double measuredUs, double predictedUs, double relErrPct) {

    public static Residual of(double bytes, double measuredUs, double predictedUs) {
        return new Residual(bytes, measuredUs, predictedUs, (predictedUs - measuredUs) / measuredUs * 100);
    }
}
