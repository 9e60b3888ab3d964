package org.lbsim.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.Map;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.Range;
import org.jfree.data.category.CategoryDataset;

/**
 * Category renderers that draw each mean with its own interval, low and high apart (a t interval
 * cut at what the quantity can take, or the runs' range, is not symmetric around the mean, which
 * JFreeChart's statistical renderers assume). Overriding drawItem and findRangeBounds is
 * JFreeChart's extension point for renderers.
 */
final class CategoryIntervals {
    private static final Color WHISKER = new Color(40, 40, 40);
    private static final double CAP_PX = 4;

    private CategoryIntervals() {
    }

    /** The key of a (series, category) pair in the interval map. */
    static String key(String series, String category) {
        return series + '\u0000' + category;
    }

    private static Stats.Interval of(Map<String, Stats.Interval> intervals, CategoryDataset d, int row, int column) {
        return intervals.get(key(String.valueOf(d.getRowKey(row)), String.valueOf(d.getColumnKey(column))));
    }

    /** The value range with every interval in it (the axis shows all of each whisker; a log axis is ranged by its figure). */
    private static Range withIntervals(Range base, Map<String, Stats.Interval> intervals) {
        Range r = base;
        for (Stats.Interval i : intervals.values()) {
            r = Range.expandToInclude(Range.expandToInclude(r, i.high()), i.low());
        }
        return r;
    }

    /** A vertical whisker from low to high at x; an end at or below 0 on a log axis runs to the plot's edge without a cap. */
    private static void whisker(Graphics2D g2, double x, Stats.Interval i, Rectangle2D area, CategoryPlot plot, ValueAxis axis) {
        RectangleEdge edge = plot.getRangeAxisEdge();
        double y0 = axis.valueToJava2D(i.low(), area, edge);
        double y1 = axis.valueToJava2D(i.high(), area, edge);
        boolean open = axis instanceof LabelledLogAxis && i.low() <= 0;
        g2.setPaint(WHISKER);
        g2.setStroke(new BasicStroke(1.2f));
        g2.draw(new Line2D.Double(x, y0, x, y1));
        g2.draw(new Line2D.Double(x - CAP_PX, y1, x + CAP_PX, y1));
        if (!open) {
            g2.draw(new Line2D.Double(x - CAP_PX, y0, x + CAP_PX, y0));
        }
    }

    /** Grouped bars, each with its interval. */
    static final class Bars extends BarRenderer {
        private static final long serialVersionUID = 1L;
        private final transient Map<String, Stats.Interval> intervals;

        Bars(Map<String, Stats.Interval> intervals) {
            this.intervals = intervals;
        }

        @Override
        public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot, CategoryAxis domainAxis,
                             ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
            super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
            Stats.Interval i = of(intervals, dataset, row, column);
            if (i == null || pass != getPassCount() - 1 || dataset.getValue(row, column) == null) {
                return;
            }
            double x = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, row, column) + state.getBarWidth() / 2;
            whisker(g2, x, i, dataArea, plot, rangeAxis);
        }

        @Override
        public Range findRangeBounds(CategoryDataset dataset) {
            return withIntervals(super.findRangeBounds(dataset), intervals);
        }
    }

    /** Markers side by side in each category (no bars, no lines), each with its interval. */
    static final class Points extends LineAndShapeRenderer {
        private static final long serialVersionUID = 1L;
        private final transient Map<String, Stats.Interval> intervals;

        Points(Map<String, Stats.Interval> intervals) {
            super(false, true);
            this.intervals = intervals;
            setUseSeriesOffset(true);
            setItemMargin(0.3);
            setDrawOutlines(false);
        }

        @Override
        public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot, CategoryAxis domainAxis,
                             ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
            Stats.Interval i = of(intervals, dataset, row, column);
            if (i != null && pass == 0 && dataset.getValue(row, column) != null) {
                double x = domainAxis.getCategorySeriesMiddle(column, dataset.getColumnCount(), state.getVisibleSeriesIndex(row),
                        state.getVisibleSeriesCount(), getItemMargin(), dataArea, plot.getDomainAxisEdge());
                whisker(g2, x, i, dataArea, plot, rangeAxis);
            }
            super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
        }

        @Override
        public Range findRangeBounds(CategoryDataset dataset) {
            return withIntervals(super.findRangeBounds(dataset), intervals);
        }
    }
}
