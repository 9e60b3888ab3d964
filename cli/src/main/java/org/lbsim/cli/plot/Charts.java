package org.lbsim.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.lbsim.metrics.TimeSeries;

/**
 * The figures lbsim draws, built on JFreeChart with one house style (white background, a palette
 * that survives colour blindness, legend below the plot). Chart types are used as designed:
 * categories on a category axis (grouped bars, every category labelled), numbers on a number
 * axis, log axes with labelled ticks at any range ({@link LabelledLogAxis}). Every builder returns
 * a {@link Figure} with the data behind it as CSV; long inputs are downsampled here
 * ({@link Downsample}, {@link Stats#ecdf}).
 */
public final class Charts {
    public static final int WIDTH = 800;
    public static final int HEIGHT = 460;

    /** A figure's size in pixels (SVG: its view box). */
    public record Size(int width, int height) {
        /** Stand-alone figures ({@code lbsim plot}). */
        public static final Size DEFAULT = new Size(WIDTH, HEIGHT);
        /** Figures of an HTML report, two side by side. */
        public static final Size REPORT = new Size(640, 420);
    }

    /** Okabe-Ito, then a few darker extras for many series. */
    private static final Color[] PALETTE = {
        new Color(0, 114, 178), new Color(230, 159, 0), new Color(0, 158, 115), new Color(204, 121, 167),
        new Color(86, 180, 233), new Color(213, 94, 0), new Color(0, 0, 0), new Color(120, 120, 120),
        new Color(240, 228, 66), new Color(140, 86, 75), new Color(23, 190, 207), new Color(148, 103, 189),
    };
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    private static final Font AXIS_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font CAPTION_FONT = new Font(Font.SANS_SERIF, Font.ITALIC, 11);
    /** Series spanning more than this ratio (two decades) get a log y axis unless the caller chose. */
    static final double AUTO_LOG_RATIO = 100;
    /** A power-law fit needs at least this many distinct x values; with fewer its slope says little. */
    public static final int MIN_FIT_POINTS = 4;

    /** What the error bars of a grouped figure show where a point has at least {@link Stats#MIN_INTERVAL_RUNS} runs. */
    public enum ErrorBars {
        /** the 95 % confidence interval of the mean, Student t with n - 1 degrees of freedom */
        CI95(Stats.IntervalKind.T95),
        /** mean +- one sample standard deviation */
        STDDEV(Stats.IntervalKind.STDDEV),
        NONE(Stats.IntervalKind.NONE);

        final Stats.IntervalKind kind;

        ErrorBars(Stats.IntervalKind kind) {
            this.kind = kind;
        }
    }

    /**
     * Options of {@link #grouped}. {@code logY} null: log when the means span more than two
     * decades (the default is linear). {@code floorY} and {@code capY}: the least and the most the
     * quantity can take (a CCT increase is >= 0, a queue <= the switch buffer), NaN for no limit; no
     * interval is drawn beyond them. A cap reached by a series is marked on the figure, and values
     * at it are left out of fits.
     */
    public record GroupedOptions(String title, ErrorBars errorBars, boolean logX, Boolean logY, boolean fit, double floorY, double capY,
                                 String capLabel, int width, int height) {
        public static GroupedOptions of(String title) {
            return new GroupedOptions(title, ErrorBars.CI95, false, Boolean.FALSE, false, Double.NaN, Double.NaN, "", WIDTH, HEIGHT);
        }

        public GroupedOptions withErrorBars(ErrorBars e) {
            return new GroupedOptions(title, e, logX, logY, fit, floorY, capY, capLabel, width, height);
        }

        /** Log x as given, log y as given (null: automatic). */
        public GroupedOptions withLog(boolean x, Boolean y) {
            return new GroupedOptions(title, errorBars, x, y, fit, floorY, capY, capLabel, width, height);
        }

        public GroupedOptions withFit(boolean f) {
            return new GroupedOptions(title, errorBars, logX, logY, f, floorY, capY, capLabel, width, height);
        }

        public GroupedOptions withCap(double cap, String label) {
            return new GroupedOptions(title, errorBars, logX, logY, fit, floorY, cap, label, width, height);
        }

        /** The least value the quantity can take (NaN: none). */
        public GroupedOptions withFloor(double floor) {
            return new GroupedOptions(title, errorBars, logX, logY, fit, floor, capY, capLabel, width, height);
        }

        public GroupedOptions withSize(int w, int h) {
            return new GroupedOptions(title, errorBars, logX, logY, fit, floorY, capY, capLabel, w, h);
        }
    }

    static {
        // charts are drawn off screen: never look for a display (unless the caller chose otherwise)
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        // rotated labels (a category axis at 45 degrees) as strings under a rotation, not as glyph
        // outlines: the SVG then has them as <text>. The workaround was for JDKs before 6.
        org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private Charts() {
    }

    static Color color(int i) {
        return PALETTE[i % PALETTE.length];
    }

    private static Shape shape(int i) {
        double s = 7;
        double h = s / 2;
        return switch (i % 5) {
            case 0 -> new Ellipse2D.Double(-h, -h, s, s);
            case 1 -> polygon(0, -h - 1, h + 1, 0, 0, h + 1, -h - 1, 0);
            case 2 -> new Rectangle2D.Double(-h, -h, s, s);
            case 3 -> polygon(0, -h - 1, h + 1, h, -h - 1, h);
            default -> polygon(-h - 1, -h, h + 1, -h, 0, h + 1);
        };
    }

    private static Shape polygon(double... xy) {
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xy[0], xy[1]);
        for (int i = 2; i < xy.length; i += 2) {
            p.lineTo(xy[i], xy[i + 1]);
        }
        p.closePath();
        return p;
    }

    /** The number format of every numeric tick: {@link Labels#number}. */
    static NumberFormat numberFormat() {
        return new NumberFormat() {
            private static final long serialVersionUID = 1L;

            @Override
            public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
                return toAppendTo.append(Labels.number(number));
            }

            @Override
            public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
                return toAppendTo.append(Labels.number(number));
            }

            @Override
            public Number parse(String source, ParsePosition parsePosition) {
                throw new UnsupportedOperationException("figures only format numbers");
            }
        };
    }

    private static NumberAxis numberAxis(String title, boolean includeZero, boolean integers) {
        NumberAxis a = new NumberAxis(title);
        a.setAutoRangeIncludesZero(includeZero);
        if (integers) {
            a.setStandardTickUnits(NumberAxis.createIntegerTickUnits(Locale.ROOT));
        }
        a.setNumberFormatOverride(numberFormat());
        style(a);
        return a;
    }

    private static LabelledLogAxis logAxis(String title, boolean horizontal, int lengthPx) {
        LabelledLogAxis a = new LabelledLogAxis(title, Labels::number, Math.max(4, lengthPx / (horizontal ? 70 : 35)));
        a.setSmallestValue(1e-12);
        style(a);
        return a;
    }

    private static void style(org.jfree.chart.axis.Axis a) {
        a.setLabelFont(AXIS_FONT);
        a.setTickLabelFont(TICK_FONT);
        a.setTickLabelPaint(new Color(40, 40, 40));
        a.setAxisLinePaint(new Color(120, 120, 120));
        a.setTickMarkPaint(new Color(120, 120, 120));
    }

    private static void stylePlot(Plot p) {
        p.setBackgroundPaint(Color.WHITE);
        p.setOutlinePaint(new Color(160, 160, 160));
        p.setInsets(new RectangleInsets(6, 6, 6, 14));
        if (p instanceof XYPlot xy) {
            xy.setDomainGridlinePaint(new Color(225, 225, 225));
            xy.setRangeGridlinePaint(new Color(225, 225, 225));
            xy.setDomainGridlineStroke(new BasicStroke(1f));
            xy.setRangeGridlineStroke(new BasicStroke(1f));
        } else if (p instanceof CategoryPlot c) {
            c.setRangeGridlinePaint(new Color(225, 225, 225));
            c.setRangeGridlineStroke(new BasicStroke(1f));
        }
    }

    /** The chart around a plot: title, legend below (when asked), caption at the bottom. */
    private static JFreeChart chart(String title, Plot plot, boolean legend, String caption) {
        stylePlot(plot);
        JFreeChart c = new JFreeChart(title, TITLE_FONT, plot, legend);
        c.setBackgroundPaint(Color.WHITE);
        c.setAntiAlias(true);
        c.setTextAntiAlias(true);
        c.setPadding(new RectangleInsets(4, 4, 4, 4));
        LegendTitle l = c.getLegend();
        if (l != null) {
            l.setPosition(RectangleEdge.BOTTOM);
            l.setFrame(BlockBorder.NONE);
            l.setItemFont(TICK_FONT);
            l.setBackgroundPaint(Color.WHITE);
        }
        if (caption != null && !caption.isEmpty()) {
            TextTitle t = new TextTitle(caption, CAPTION_FONT);
            t.setPosition(RectangleEdge.BOTTOM);
            t.setHorizontalAlignment(HorizontalAlignment.LEFT);
            t.setPaint(new Color(90, 90, 90));
            t.setMargin(new RectangleInsets(4, 6, 0, 6));
            c.addSubtitle(t);
        }
        return c;
    }

    private static XYLineAndShapeRenderer lines(int count, float width) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < count; i++) {
            r.setSeriesPaint(i, color(i));
            r.setSeriesStroke(i, new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        }
        return r;
    }

    /**
     * Sampled series against simulated time in microseconds, each downsampled to
     * {@link Downsample#DEFAULT_POINTS}; y values multiplied by {@code scale}. Series names go
     * through {@code label}. Null when there is nothing to draw.
     */
    public static Figure timeSeries(String name, String title, String yTitle, List<TimeSeries> series, double scale, UnaryOperator<String> label) {
        return timeSeries(name, title, yTitle, series, scale, label, Size.DEFAULT);
    }

    public static Figure timeSeries(String name, String title, String yTitle, List<TimeSeries> series, double scale, UnaryOperator<String> label,
                                    Size size) {
        List<TimeSeries> drawable = series.stream().filter(t -> t.size() > 0).toList();
        if (drawable.isEmpty()) {
            return null;
        }
        XYSeriesCollection data = new XYSeriesCollection();
        Csv csv = new Csv("series", "time_us", yTitle);
        Set<String> names = new LinkedHashSet<>();
        for (TimeSeries t : drawable) {
            double[] x = new double[t.size()];
            double[] y = new double[t.size()];
            for (int k = 0; k < x.length; k++) {
                x[k] = t.timesPs()[k] / 1e6;
                y[k] = t.values()[k] * scale;
            }
            double[][] d = Downsample.minMax(x, y, Downsample.DEFAULT_POINTS);
            String key = unique(names, label.apply(t.name()));
            XYSeries s = new XYSeries(key, false, true);
            for (int k = 0; k < d[0].length; k++) {
                s.add(d[0][k], d[1][k], false);
                csv.row(key, d[0][k], d[1][k]);
            }
            data.addSeries(s);
        }
        XYPlot plot = new XYPlot(data, numberAxis("simulated time (\u00b5s)", false, false), numberAxis(yTitle, true, false),
                lines(drawable.size(), 1.4f));
        JFreeChart c = chart(title, plot, drawable.size() > 1, null);
        return new Figure(name, c, size.width(), size.height(), "", csv.text(),
                Figure.Spec.of(title, Figure.Kind.LINE, "series", "time_us", yTitle, "simulated time (\u00b5s)", yTitle, false, false));
    }

    /**
     * Empirical CDFs, one curve per entry (entries without values are skipped). Null when no
     * entry has values. The x axis is logarithmic with {@code logX}, or when every value is
     * positive and they span more than two decades; then values <= 0 are left out of the curve.
     */
    public static Figure cdf(String name, String title, String xTitle, Map<String, double[]> samples, boolean logX) {
        return cdf(name, title, xTitle, samples, logX, Size.DEFAULT);
    }

    public static Figure cdf(String name, String title, String xTitle, Map<String, double[]> samples, boolean logX, Size size) {
        boolean log = logX || spansDecades(samples.values().stream().flatMapToDouble(Arrays::stream).toArray());
        XYSeriesCollection data = new XYSeriesCollection();
        Csv csv = new Csv("series", xTitle, "fraction_at_most_x");
        Set<String> names = new LinkedHashSet<>();
        for (Map.Entry<String, double[]> e : samples.entrySet()) {
            double[] v = e.getValue();
            if (log) {
                v = Arrays.stream(v).filter(d -> d > 0).toArray();
            }
            double[][] d = Stats.ecdf(v, Downsample.DEFAULT_POINTS);
            if (d[0].length == 0) {
                continue;
            }
            String key = unique(names, e.getKey());
            XYSeries s = new XYSeries(key, false, true);
            for (int k = 0; k < d[0].length; k++) {
                if (k > 0) {
                    s.add(d[0][k], d[1][k - 1], false); // the step: flat up to the next value, then up
                }
                s.add(d[0][k], d[1][k], false);
                csv.row(key, d[0][k], d[1][k]);
            }
            data.addSeries(s);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        ValueAxis x = log ? logAxis(xTitle + " (log scale)", true, size.width()) : numberAxis(xTitle, false, false);
        NumberAxis y = numberAxis("fraction \u2264 x", true, false);
        y.setRange(0, 1.02);
        XYPlot plot = new XYPlot(data, x, y, lines(data.getSeriesCount(), 1.6f));
        return new Figure(name, chart(title, plot, true, null), size.width(), size.height(), "", csv.text(),
                Figure.Spec.of(title, Figure.Kind.STEP, "series", xTitle, "fraction_at_most_x", xTitle, "fraction \u2264 x", log, false));
    }

    /**
     * CDF of the out-of-order degree from the receivers' log2 histogram (bucket 0 = in order,
     * bucket b >= 1 = degrees [2^(b-1), 2^b)): at the category "2^b - 1", the fraction of data
     * packets that arrived at most that far ahead of the expected PSN. Null when nothing arrived.
     */
    public static Figure outOfOrderCdf(String name, String title, long[] log2Histogram) {
        return outOfOrderCdf(name, title, log2Histogram, Size.DEFAULT);
    }

    public static Figure outOfOrderCdf(String name, String title, long[] log2Histogram, Size size) {
        double[][] d = Stats.log2HistogramCdf(log2Histogram);
        int n = d[0].length;
        if (n == 0) {
            return null;
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        Csv csv = new Csv("degree_at_most", "fraction_of_arrivals");
        List<String> categories = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            String label = Labels.number((1L << b) - 1);
            categories.add(label);
            data.addValue(d[1][b], "data packets", label);
            csv.row(label, d[1][b]);
        }
        CategoryAxis x = categoryAxis("out-of-order degree d (packets ahead of the expected PSN)", data.getColumnKeys(), size.width());
        NumberAxis y = numberAxis("fraction of arrivals with degree \u2264 d", true, false);
        y.setRange(0, 1.02);
        LineAndShapeRenderer r = new LineAndShapeRenderer(true, true);
        r.setSeriesPaint(0, color(0));
        r.setSeriesShape(0, shape(0));
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        String xTitle = "out-of-order degree d (packets ahead of the expected PSN)";
        String yTitle = "fraction of arrivals with degree \u2264 d";
        return new Figure(name, chart(title, plot, false, null), size.width(), size.height(), "", csv.text(),
                new Figure.Spec(title, Figure.Kind.LINE_POINTS, null, "degree_at_most", "fraction_of_arrivals", null, null, xTitle, yTitle,
                        false, false, categories, Double.NaN, "", Map.of(), Map.of()));
    }

    /** Estimated width of one character of a tick label (12 pt sans-serif), for laying out category labels before drawing. */
    private static final double TICK_CHAR_PX = 7.2;
    /** Lines a category label may take: more than any label wraps into, so none is cut short ("..."). */
    private static final int CATEGORY_LINES = 40;
    /** The narrowest category (in estimated pixels) whose label is wrapped; narrower ones are rotated. */
    private static final double MIN_WRAPPED_CATEGORY_PX = 36;
    /** The smallest font a wrapped category label is set in to leave the plot its height. */
    private static final float MIN_CATEGORY_PT = 8f;
    /** The share of the figure's height the wrapped category labels may take before their font is made smaller. */
    private static final double CATEGORY_LABELS_HEIGHT_SHARE = 0.2;

    /**
     * A category axis that labels every category whole: side by side, each label wrapped onto as many lines as its
     * category's width needs (a word wider than that broken inside), in a font made smaller where the lines would take
     * the plot's height ({@link #fitCategoryLabels}); rotated by 45 degrees only when the categories are too many for a
     * few characters each.
     */
    private static CategoryAxis categoryAxis(String title, List<?> categories, int widthPx) {
        CategoryAxis a = new CategoryAxis(title);
        style(a);
        double perCategory = (widthPx - 120.0) / Math.max(1, categories.size());
        boolean wraps = perCategory >= MIN_WRAPPED_CATEGORY_PX
                || categories.stream().allMatch(k -> wrappedLines(String.valueOf(k), perCategory) <= 1);
        if (!wraps) {
            a.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
            a.setMaximumCategoryLabelWidthRatio(4f);
            a.setMaximumCategoryLabelLines(2);
        } else {
            a.setMaximumCategoryLabelLines(CATEGORY_LINES);
        }
        a.setCategoryMargin(0.2);
        a.setLowerMargin(0.03);
        a.setUpperMargin(0.03);
        return a;
    }

    /** Lines a label takes wrapped at its spaces into {@code widthPx}; a word wider than that counts as too many. */
    static int wrappedLines(String label, double widthPx) {
        int lines = 1;
        double used = 0;
        for (String word : label.split(" ")) {
            double w = word.length() * TICK_CHAR_PX;
            if (w > widthPx) {
                return Integer.MAX_VALUE;
            }
            double next = used == 0 ? w : used + TICK_CHAR_PX + w;
            if (next > widthPx) {
                lines++;
                used = w;
            } else {
                used = next;
            }
        }
        return lines;
    }

    /**
     * Sets the wrapped category labels of a figure {@code width} x {@code height} in a smaller font (down to
     * {@link #MIN_CATEGORY_PT}) while a word of one is wider than its category (and so broken) or their lines take more
     * than {@link #CATEGORY_LABELS_HEIGHT_SHARE} of its height: long point names at a small size leave the plot its height.
     * Called once the figure's size is known; lays the chart out to measure the labels as they are drawn.
     */
    static void fitCategoryLabels(JFreeChart chart, int width, int height) {
        if (!(chart.getPlot() instanceof CategoryPlot p) || p.getDomainAxis().getCategoryLabelPositions() != CategoryLabelPositions.STANDARD) {
            return;
        }
        CategoryAxis axis = p.getDomainAxis();
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        try {
            for (float pt = axis.getTickLabelFont().getSize2D(); ; pt--) {
                axis.setTickLabelFont(axis.getTickLabelFont().deriveFont(pt));
                if (pt <= MIN_CATEGORY_PT || categoryLabelsFit(chart, axis, width, height, g2)) {
                    return;
                }
            }
        } finally {
            g2.dispose();
        }
    }

    /**
     * Whether the category labels of {@code chart} drawn at {@code width} x {@code height} break no word (each line ends
     * at a space or after a hyphen) and the tallest takes at most {@link #CATEGORY_LABELS_HEIGHT_SHARE} of the height.
     */
    static boolean categoryLabelsFit(JFreeChart chart, CategoryAxis axis, int width, int height, Graphics2D g2) {
        org.jfree.chart.ChartRenderingInfo info = new org.jfree.chart.ChartRenderingInfo();
        chart.draw(g2, new Rectangle(0, 0, width, height), info);
        Rectangle2D area = info.getPlotInfo().getDataArea();
        for (Object t : axis.refreshTicks(g2, new org.jfree.chart.axis.AxisState(), area, ((CategoryPlot) chart.getPlot()).getDomainAxisEdge())) {
            org.jfree.chart.axis.CategoryTick tick = (org.jfree.chart.axis.CategoryTick) t;
            if (tick.getLabel().calculateDimensions(g2).getHeight() > CATEGORY_LABELS_HEIGHT_SHARE * height) {
                return false;
            }
            StringBuilder joined = new StringBuilder();
            for (Object line : tick.getLabel().getLines()) {
                String text = ((org.jfree.chart.text.TextLine) line).getFirstTextFragment().getText().strip();
                joined.append(joined.length() == 0 || joined.charAt(joined.length() - 1) == '-' ? "" : " ").append(text);
            }
            if (!joined.toString().equals(String.valueOf(tick.getCategory()).strip().replaceAll("\\s+", " "))) {
                return false;
            }
        }
        return true;
    }

    /** The smallest font an axis title is shrunk to before it moves above the plot. */
    private static final float MIN_AXIS_TITLE_PT = 9f;

    /**
     * Keeps the axis titles whole at any figure size: a title longer than its axis is set in a
     * smaller font (down to {@link #MIN_AXIS_TITLE_PT}), and one that still does not fit (the y
     * title of a short figure) is written above the plot instead, where the chart wraps it. Called
     * once the figure's size is known; lays the chart out to measure its plot.
     */
    static void fitAxisTitles(JFreeChart chart, int width, int height) {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        try {
            for (int pass = 0; pass < 2; pass++) {
                org.jfree.chart.ChartRenderingInfo info = new org.jfree.chart.ChartRenderingInfo();
                chart.draw(g2, new Rectangle(0, 0, width, height), info);
                Rectangle2D area = info.getPlotInfo().getDataArea();
                org.jfree.chart.axis.Axis[] xy = axes(chart);
                if (xy.length == 0) {
                    return;
                }
                boolean changed = fit(chart, xy[0], area.getWidth(), g2, false) | fit(chart, xy[1], area.getHeight(), g2, true);
                if (!changed) {
                    return;
                }
            }
        } finally {
            g2.dispose();
        }
    }

    /** The x (domain) and y (range) axis of an XY or category chart; none for any other plot. */
    static org.jfree.chart.axis.Axis[] axes(JFreeChart chart) {
        if (chart.getPlot() instanceof XYPlot p) {
            return new org.jfree.chart.axis.Axis[] {p.getDomainAxis(), p.getRangeAxis()};
        }
        if (chart.getPlot() instanceof CategoryPlot p) {
            return new org.jfree.chart.axis.Axis[] {p.getDomainAxis(), p.getRangeAxis()};
        }
        return new org.jfree.chart.axis.Axis[0];
    }

    private static boolean fit(JFreeChart chart, org.jfree.chart.axis.Axis axis, double lengthPx, Graphics2D g2, boolean vertical) {
        String label = axis.getLabel();
        if (label == null || label.isEmpty() || lengthPx <= 0) {
            return false;
        }
        Font f = axis.getLabelFont();
        double w = g2.getFontMetrics(f).stringWidth(label);
        if (w <= lengthPx) {
            return false;
        }
        float size = (float) Math.floor(f.getSize2D() * lengthPx / w);
        if (size >= MIN_AXIS_TITLE_PT) {
            axis.setLabelFont(f.deriveFont(size));
            return true;
        }
        if (!vertical) {
            axis.setLabelFont(f.deriveFont(MIN_AXIS_TITLE_PT)); // the x title: as small as titles go, the figure is that narrow
            return true;
        }
        TextTitle t = new TextTitle(label, AXIS_FONT);
        t.setPosition(RectangleEdge.TOP);
        t.setHorizontalAlignment(HorizontalAlignment.LEFT);
        t.setMargin(new RectangleInsets(2, 6, 0, 6));
        chart.addSubtitle(t);
        axis.setLabel(null);
        return true;
    }

    /**
     * One series per group, the mean of the runs at each x with an interval over them
     * ({@link Stats#interval}: none for one run, the runs' range below three, else by default the
     * 95 % Student-t interval of the mean; never beyond the floor or the cap; the caption says
     * which and gives n). Categorical x: grouped bars on a linear y axis, points (no bars: their
     * length means nothing there) on a log one. Numeric x: lines with markers; with {@code fit}, a
     * least-squares power law per group (log-log, over the individual runs, at least
     * {@link #MIN_FIT_POINTS} distinct x values, values at the cap left out) dashed, its slope in
     * the legend. Null when there is no data.
     */
    public static Figure grouped(String name, Grouped data, GroupedOptions o) {
        if (data.isEmpty()) {
            return null;
        }
        boolean logX = o.logX() && data.numericX() && data.groups().values().stream().flatMap(List::stream).allMatch(c -> c.xValue() > 0);
        double[] means = data.groups().values().stream().flatMap(List::stream).mapToDouble(c -> c.y().mean()).toArray();
        boolean logY = o.logY() != null ? o.logY() : spansDecades(means);
        int groups = data.groups().size();
        boolean capped = !Double.isNaN(o.capY()) && data.groups().values().stream().flatMap(List::stream)
                .anyMatch(c -> c.y().max() >= o.capY() * (1 - 1e-9));
        Csv csv = new Csv("group", data.xTitle(), "runs", "mean", "low", "high", "interval", "stddev", "min", "max");
        Set<Stats.IntervalKind> kinds = new java.util.TreeSet<>();
        boolean[] clipped = {false};
        java.util.function.Function<Grouped.Cell, Stats.Interval> intervalOf = c -> {
            Stats.Interval i = Stats.interval(c.y(), o.errorBars().kind, o.floorY(), o.capY());
            if (!logY || c.y().mean() > 0) {
                kinds.add(i.kind());
                clipped[0] |= i.clipped();
            }
            return i;
        };
        Plot plot;
        List<String> fitNotes = new ArrayList<>();
        Map<String, String> legendOf = new java.util.LinkedHashMap<>();
        Map<String, Figure.Spec.Fit> fitOfGroup = new java.util.LinkedHashMap<>();
        double[] logRange = {Double.POSITIVE_INFINITY, 0};
        java.util.function.BiConsumer<Double, Stats.Interval> ranged = (mean, i) -> {
            if (mean > 0) {
                logRange[0] = Math.min(logRange[0], i.low() > 0 ? i.low() : mean);
                logRange[1] = Math.max(logRange[1], Math.max(mean, i.high()));
            }
        };
        Figure.Kind kind;
        if (!data.numericX()) {
            DefaultCategoryDataset ds = new DefaultCategoryDataset();
            Map<String, Stats.Interval> intervals = new java.util.HashMap<>();
            for (Map.Entry<String, List<Grouped.Cell>> g : data.groups().entrySet()) {
                String key = groupLabel(g.getKey(), groups);
                for (Object cat : data.categories()) {
                    Grouped.Cell cell = g.getValue().stream().filter(c -> c.x().equals(cat)).findFirst().orElse(null);
                    if (cell == null || (logY && cell.y().mean() <= 0)) {
                        continue;
                    }
                    Stats.Interval iv = intervalOf.apply(cell);
                    ds.addValue(cell.y().mean(), key, String.valueOf(cat));
                    if (iv.drawn()) {
                        intervals.put(CategoryIntervals.key(key, String.valueOf(cat)), iv);
                    }
                    ranged.accept(cell.y().mean(), iv);
                    csvRow(csv, key, String.valueOf(cat), cell.y(), iv);
                }
            }
            if (ds.getRowCount() == 0) {
                return null;
            }
            CategoryAxis x = categoryAxis(data.xTitle(), data.categories(), o.width());
            ValueAxis y = logY ? logAxis(data.yTitle() + " (log scale)", false, o.height()) : numberAxis(data.yTitle(), true, false);
            org.jfree.chart.renderer.category.CategoryItemRenderer r;
            if (logY) {
                // a log axis has no 0 for a bar to rise from: the means as points, each with its interval
                CategoryIntervals.Points p = new CategoryIntervals.Points(intervals);
                for (int i = 0; i < groups; i++) {
                    p.setSeriesPaint(i, color(i));
                    p.setSeriesShape(i, shape(i));
                }
                r = p;
                kind = Figure.Kind.POINTS;
            } else {
                // grouped bars, as the papers draw them
                CategoryIntervals.Bars b = new CategoryIntervals.Bars(intervals);
                b.setBarPainter(new StandardBarPainter());
                b.setShadowVisible(false);
                b.setDrawBarOutline(false);
                b.setItemMargin(0.04);
                for (int i = 0; i < groups; i++) {
                    b.setSeriesPaint(i, color(i));
                }
                r = b;
                kind = Figure.Kind.BARS;
            }
            CategoryPlot cp = new CategoryPlot(ds, x, y, r);
            if (capped) {
                cp.addRangeMarker(capMarker(o));
            }
            plot = cp;
        } else {
            YIntervalSeriesCollection ds = new YIntervalSeriesCollection();
            XYSeriesCollection fits = new XYSeriesCollection();
            List<Integer> fitOf = new ArrayList<>();
            int gi = 0;
            for (Map.Entry<String, List<Grouped.Cell>> g : data.groups().entrySet()) {
                List<Grouped.Cell> cells = g.getValue().stream().filter(c -> (!logX || c.xValue() > 0) && (!logY || c.y().mean() > 0)).toList();
                if (cells.isEmpty()) {
                    gi++;
                    continue;
                }
                String key = groupLabel(g.getKey(), groups);
                if (o.fit()) {
                    double[][] p = fitPoints(data, g.getKey(), o.capY());
                    long distinct = Arrays.stream(p[0]).filter(v -> v > 0).distinct().count();
                    Stats.PowerFit fit = distinct >= MIN_FIT_POINTS ? Stats.powerFit(p[0], p[1]) : null;
                    String plain = key;
                    if (fit == null) {
                        boolean allCapped = distinct == 0 && capped && data.points(g.getKey())[0].length > 0;
                        fitNotes.add(key + (allCapped ? " (every value at the cap)" : " (" + distinct + (distinct == 1 ? " x value" : " x values")
                                + (capped ? " below the cap" : "") + ")"));
                    } else {
                        key += String.format(Locale.ROOT, " (slope %.2f)", fit.slope());
                        double lo = Arrays.stream(p[0]).filter(v -> v > 0).min().orElseThrow();
                        double hi = Arrays.stream(p[0]).max().orElseThrow();
                        legendOf.put(plain, key);
                        fitOfGroup.put(plain, new Figure.Spec.Fit(fit.prefactor(), fit.slope(), lo, hi));
                        XYSeries f = new XYSeries(HIDDEN_FIT + key, false, true);
                        int n = 40;
                        for (int k = 0; k < n; k++) {
                            double fx = lo * Math.pow(hi / lo, k / (n - 1.0));
                            f.add(fx, fit.at(fx));
                        }
                        fits.addSeries(f);
                        fitOf.add(gi);
                    }
                }
                YIntervalSeries s = new YIntervalSeries(key, false, true);
                for (Grouped.Cell c : cells) {
                    Stats.Interval iv = intervalOf.apply(c);
                    s.add(c.xValue(), c.y().mean(), iv.low(), iv.high());
                    ranged.accept(c.y().mean(), iv);
                    csvRow(csv, groupLabel(g.getKey(), groups), c.xValue(), c.y(), iv);
                }
                ds.addSeries(s);
                gi++;
            }
            if (ds.getSeriesCount() == 0) {
                return null;
            }
            boolean integers = data.groups().values().stream().flatMap(List::stream).allMatch(c -> c.xValue() == Math.rint(c.xValue()));
            ValueAxis x = logX ? logAxis(data.xTitle() + " (log scale)", true, o.width()) : numberAxis(data.xTitle(), false, integers);
            ValueAxis y = logY ? logAxis(data.yTitle() + " (log scale)", false, o.height()) : numberAxis(data.yTitle(), true, false);
            // lines through the means, a marker at each, its interval as a whisker (none where a point has one run)
            XYErrorRenderer r = new XYErrorRenderer();
            r.setDefaultLinesVisible(true);
            r.setDrawXError(false);
            r.setDrawYError(true);
            r.setCapLength(6);
            for (int i = 0; i < ds.getSeriesCount(); i++) {
                r.setSeriesPaint(i, color(i));
                r.setSeriesShape(i, shape(i));
                r.setSeriesStroke(i, new BasicStroke(1.6f));
            }
            XYPlot xp = new XYPlot(ds, x, y, r);
            if (fits.getSeriesCount() > 0) {
                XYLineAndShapeRenderer fr = new XYLineAndShapeRenderer(true, false);
                for (int i = 0; i < fits.getSeriesCount(); i++) {
                    fr.setSeriesPaint(i, color(fitOf.get(i)));
                    fr.setSeriesStroke(i, new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
                    fr.setSeriesVisibleInLegend(i, false);
                }
                xp.setDataset(1, fits);
                xp.setRenderer(1, fr);
            }
            if (capped) {
                xp.addRangeMarker(capMarker(o));
            }
            plot = xp;
            kind = Figure.Kind.LINE_POINTS;
        }
        if (logY && logRange[1] > 0) {
            // ranged over the means and the interval ends above 0 only: an interval reaching 0 runs off the bottom of
            // the axis instead of stretching it down to its smallest value (1e-12, ten empty decades)
            double hi = capped ? Math.max(logRange[1], o.capY()) : logRange[1];
            ValueAxis y = plot instanceof XYPlot xp ? xp.getRangeAxis() : ((CategoryPlot) plot).getRangeAxis();
            y.setRange(logRange[0] / 1.5, hi * 1.5);
        }
        List<String> caption = new ArrayList<>();
        int minRuns = data.groups().values().stream().flatMap(List::stream).mapToInt(c -> c.y().n()).min().orElse(0);
        int maxRuns = data.maxRunsPerPoint();
        String runs = minRuns == maxRuns ? String.valueOf(maxRuns) : minRuns + "\u2013" + maxRuns;
        if (maxRuns == 1) {
            caption.add("One run per point (n = 1, no interval)");
        } else {
            caption.add("Mean of " + runs + " runs per point (n = " + runs + ")");
        }
        caption.addAll(intervalCaptions(kinds, clipped[0], o));
        if (o.fit()) {
            caption.add("dashed: least-squares power law (log-log), fitted only with \u2265 " + MIN_FIT_POINTS + " x values"
                    + (capped ? ", values at the cap left out" : "") + (fitNotes.isEmpty() ? "" : "; not fitted: " + String.join(", ", fitNotes)));
        }
        if (capped) {
            caption.add("the " + (o.capLabel().isEmpty() ? "cap" : o.capLabel()) + " limits the values: a series that reaches it is clipped");
        }
        boolean legend = !(groups == 1 && data.groups().containsKey("") && legendOf.isEmpty());
        String text = String.join("; ", caption) + ".";
        JFreeChart c = chart(o.title(), plot, legend, text);
        boolean whiskers = kinds.stream().anyMatch(k -> k != Stats.IntervalKind.NONE);
        Figure.Spec spec = new Figure.Spec(o.title(), kind, "group", data.xTitle(), "mean",
                whiskers ? "low" : null, whiskers ? "high" : null, data.xTitle(), data.yTitle(), logX, logY,
                data.numericX() ? List.of() : data.categories().stream().map(String::valueOf).toList(), capped ? o.capY() : Double.NaN,
                o.capLabel(), legend ? legendOf : Map.of(groupLabel("", groups), data.yTitle()), fitOfGroup);
        return new Figure(name, c, o.width(), o.height(), text, csv.text(), spec);
    }

    /** What the whiskers of a grouped figure are, one caption part per kind drawn. */
    private static List<String> intervalCaptions(Set<Stats.IntervalKind> kinds, boolean clipped, GroupedOptions o) {
        List<String> out = new ArrayList<>();
        if (kinds.contains(Stats.IntervalKind.RANGE)) {
            out.add("with fewer than " + Stats.MIN_INTERVAL_RUNS + " runs the whisker spans the runs themselves (min\u2013max), no confidence interval");
        }
        if (kinds.contains(Stats.IntervalKind.T95)) {
            out.add("whiskers: 95 % confidence interval of the mean (Student t, n \u2212 1 degrees of freedom)");
        }
        if (kinds.contains(Stats.IntervalKind.STDDEV)) {
            out.add("whiskers: \u00b1 one sample standard deviation");
        }
        if (clipped) {
            List<String> limits = new ArrayList<>();
            if (!Double.isNaN(o.floorY())) {
                limits.add("\u2265 " + Labels.number(o.floorY()));
            }
            if (!Double.isNaN(o.capY())) {
                limits.add("\u2264 " + Labels.number(o.capY()));
            }
            out.add("intervals cut at what the quantity can take (" + String.join(", ", limits) + ")");
        }
        return out;
    }

    /** Series of the fit lines: never in the legend, named apart from the data. */
    private static final String HIDDEN_FIT = "fit of ";

    private static ValueMarker capMarker(GroupedOptions o) {
        ValueMarker m = new ValueMarker(o.capY(), new Color(200, 40, 40),
                new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {3f, 3f}, 0f));
        m.setLabel(o.capLabel().isEmpty() ? "cap" : o.capLabel());
        m.setLabelFont(TICK_FONT);
        m.setLabelPaint(new Color(200, 40, 40));
        m.setLabelBackgroundColor(new Color(255, 255, 255, 220));
        m.setLabelAnchor(RectangleAnchor.CENTER); // below the line, mid-plot: clear of series ending at the cap
        m.setLabelTextAnchor(TextAnchor.TOP_CENTER);
        m.setLabelOffset(new RectangleInsets(2, 6, 2, 2));
        return m;
    }

    private static double[][] fitPoints(Grouped data, String group, double cap) {
        double[][] p = data.points(group);
        if (Double.isNaN(cap)) {
            return p;
        }
        List<double[]> kept = new ArrayList<>();
        for (int i = 0; i < p[0].length; i++) {
            if (p[1][i] < cap * (1 - 1e-9)) {
                kept.add(new double[] {p[0][i], p[1][i]});
            }
        }
        return new double[][] {kept.stream().mapToDouble(k -> k[0]).toArray(), kept.stream().mapToDouble(k -> k[1]).toArray()};
    }

    private static void csvRow(Csv csv, String group, Object x, Stats.Summary s, Stats.Interval i) {
        csv.row(group, x, s.n(), s.mean(), i.drawn() ? i.low() : "", i.drawn() ? i.high() : "", i.kind().name().toLowerCase(Locale.ROOT),
                s.n() > 1 ? s.stddev() : "", s.min(), s.max());
    }

    private static String groupLabel(String group, int groups) {
        return group.isEmpty() ? (groups == 1 ? "mean" : "(none)") : group;
    }

    /** Whether the positive values span more than two decades (and none is <= 0). */
    static boolean spansDecades(double[] values) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (double v : values) {
            if (Double.isNaN(v)) {
                continue;
            }
            if (v <= 0) {
                return false;
            }
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi > 0 && hi / lo > AUTO_LOG_RATIO;
    }

    private static String unique(Set<String> names, String name) {
        String n = name.isEmpty() ? "(unnamed)" : name;
        String candidate = n;
        for (int i = 2; names.contains(candidate); i++) {
            candidate = n + " (" + i + ")";
        }
        names.add(candidate);
        return candidate;
    }

    /** The legend entries of a figure, in order: for tests. */
    static List<String> legend(Figure f) {
        List<String> out = new ArrayList<>();
        LegendItemCollection items = f.chart().getPlot().getLegendItems();
        for (int i = 0; i < items.getItemCount(); i++) {
            LegendItem it = items.get(i);
            out.add(it.getLabel());
        }
        return out;
    }

    /** The data behind a figure as CSV text, numbers in full precision. */
    static final class Csv {
        private final StringBuilder sb = new StringBuilder();

        Csv(String... header) {
            row((Object[]) header);
        }

        void row(Object... cells) {
            for (int i = 0; i < cells.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                Object c = cells[i];
                String s = c instanceof Double d ? (d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : Double.toString(d))
                        : String.valueOf(c);
                sb.append(s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s);
            }
            sb.append('\n');
        }

        String text() {
            return sb.toString();
        }
    }
}
