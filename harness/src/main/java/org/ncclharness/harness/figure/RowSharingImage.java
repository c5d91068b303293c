package org.ncclharness.harness.figure;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.awt.image.Raster;
import java.util.Arrays;

/**
 * A chart's ARGB pixels that hand the PNG writer each row as a view of themselves rather than a copy. ImageIO's PNG
 * writer reads an image one row at a time through {@code getData(row)}, and a plain {@link BufferedImage} answers each
 * call with a new raster and a new row array: two copies of every picture written, about 1 GB for a
 * {@code calibrate --report} of the bundled catalog (README, Benchmarks). The writer only reads the rows, and this
 * image is only ever given to it, so the view reads the same pixels and the file has the same bytes. A
 * {@link PngCanvas} draws every file of a page on one such image, {@link #clear}ed between them.
 */
final class RowSharingImage extends BufferedImage {

    RowSharingImage(int widthPx, int heightPx) {
        super(widthPx, heightPx, TYPE_INT_ARGB);
    }

    /** Every pixel transparent black, as a new image's are. */
    void clear() {
        Arrays.fill(((DataBufferInt) getRaster().getDataBuffer()).getData(), 0);
    }

    /** The pixels of {@code rect} at their own coordinates, shared with this image, not copied. */
    @Override
    public Raster getData(Rectangle rect) {
        return getRaster().createChild(rect.x, rect.y, rect.width, rect.height, rect.x, rect.y, null);
    }
}
