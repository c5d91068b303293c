package org.ncclharness.harness.figure;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import org.jfree.chart.util.ShapeUtils;

/**
 * How the chart tells series apart without colour: each input its own marker shape and size, each curve its own
 * dash pattern, so a greyscale print or a colour-blind reader still sees which is which. Later inputs get larger
 * markers and are drawn first (JFreeChart draws the last series first), so where two inputs measured the same
 * point the first one's marker sits inside the next one's and both stay visible.
 */
final class SeriesStyle {

    /** Tableau 10: distinct hues that stay apart for the common colour-vision deficiencies. */
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf),
    };
    /** Solid, dashed, dotted, dash-dot, long dash: the curves of one picture, in order. */
    private static final float[][] DASHES = {null, {10f, 4f}, {2f, 3f}, {10f, 3f, 2f, 3f}, {18f, 5f}};
    /** The reference a run was judged against: dashed, in a neutral grey that no input takes. */
    static final Color REFERENCE = new Color(0x404040);
    static final float[] REFERENCE_DASH = {8f, 5f};
    /** Marker size of the first input, in pixels; each later one {@value #GROWTH_PX} larger. */
    private static final double FIRST_MARKER_PX = 7;
    private static final double GROWTH_PX = 3;
    private static final int SHAPES = 5;

    private SeriesStyle() {
    }

    static Color colour(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /** Input i's marker: circle, square, triangle, diamond, down-triangle, each larger than the one before. */
    static Shape marker(int i) {
        double size = FIRST_MARKER_PX + GROWTH_PX * Math.min(i, 2 * SHAPES);
        double h = size / 2;
        return switch (i % SHAPES) {
            case 0 -> new Ellipse2D.Double(-h, -h, size, size);
            case 1 -> new Rectangle2D.Double(-h, -h, size, size);
            case 2 -> ShapeUtils.createUpTriangle((float) h);
            case 3 -> ShapeUtils.createDiamond((float) h);
            default -> ShapeUtils.createDownTriangle((float) h);
        };
    }

    /** Curve k of the picture: solid first, then dashed, dotted, dash-dot. */
    static Stroke curve(int k) {
        return stroke(2f, DASHES[k % DASHES.length]);
    }

    static Stroke stroke(float width, float[] dash) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f);
    }
}
