package org.ncclharness.calibration.format;

/**
 * Input text quoted in a message: one line, no control characters (an ESC sequence must not reach the
 * terminal), at most 80 characters, so a 10 MB token or a binary line still gives a one-line error.
 */
public final class Echo {

    private static final int MAX = 80;

    private Echo() {
    }

    public static String quote(String token) {
        StringBuilder b = new StringBuilder("'");
        int shown = 0;
        for (int i = 0; i < token.length() && shown < MAX; i++, shown++) {
            char c = token.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (token.length() > MAX) {
            b.append("...' (").append(token.length()).append(" characters)");
            return b.toString();
        }
        return b.append('\'').toString();
    }
}
