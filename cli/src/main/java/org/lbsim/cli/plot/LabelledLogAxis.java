package org.lbsim.cli.plot;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/**
 * A logarithmic axis whose labelled ticks suit the range: decades over a wide range, 1-2-5 per
 * decade over one to a few decades, every integer mantissa within a decade, and round linear
 * steps when the range is a small part of one decade. (LogAxis' own ticks are whole decades
 * only: a range of 2 to 8 MiB gets no label at all.) Overriding refreshTicks is JFreeChart's
 * extension point for tick placement.
 */
final class LabelledLogAxis extends LogAxis {
    private static final long serialVersionUID = 1L;
    private final transient DoubleFunction<String> format;
    private final int maxTicks;

    LabelledLogAxis(String label, DoubleFunction<String> format, int maxTicks) {
        super(label);
        this.format = format;
        this.maxTicks = maxTicks;
        setBase(10);
        setMinorTickMarksVisible(false);
    }

    /**
     * A value at or below 0 has no place on a log axis (JFreeChart maps it to NaN, and a whisker to
     * NaN is drawn off the top): such a value, the lower end of a mean's confidence interval, is
     * drawn at the axis's lower end, so its whisker runs to the bottom of the plot.
     */
    @Override
    public double valueToJava2D(double value, Rectangle2D area, RectangleEdge edge) {
        return super.valueToJava2D(value > 0 ? value : getLowerBound(), area, edge);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public List refreshTicks(Graphics2D g2, AxisState state, Rectangle2D dataArea, RectangleEdge edge) {
        TextAnchor anchor;
        if (RectangleEdge.isTopOrBottom(edge)) {
            anchor = edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER;
        } else {
            anchor = edge == RectangleEdge.LEFT ? TextAnchor.CENTER_RIGHT : TextAnchor.CENTER_LEFT;
        }
        List ticks = new ArrayList();
        for (double v : values(getRange().getLowerBound(), getRange().getUpperBound(), maxTicks)) {
            ticks.add(new NumberTick(TickType.MAJOR, v, format.apply(v), anchor, anchor, 0.0));
        }
        return ticks;
    }

    /** The labelled tick values in [lo, hi] (lo > 0): the sparsest mantissa set that gives at least 3 ticks, at most {@code maxTicks}. */
    static List<Double> values(double lo, double hi, int maxTicks) {
        if (!(lo > 0) || !(hi > lo)) {
            return List.of();
        }
        int e0 = (int) Math.floor(Math.log10(lo));
        int e1 = (int) Math.ceil(Math.log10(hi));
        // whole decades, every k-th one when there are too many
        for (int step = 1; step <= 100; step++) {
            List<Double> v = new ArrayList<>();
            for (int e = e0; e <= e1; e++) {
                if (Math.floorMod(e, step) == 0) {
                    add(v, Math.pow(10, e), lo, hi);
                }
            }
            if (v.size() > maxTicks) {
                continue;
            }
            if (v.size() >= 3) {
                return v;
            }
            break;
        }
        for (int[] mantissas : new int[][] {{1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
            List<Double> v = new ArrayList<>();
            for (int e = e0; e <= e1; e++) {
                for (int m : mantissas) {
                    add(v, m * Math.pow(10, e), lo, hi);
                }
            }
            if (v.size() >= 3 && v.size() <= maxTicks) {
                return v;
            }
            if (v.size() > maxTicks) {
                return thin(v, maxTicks);
            }
        }
        return linear(lo, hi, Math.max(3, Math.min(maxTicks, 6)));
    }

    private static void add(List<Double> v, double x, double lo, double hi) {
        double eps = 1e-9 * x;
        if (x >= lo - eps && x <= hi + eps) {
            v.add(x);
        }
    }

    private static List<Double> thin(List<Double> v, int maxTicks) {
        int step = (v.size() + maxTicks - 1) / maxTicks;
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i += step) {
            out.add(v.get(i));
        }
        return out;
    }

    /** Round steps (1, 2 or 5 times a power of ten) over a range too narrow for mantissa ticks. */
    private static List<Double> linear(double lo, double hi, int target) {
        double raw = (hi - lo) / target;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        List<Double> out = new ArrayList<>();
        java.math.BigDecimal st = java.math.BigDecimal.valueOf(step);
        for (long k = (long) Math.ceil(lo / step - 1e-9); k <= (long) Math.floor(hi / step + 1e-9); k++) {
            double x = java.math.BigDecimal.valueOf(k).multiply(st).doubleValue(); // 2.9, not 2.9000000000000004
            if (x >= lo && x <= hi) {
                out.add(x);
            }
        }
        return out;
    }
}
