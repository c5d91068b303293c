package org.ncclharness.harness.figure;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.DefaultXYZDataset;

/**
 * The pair busbw of a {@code bringup --pairs} as a host × host grid: a bad host is a dark row and column, a bad
 * link between two good hosts one dark cell. Cells of pairs not measured on their own stay empty.
 *
 * @param hosts     the hosts, in grid order
 * @param busBwGBps pair busbw, symmetric, NaN where not measured
 */
public record HostHeatmap(String title, String subtitle, List<String> hosts, double[][] busBwGBps) implements Picture {

    /** Shades from the slowest (dark red) to the fastest pair (green). */
    private static final Color[] SHADES = {new Color(0x7f0000), new Color(0xd7301f), new Color(0xfc8d59),
        new Color(0xfee08b), new Color(0xd9ef8b), new Color(0x91cf60), new Color(0x1a9850)};

    public HostHeatmap {
        hosts = List.copyOf(hosts);
        if (busBwGBps.length != hosts.size()) {
            throw new IllegalArgumentException("a heatmap of " + hosts.size() + " hosts needs as many rows, got "
                    + busBwGBps.length);
        }
    }

    @Override
    public int heightPx() {
        return ReportPage.FIGURE_WIDTH_PX * 3 / 4;
    }

    @Override
    public JFreeChart chart(int widthPx) {
        List<double[]> cells = new ArrayList<>();
        double max = 0;
        for (int a = 0; a < hosts.size(); a++) {
            for (int b = 0; b < hosts.size(); b++) {
                if (!Double.isNaN(busBwGBps[a][b])) {
                    cells.add(new double[] {a, b, busBwGBps[a][b]});
                    max = Math.max(max, busBwGBps[a][b]);
                }
            }
        }
        double[][] xyz = new double[3][cells.size()];
        for (int i = 0; i < cells.size(); i++) {
            for (int k = 0; k < 3; k++) {
                xyz[k][i] = cells.get(i)[k];
            }
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("pair busbw", xyz);
        double top = max > 0 ? max : 1;
        LookupPaintScale scale = new LookupPaintScale(0, top * 1.0001, Color.LIGHT_GRAY);
        for (int i = 0; i < SHADES.length; i++) {
            scale.add(top * i / SHADES.length, SHADES[i]);
        }
        XYBlockRenderer renderer = new XYBlockRenderer();
        renderer.setPaintScale(scale);
        String[] names = hosts.toArray(String[]::new);
        SymbolAxis x = new SymbolAxis("host", names);
        SymbolAxis y = new SymbolAxis("host", names);
        x.setVerticalTickLabels(hosts.size() > 8);
        x.setGridBandsVisible(false); // alternate bands would read as cells
        y.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        chart.setBackgroundPaint(Color.WHITE);
        if (!subtitle.isEmpty()) {
            chart.addSubtitle(new TextTitle(subtitle));
        }
        NumberAxis legendAxis = new NumberAxis("pair busbw (GB/s)");
        legendAxis.setRange(0, top);
        PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setMargin(4, 4, 40, 4);
        chart.addSubtitle(legend);
        return chart;
    }
}
