package org.ncclharness.harness.options;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The one rule for tables a model computed (provenance {@link SourceKind#PREDICTED}, read back from any format)
 * in the commands that judge or fit measurements ({@code check}, {@code calibrate}): refused in one line naming
 * the model (exit 2), unless {@code --allow-predicted} ({@link AllowPredictedOption}) takes them, and then each
 * such table carries a note saying so into the command's output. A verdict on a model's own numbers would always
 * pass, and a model fitted to them scores 0 % and says nothing of any hardware.
 */
public enum PredictedRows {
    /** The default: a predicted table is an input error. */
    REFUSED,
    /** {@code --allow-predicted}: taken, and said. */
    ALLOWED;

    /** The note a predicted table taken under {@code --allow-predicted} carries. */
    static final String NOTE = "predicted rows, taken as if measured (--allow-predicted): ";

    /** The commands that take the option, as the refusal names them (plot's fits are calibrate's). */
    public enum Command {
        CHECK("check judges measured runs, and compares them with a model via --calibration",
                "check --allow-predicted judges it anyway"),
        CALIBRATE("calibrate fits measured runs", "calibrate --allow-predicted fits it anyway");

        private final String does;
        private final String anyway;

        Command(String does, String anyway) {
            this.does = does;
            this.anyway = anyway;
        }
    }

    /** The tables as read, each predicted one noted; or, unless allowed, the refusal of the first predicted one. */
    public List<Sweep> admit(String file, List<Sweep> tables, Command command) {
        List<Sweep> out = new ArrayList<>();
        for (Sweep s : tables) {
            if (s.provenance().kind() != SourceKind.PREDICTED) {
                out.add(s);
                continue;
            }
            if (this == REFUSED) {
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
