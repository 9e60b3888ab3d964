package org.lbsim.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.lbsim.metrics.TimeSeries;

/**
 * The figures lbsim draws, built on XChart with one house style (white background, a palette
 * that survives colour blindness, legend below the plot). Every builder returns a {@link Figure}
 * ready for PNG or SVG; long inputs are downsampled here ({@link Downsample}, {@link Stats#ecdf}).
 */
public final class Charts {
    public static final int WIDTH = 800;
    public static final int HEIGHT = 460;

    /** A figure's size in pixels (SVG: its view box). */
    public record Size(int width, int height) {
        /** Stand-alone figures ({@code lbsim plot}). */
        public static final Size DEFAULT = new Size(WIDTH, HEIGHT);
        /** Figures of an HTML report, two side by side. */
        public static final Size REPORT = new Size(640, 400);
    }

    /** Okabe-Ito, then a few darker extras for many series. */
    private static final Color[] PALETTE = {
        new Color(0, 114, 178), new Color(230, 159, 0), new Color(0, 158, 115), new Color(204, 121, 167),
        new Color(86, 180, 233), new Color(213, 94, 0), new Color(0, 0, 0), new Color(120, 120, 120),
        new Color(240, 228, 66), new Color(140, 86, 75), new Color(23, 190, 207), new Color(148, 103, 189),
    };
    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP,
        SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS, SeriesMarkers.OVAL,
    };
    /** Tick labels of log axes: 100,000 rather than 1E5. */
    private static final String LOG_PATTERN = "#,##0.####";
    /** Prefix of series that carry error bars or fit lines only; never shown in the legend. */
    private static final String HIDDEN = "\u200b";

    /** What the error bars of a grouped figure show. */
    public enum ErrorBars {
        /** from the smallest to the largest run */
        MINMAX,
        /** mean +- one sample standard deviation */
        STDDEV,
        NONE
    }

    /** Options of {@link #grouped}. */
    public record GroupedOptions(String title, ErrorBars errorBars, boolean logX, boolean logY, boolean fit, int width, int height) {
        public static GroupedOptions of(String title) {
            return new GroupedOptions(title, ErrorBars.MINMAX, false, false, false, WIDTH, HEIGHT);
        }

        public GroupedOptions withErrorBars(ErrorBars e) {
            return new GroupedOptions(title, e, logX, logY, fit, width, height);
        }

        public GroupedOptions withLog(boolean x, boolean y) {
            return new GroupedOptions(title, errorBars, x, y, fit, width, height);
        }

        public GroupedOptions withFit(boolean f) {
            return new GroupedOptions(title, errorBars, logX, logY, f, width, height);
        }

        public GroupedOptions withSize(int w, int h) {
            return new GroupedOptions(title, errorBars, logX, logY, fit, w, h);
        }
    }

    static {
        // charts are drawn off screen: never look for a display (unless the caller chose otherwise)
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Charts() {
    }

    static XYChart base(String title, String xTitle, String yTitle, int width, int height) {
        XYChart c = new XYChart(width, height);
        c.setTitle(title);
        c.setXAxisTitle(xTitle);
        c.setYAxisTitle(yTitle);
        var s = c.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(new Color(160, 160, 160));
        s.setPlotGridLinesColor(new Color(225, 225, 225));
        s.setPlotGridLinesStroke(new BasicStroke(1f));
        s.setChartTitleBoxVisible(false);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendPosition(LegendPosition.OutsideS);
        s.setLegendLayout(LegendLayout.Horizontal);
        s.setLegendBorderColor(Color.WHITE);
        s.setSeriesColors(PALETTE);
        s.setSeriesMarkers(MARKERS);
        s.setMarkerSize(7);
        s.setErrorBarsColorSeriesColor(true);
        s.setLocale(Locale.ROOT);
        s.setAntiAlias(true);
        return c;
    }

    static Color color(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /**
     * Sampled series against simulated time in microseconds, each downsampled to
     * {@link Downsample#DEFAULT_POINTS}; y values multiplied by {@code scale}. Series names go
     * through {@code label}. Null when there is nothing to draw.
     */
    public static Figure timeSeries(String name, String title, String yTitle, List<TimeSeries> series, double scale,
                                    java.util.function.UnaryOperator<String> label) {
        return timeSeries(name, title, yTitle, series, scale, label, Size.DEFAULT);
    }

    public static Figure timeSeries(String name, String title, String yTitle, List<TimeSeries> series, double scale,
                                    java.util.function.UnaryOperator<String> label, Size size) {
        List<TimeSeries> drawable = series.stream().filter(t -> t.size() > 0).toList();
        if (drawable.isEmpty()) {
            return null;
        }
        XYChart c = base(title, "simulated time (\u00b5s)", yTitle, size.width(), size.height());
        c.getStyler().setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        int i = 0;
        for (TimeSeries t : drawable) {
            double[] x = new double[t.size()];
            double[] y = new double[t.size()];
            for (int k = 0; k < x.length; k++) {
                x[k] = t.timesPs()[k] / 1e6;
                y[k] = t.values()[k] * scale;
            }
            double[][] d = Downsample.minMax(x, y, Downsample.DEFAULT_POINTS);
            XYSeries s = c.addSeries(unique(c, label.apply(t.name())), d[0], d[1]);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(color(i++));
            s.setLineWidth(1.4f);
        }
        evenSpacingOff(c, true, true);
        legendPlacement(c);
        return new Figure(name, c);
    }

    /**
     * Empirical CDFs, one curve per entry (entries without values are skipped). Null when no
     * entry has values. With {@code logX}, values <= 0 are left out of the curve.
     */
    public static Figure cdf(String name, String title, String xTitle, Map<String, double[]> samples, boolean logX) {
        return cdf(name, title, xTitle, samples, logX, Size.DEFAULT);
    }

    public static Figure cdf(String name, String title, String xTitle, Map<String, double[]> samples, boolean logX, Size size) {
        XYChart c = base(title, xTitle, "fraction \u2264 x", size.width(), size.height());
        c.getStyler().setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Step);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(1.0);
        c.getStyler().setXAxisLogarithmic(logX);
        int i = 0;
        for (Map.Entry<String, double[]> e : samples.entrySet()) {
            double[] v = e.getValue();
            if (logX) {
                v = java.util.Arrays.stream(v).filter(d -> d > 0).toArray();
            }
            double[][] d = Stats.ecdf(v, Downsample.DEFAULT_POINTS);
            if (d[0].length == 0) {
                continue;
            }
            XYSeries s = c.addSeries(unique(c, e.getKey()), d[0], d[1]);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(color(i++));
            s.setLineWidth(1.6f);
        }
        if (c.getSeriesMap().isEmpty()) {
            return null;
        }
        evenSpacingOff(c, !logX, true);
        if (logX) {
            c.getStyler().setXAxisDecimalPattern(LOG_PATTERN);
        }
        legendPlacement(c);
        return new Figure(name, c);
    }

    /**
     * CDF of the out-of-order degree from the receivers' log2 histogram (bucket 0 = in order,
     * bucket b >= 1 = degrees [2^(b-1), 2^b)): at the tick "<= 2^b - 1", the fraction of data
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
        XYChart c = base(title, "out-of-order degree d (packets ahead of the expected PSN)", "fraction of arrivals with degree \u2264 d",
                size.width(), size.height());
        c.getStyler().setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        if (n == 1 || d[1][0] > 0.999) {
            c.getStyler().setYAxisMin(0.0);
        }
        c.getStyler().setYAxisMax(1.0);
        double[] x = new double[n];
        List<Object> labels = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            x[b] = b;
            labels.add(b == 0 ? "0" : String.format(Locale.ROOT, "%d", (1L << b) - 1));
        }
        XYSeries s = c.addSeries("data packets", x, d[1]);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineColor(color(0));
        s.setMarkerColor(color(0));
        evenSpacingOff(c, false, true);
        categoricalAxis(c, labels);
        c.getStyler().setLegendVisible(false);
        return new Figure(name, c);
    }

    /**
     * One series per group: the mean of the runs at each x with error bars over the runs;
     * categorical x values are spread slightly per group so bars do not overlap. With
     * {@code fit}, a least-squares power law per group (on log-log, over the individual runs)
     * is drawn dashed and its slope is given in the legend. Null when there is no data.
     */
    public static Figure grouped(String name, Grouped data, GroupedOptions o) {
        if (data.isEmpty()) {
            return null;
        }
        XYChart c = base(o.title(), data.xTitle(), data.yTitle(), o.width(), o.height());
        var st = c.getStyler();
        boolean logX = o.logX() && data.numericX();
        st.setXAxisLogarithmic(logX);
        st.setYAxisLogarithmic(o.logY());
        boolean bars = o.errorBars() != ErrorBars.NONE && data.maxRunsPerPoint() > 1;
        int groups = data.groups().size();
        double dodge = data.numericX() || groups == 1 ? 0 : Math.min(0.5 / groups, 0.15);
        int gi = 0;
        for (Map.Entry<String, List<Grouped.Cell>> g : data.groups().entrySet()) {
            List<Grouped.Cell> cells = g.getValue().stream()
                    .filter(cell -> (!logX || cell.xValue() > 0) && (!o.logY() || cell.y().mean() > 0)).toList();
            if (cells.isEmpty()) {
                gi++;
                continue;
            }
            Color color = color(gi);
            double offset = (gi - (groups - 1) / 2.0) * dodge;
            double[] x = new double[cells.size()];
            double[] y = new double[cells.size()];
            for (int k = 0; k < x.length; k++) {
                x[k] = cells.get(k).xValue() + offset;
                y[k] = cells.get(k).y().mean();
            }
            String label = g.getKey().isEmpty() ? (groups == 1 ? "mean" : "(none)") : g.getKey();
            Stats.PowerFit fit = null;
            if (o.fit()) {
                double[][] p = data.points(g.getKey());
                fit = Stats.powerFit(p[0], p[1]);
                label += fit == null ? " (no fit)" : String.format(Locale.ROOT, " (slope %.2f)", fit.slope());
            }
            XYSeries s = c.addSeries(unique(c, label), x, y);
            s.setXYSeriesRenderStyle(data.numericX() ? XYSeriesRenderStyle.Line : XYSeriesRenderStyle.Scatter);
            s.setMarker(MARKERS[gi % MARKERS.length]);
            s.setMarkerColor(color);
            s.setLineColor(color);
            if (bars) {
                double[] mid = new double[x.length];
                double[] half = new double[x.length];
                for (int k = 0; k < x.length; k++) {
                    Stats.Summary sum = cells.get(k).y();
                    double lo = o.errorBars() == ErrorBars.MINMAX ? sum.min() : sum.mean() - sum.stddev();
                    double hi = o.errorBars() == ErrorBars.MINMAX ? sum.max() : sum.mean() + sum.stddev();
                    if (o.logY()) {
                        lo = Math.max(lo, Math.min(sum.min(), sum.mean()) * 0.5); // never down to 0 on a log axis
                    }
                    mid[k] = (lo + hi) / 2;
                    half[k] = (hi - lo) / 2;
                }
                XYSeries e = c.addSeries(HIDDEN + "bars " + gi, x, mid, half);
                e.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
                e.setMarker(SeriesMarkers.NONE);
                e.setMarkerColor(color);
                e.setLineColor(color);
                e.setShowInLegend(false);
            }
            if (fit != null) {
                double lo = java.util.Arrays.stream(x).min().orElseThrow();
                double hi = java.util.Arrays.stream(x).max().orElseThrow();
                int n = 40;
                double[] fx = new double[n];
                double[] fy = new double[n];
                for (int k = 0; k < n; k++) {
                    fx[k] = logX ? lo * Math.pow(hi / lo, k / (n - 1.0)) : lo + (hi - lo) * k / (n - 1.0);
                    fy[k] = fit.at(fx[k]);
                }
                XYSeries f = c.addSeries(HIDDEN + "fit " + gi, fx, fy);
                f.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
                f.setMarker(SeriesMarkers.NONE);
                f.setLineColor(color);
                f.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
                f.setShowInLegend(false);
            }
            gi++;
        }
        if (c.getSeriesMap().isEmpty()) {
            return null;
        }
        evenSpacingOff(c, data.numericX() && !logX, !o.logY());
        if (!data.numericX()) {
            categoricalAxis(c, data.categories());
        }
        if (groups == 1 && data.groups().containsKey("") && !o.fit()) {
            st.setLegendVisible(false);
        }
        if (logX || (data.numericX() && data.groups().values().stream().flatMap(List::stream).anyMatch(cell -> Math.abs(cell.xValue()) >= 1e4))) {
            st.setXAxisDecimalPattern(LOG_PATTERN); // 1,000,000 rather than 1E6
        }
        if (o.logY()) {
            st.setYAxisDecimalPattern(LOG_PATTERN);
        }
        legendPlacement(c);
        return new Figure(name, c);
    }

    /** Category labels at 0, 1, 2 ...: an invisible anchor series puts a tick at each, the formatter names it. */
    private static void categoricalAxis(XYChart c, List<Object> categories) {
        int n = categories.size();
        double[] x = new double[n];
        double[] y = new double[n];
        double anchorY = c.getSeriesMap().values().iterator().next().getYData()[0];
        for (int k = 0; k < n; k++) {
            x[k] = k;
            y[k] = anchorY;
        }
        XYSeries a = c.addSeries(HIDDEN + "categories", x, y);
        a.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        a.setMarker(SeriesMarkers.NONE);
        a.setShowInLegend(false);
        var st = c.getStyler();
        int longest = categories.stream().mapToInt(k -> String.valueOf(k).length()).max().orElse(0);
        boolean rotate = n * Math.max(longest, 4) * 8 > c.getWidth() - 120;
        // Ticks between categories get blank labels. XChart widens the tick spacing when two labels
        // are equal, so the blanks differ: the tick at v spells round(40 (v + 1)) in binary with
        // spaces and no-break spaces. Blanks have no outline, so they never count against the fit
        // of the labels. XChart sizes the tick-label band from the longest label (by characters),
        // so when labels are rotated each name is padded with spaces on both sides to outnumber
        // every blank: the band is then as tall as the longest rotated name, instead of as tall as
        // a blank (zero) with the names cut off; equal padding keeps the name centred where XChart
        // rotates it.
        int blankMax = Long.toBinaryString(Math.round(40 * (n + 0.5))).length();
        String pad = rotate ? " ".repeat(blankMax / 2 + 1) : "";
        st.setxAxisTickLabelsFormattingFunction(v -> {
            long k = Math.round(v);
            if (Math.abs(v - k) < 1e-9 && k >= 0 && k < n) {
                return pad + categories.get((int) k) + pad;
            }
            return Long.toBinaryString(Math.max(1, Math.round(40 * (v + 1)))).replace('0', ' ').replace('1', '\u00a0');
        });
        st.setXAxisMin(-0.5);
        st.setXAxisMax(n - 0.5);
        st.setPlotGridVerticalLinesVisible(false);
        if (rotate) {
            st.setXAxisLabelRotation(30);
        }
    }

    /**
     * XChart puts a tick at every data value when the distinct values of an axis are equally spaced
     * (sample times, CDF levels of n flows): dozens of ticks. One invisible point at an irrational
     * fraction of the range breaks the spacing, and the axis gets its usual round ticks.
     */
    private static void evenSpacingOff(XYChart c, boolean x, boolean y) {
        double x0 = Double.POSITIVE_INFINITY;
        double x1 = Double.NEGATIVE_INFINITY;
        double y0 = Double.POSITIVE_INFINITY;
        double y1 = Double.NEGATIVE_INFINITY;
        for (XYSeries s : c.getSeriesMap().values()) {
            for (double v : s.getXData()) {
                x0 = Math.min(x0, v);
                x1 = Math.max(x1, v);
            }
            for (double v : s.getYData()) {
                if (!Double.isNaN(v)) {
                    y0 = Math.min(y0, v);
                    y1 = Math.max(y1, v);
                }
            }
        }
        if (!(x1 > x0) && !(y1 > y0)) {
            return;
        }
        double f = 1 / Math.PI;
        double hx = x && x1 > x0 ? x0 + (x1 - x0) * f : x0;
        double hy = y && y1 > y0 ? y0 + (y1 - y0) * f : y0;
        XYSeries h = c.addSeries(HIDDEN + "spacing", new double[] {hx}, new double[] {hy});
        h.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        h.setMarker(SeriesMarkers.NONE);
        h.setShowInLegend(false);
    }

    /** Legend below the plot when it fits on one line, else to the right, one entry per line. */
    static void legendPlacement(XYChart c) {
        int width = 0;
        for (XYSeries s : c.getSeriesMap().values()) {
            if (s.isShowInLegend()) {
                width += 7 * s.getName().length() + 50;
            }
        }
        if (width > c.getWidth() - 40) {
            c.getStyler().setLegendPosition(LegendPosition.OutsideE);
            c.getStyler().setLegendLayout(LegendLayout.Vertical);
        }
    }

    private static String unique(XYChart c, String name) {
        String n = name.isEmpty() ? " " : name;
        String candidate = n;
        for (int i = 2; c.getSeriesMap().containsKey(candidate); i++) {
            candidate = n + " (" + i + ")";
        }
        return candidate;
    }

    /** Every series added by a builder, hidden helpers included: for tests. */
    static List<String> seriesNames(Figure f) {
        return new ArrayList<>(((XYChart) f.chart()).getSeriesMap().keySet());
    }
}
