package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.read.Inputs;

/**
 * Judges what the readers made of one damaged or disguised CSV or JSON: the rows read equal the document's, or the
 * refusal (an {@link InputException}) names the damaged row and no Java type; anything else is a defect.
 */
public final class DocumentOracle {

    /** A Java or library type name, a stack frame or an exception class: never in a message to a user. */
    public static final Pattern JAVA_NAME = Pattern.compile("\\b(?:java|javax|jdk|sun|com\\.fasterxml|picocli"
            + "|org\\.ncclharness)\\.[a-z]\\w*|\\b[A-Z]\\w*(?:Exception|Error)\\b|\\tat \\w");

    private DocumentOracle() {
    }

    public static FuzzOracle.Outcome judge(DocumentMutation.Case c) {
        String name = "fuzz." + c.kind().format();
        List<Measurement> read = new ArrayList<>();
        try {
            Inputs.parse(name, c.text()).forEach(s -> read.addAll(s.rows()));
        } catch (InputException e) {
            String m = e.getMessage();
            if (JAVA_NAME.matcher(m).find()) {
                return defect(c, false, "a Java name in: " + m);
            }
            boolean named = switch (c.kind().damage()) {
                case ROW -> c.damagedLine() > 0 ? e.line() == c.damagedLine()
                        : m.contains("results[" + c.damagedRow() + "]");
                case WHOLE -> true;
                case NONE -> false;
            };
            return named ? outcome(c, FuzzOracle.Verdict.CLEAN_REFUSAL)
                    : defect(c, false, "refused where " + (c.damagedRow() < 0 ? "nothing is damaged"
                            : "row " + c.damagedRow() + " is damaged") + ": " + m);
        } catch (RuntimeException e) {
            return defect(c, false, "uncaught: " + e);
        }
        if (c.kind().damage() != DocumentMutation.Damage.NONE) {
            return defect(c, read.size() < c.rows().size(), "read " + read.size() + " rows without a word for the"
                    + " damage");
        }
        return read.equals(c.rows()) ? outcome(c, FuzzOracle.Verdict.PARSED_EXACTLY)
                : defect(c, read.size() < c.rows().size(), "read " + read.size() + " rows, the document holds "
                        + c.rows().size() + (read.size() == c.rows().size() ? " (values differ)" : ""));
    }

    private static FuzzOracle.Outcome outcome(DocumentMutation.Case c, FuzzOracle.Verdict v) {
        return new FuzzOracle.Outcome(c.kind().name(), v, false, null);
    }

    private static FuzzOracle.Outcome defect(DocumentMutation.Case c, boolean silent, String detail) {
        return new FuzzOracle.Outcome(c.kind().name(), FuzzOracle.Verdict.DEFECT, silent, detail);
    }
}
