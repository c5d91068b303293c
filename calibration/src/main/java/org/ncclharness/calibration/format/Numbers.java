package org.ncclharness.calibration.format;

import java.math.BigDecimal;

/** Plain number text for data files: the shortest decimal that reads back as the same double, no exponent. */
final class Numbers {

    private Numbers() {
    }

    static String plain(Double v) {
        if (v == null) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString(v.longValue());
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
