package org.ncclharness.harness.options;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The one rule for tables a model computed (provenance {@link SourceKind#PREDICTED}, read back from any format)
 * in the commands that judge or fit measurements ({@code check}, {@code calibrate}, {@code plot --model}): refused
 * in one line naming the model and the command that was run (exit 2), unless {@code --allow-predicted}
 * ({@link AllowPredictedOption}) takes them, and then each such table carries a note saying so into the command's
 * output. A verdict on a model's own numbers would always pass, and a model fitted to them scores 0 % and says
 * nothing of any hardware.
 *
 * @param allowed {@code --allow-predicted}: taken, and said; else a predicted table is an input error
 * @param command the command that applies the rule, as its refusal names it
 */
public record PredictedRows(boolean allowed, Command command) {

    /** The note a predicted table taken under {@code --allow-predicted} carries. */
    static final String NOTE = "predicted rows, taken as if measured (--allow-predicted): ";

    /** The default of a command: a predicted table is refused. */
    public static PredictedRows refused(Command command) {
        return new PredictedRows(false, command);
    }

    /** The commands that take the option, as the refusal names them. */
    public enum Command {
        CHECK("check judges measured runs, and compares them with a model via --calibration",
                "check --allow-predicted judges it anyway"),
        CALIBRATE("calibrate fits measured runs", "calibrate --allow-predicted fits it anyway"),
        PLOT("plot --model fits measured runs as calibrate does", "plot --model --allow-predicted fits it anyway");

        private final String does;
        private final String anyway;

        Command(String does, String anyway) {
            this.does = does;
            this.anyway = anyway;
        }
    }

    /** The tables as read, each predicted one noted; or, unless allowed, the refusal of the first predicted one. */
    public List<Sweep> admit(String file, List<Sweep> tables) {
        List<Sweep> out = new ArrayList<>();
        for (Sweep s : tables) {
            if (s.provenance().kind() != SourceKind.PREDICTED) {
                out.add(s);
                continue;
            }
            if (!allowed) {
                throw new InputException(file, 0, "this is a prediction, not a measurement (" + s.provenance().label()
                        + "); " + command.does + " (" + command.anyway + ")");
            }
            List<Note> notes = new ArrayList<>(s.notes());
            notes.add(Note.info(NOTE + s.provenance().label()));
            out.add(new Sweep(s.provenance(), s.collective(), s.run(), s.hardware(), s.devices(), s.rows(), notes,
                    s.trailer()));
        }
        return out;
    }
}
