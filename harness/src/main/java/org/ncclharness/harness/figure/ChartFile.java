package org.ncclharness.harness.figure;

import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.encoders.EncoderUtil;
import org.jfree.chart.encoders.ImageFormat;
import org.jfree.svg.SVGGraphics2D;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * Writes a {@link Figure} as PNG or SVG, chosen by the file name, through {@link OutputFile} (temporary file,
 * then one move; no overwrite without force). The same figure gives the same bytes every time, so a regenerated
 * image only changes when its data does.
 */
public final class ChartFile {

    /** The image formats a figure can be written in. */
    public enum Format {
        PNG(".png"), SVG(".svg");

        private final String suffix;

        Format(String suffix) {
            this.suffix = suffix;
        }

        public String suffix() {
            return suffix;
        }

        /** The format a file name asks for; bad input (exit 2) for any other name. */
        public static Format of(Path file) {
            String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
            for (Format f : values()) {
                if (name.endsWith(f.suffix)) {
                    return f;
                }
            }
            throw new InputException(file.toString(), 0, "unknown image format: name the file .png or .svg");
        }
    }

    private ChartFile() {
    }

    public static void write(Figure figure, Path target, int widthPx, int heightPx, boolean force) {
        Format format = Format.of(target);
        checkSize(widthPx, heightPx);
        OutputFile.checkWritable(target, force);
        JFreeChart chart = BusBwChart.build(figure, widthPx);
        OutputFile.write(target, force, out -> writeTo(chart, format, widthPx, heightPx, out));
    }

    static void writeTo(JFreeChart chart, Format format, int widthPx, int heightPx, OutputStream out)
            throws IOException {
        if (format == Format.PNG) {
            writePng(chart, new RowSharingImage(widthPx, heightPx), out);
        } else {
            out.write(svg(chart, widthPx, heightPx).getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * ChartUtils.writeChartAsPNG's steps (JFreeChart's createBufferedImage, then its PNG encoder), on an image of
     * the PNG's size, transparent, whose rows the encoder reads without copying them.
     */
    static void writePng(JFreeChart chart, RowSharingImage image, OutputStream out) throws IOException {
        Graphics2D g2 = image.createGraphics();
        chart.draw(g2, new Rectangle2D.Double(0, 0, image.getWidth(), image.getHeight()), null, null);
        g2.dispose();
        EncoderUtil.writeBufferedImage(image, ImageFormat.PNG, out);
    }

    static String svg(JFreeChart chart, int widthPx, int heightPx) {
        SVGGraphics2D g2 = new SVGGraphics2D(widthPx, heightPx);
        // A fixed prefix instead of the default time-based one keeps the document identical run to run.
        g2.setDefsKeyPrefix("busbw");
        chart.draw(g2, new Rectangle(0, 0, widthPx, heightPx));
        return g2.getSVGDocument();
    }

    /** Below this a legend and two axes no longer fit; above it a PNG stops being a picture and becomes a poster. */
    public static void checkSize(int widthPx, int heightPx) {
        if (widthPx < 320 || heightPx < 240 || widthPx > 8000 || heightPx > 8000) {
            throw new HarnessException(ExitCode.USAGE, String.format(
                    "image size %dx%d is outside 320x240 … 8000x8000 pixels; pick --width and --height inside it",
                    widthPx, heightPx));
        }
    }
}
