package org.ncclharness.harness.figure;

import java.awt.Color;
import java.awt.Font;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;

/** The one look of a labelled line on a figure: its text on a near-opaque white box, so curves behind it stay legible. */
final class MarkerLabel {

    private static final Color BOX = new Color(255, 255, 255, 220);

    private MarkerLabel() {
    }

    static ValueMarker on(ValueMarker line, String text, Font font, RectangleAnchor anchor, TextAnchor textAnchor,
                          RectangleInsets offset) {
        line.setLabel(text);
        line.setLabelFont(font);
        line.setLabelBackgroundColor(BOX);
        line.setLabelAnchor(anchor);
        line.setLabelTextAnchor(textAnchor);
        line.setLabelOffset(offset);
        return line;
    }
}
