package org.lbsim.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryTick;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.text.TextLine;
import org.jfree.chart.ui.RectangleEdge;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.metrics.TimeSeries;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * Acceptance of the figures: every figure type is rendered and each of its axes (log and
 * category axes included) has tick labels that are drawn as SVG {@code <text>}; every category
 * of a category axis appears; log axes over less than a decade still have at least 3 labels.
 */
class FigureAxesTest {
    private static final String[] SCHEMES = {"ecmp", "subflow", "host-flowlet-ar", "host-spray", "switch-pkt", "host-pkt-ar", "switch-pkt-ar", "ofan"};
    /** The schemes as the axis names them: their display names, which a narrow category may wrap ("HOST FLOWLET AR" on three lines). */
    private static final List<String> SCHEMES_SHOWN = java.util.Arrays.stream(SCHEMES)
            .map(s -> org.lbsim.registry.LoadBalancers.REGISTRY.displayName(s).orElseThrow()).toList();

    /** name, figure, categories that must each appear on the x axis (empty for a value axis), whether x and y must be log axes. */
    static Stream<Arguments> figures() {
        List<Arguments> out = new ArrayList<>();
        java.util.Random rnd = new java.util.Random(7);
        List<TimeSeries> series = new ArrayList<>();
        for (String layer : List.of("E->A", "A->C", "C->A")) {
            long[] t = new long[500];
            double[] v = new double[500];
            for (int i = 0; i < t.length; i++) {
                t[i] = i * 1_000_000L;
                v[i] = 1000 * rnd.nextDouble();
            }
            series.add(new TimeSeries("queue.max " + layer, "bytes", t, v));
        }
        out.add(Arguments.of("time series", Charts.timeSeries("q", "Queue", "queue (KB)", series, 1e-3, n -> n), List.of(), false, false));
        Map<String, double[]> narrow = new LinkedHashMap<>();
        Map<String, double[]> wide = new LinkedHashMap<>();
        for (String s : List.of("ecmp", "ofan")) {
            narrow.put(s, rnd.doubles(300, 20, 60).toArray());
            wide.put(s, rnd.doubles(300, 0, 5).map(e -> Math.pow(10, e)).toArray());
        }
        out.add(Arguments.of("linear CDF", Charts.cdf("c", "FCT", "FCT (\u00b5s)", narrow, false), List.of(), false, false));
        out.add(Arguments.of("log CDF (automatic: 5 decades)", Charts.cdf("c", "FCT", "FCT (\u00b5s)", wide, false), List.of(), true, false));
        out.add(Arguments.of("log CDF within a decade", Charts.cdf("c", "FCT", "FCT (\u00b5s)", narrow, true), List.of(), true, false));
        out.add(Arguments.of("out-of-order CDF (categories)", Charts.outOfOrderCdf("o", "Reordering", new long[] {900, 30, 40, 20, 10, 3, 1}),
                List.of("0", "1", "3", "7", "15", "31", "63"), false, false));

        List<Grouped.Row> bars = new ArrayList<>();
        for (String s : SCHEMES) {
            for (String w : List.of("all-to-all", "permutation")) {
                for (int seed = 1; seed <= 3; seed++) {
                    bars.add(new Grouped.Row(s, w, 5 + s.length() + seed + (w.startsWith("p") ? 20 : 0)));
                }
            }
        }
        out.add(Arguments.of("grouped bars, 8 schemes", Charts.grouped("b", Grouped.ofColumn("loadBalancing.type", "CCT increase (%)", bars, false),
                Charts.GroupedOptions.of("CCT increase")), SCHEMES_SHOWN, false, false));
        List<Grouped.Row> spread = bars.stream().map(r -> new Grouped.Row(r.x(), r.group(), Math.pow(10, r.y() / 10))).toList();
        out.add(Arguments.of("categories on a log y (automatic)", Charts.grouped("b", Grouped.ofColumn("loadBalancing.type", "y", spread, false),
                Charts.GroupedOptions.of("y").withLog(false, null)), SCHEMES_SHOWN, false, true));
        List<Grouped.Row> sizes = new ArrayList<>();
        for (long b : new long[] {2 << 20, 8 << 20}) {
            for (String s : SCHEMES) {
                sizes.add(new Grouped.Row(b, s, b / 1e6 + s.length()));
                sizes.add(new Grouped.Row(b, s, b / 1e6 + s.length() + 1));
            }
        }
        out.add(Arguments.of("message sizes as categories", Charts.grouped("m", Grouped.ofColumn("workload.messageBytes", "CCT increase (%)", sizes, true),
                Charts.GroupedOptions.of("CCT")), List.of("2 MiB", "8 MiB"), false, false));
        out.add(Arguments.of("message sizes on a log x within a decade", Charts.grouped("m",
                Grouped.ofColumn("workload.messageBytes", "CCT increase (%)", sizes, false), Charts.GroupedOptions.of("CCT").withLog(true, null)),
                List.of(), true, false));
        List<Grouped.Row> power = new ArrayList<>();
        for (long b = 1024; b <= 1L << 30; b *= 4) {
            for (String s : List.of("ecmp", "ofan")) {
                for (int seed = 0; seed < 4; seed++) {
                    power.add(new Grouped.Row(b, s, Math.min(800, Math.sqrt(b) * (s.equals("ecmp") ? 1 : 0.1) * (1 + 0.01 * seed))));
                }
            }
        }
        out.add(Arguments.of("log-log with fits and a cap", Charts.grouped("p", Grouped.ofColumn("workload.messageBytes", "largest queue (KB)", power, false),
                Charts.GroupedOptions.of("queue").withLog(true, true).withFit(true).withCap(800, "buffer cap (800 KB)")), List.of(), true, true));
        List<Grouped.Row> seeds = new ArrayList<>();
        for (int seed = 1; seed <= 3; seed++) {
            seeds.add(new Grouped.Row((long) seed, "", 10.0 + seed));
        }
        out.add(Arguments.of("integer x (seeds)", Charts.grouped("s", Grouped.ofColumn("seed", "CCT (\u00b5s)", seeds, false), Charts.GroupedOptions.of("s")),
                List.of(), false, false));
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("figures")
    void every_axis_has_tick_labels_drawn_as_text_and_every_category_appears(String name, Figure f, List<String> categories, boolean logX,
                                                                           boolean logY) throws Exception {
        assertThat(f).as(name).isNotNull();
        Document svg = FiguresTest.xml(f.svg());
        List<String> texts = new ArrayList<>();
        NodeList nodes = svg.getElementsByTagName("text");
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        Rectangle2D area = f.layout().getPlotInfo().getDataArea();
        Graphics2D g2 = new BufferedImage(f.width(), f.height(), BufferedImage.TYPE_INT_RGB).createGraphics();
        List<String> xLabels;
        List<String> yLabels;
        if (f.chart().getPlot() instanceof XYPlot p) {
            xLabels = valueTicks(p.getDomainAxis(), g2, area, p.getDomainAxisEdge());
            yLabels = valueTicks(p.getRangeAxis(), g2, area, p.getRangeAxisEdge());
            assertThat(p.getDomainAxis() instanceof LogAxis).as("log x").isEqualTo(logX);
            assertThat(p.getRangeAxis() instanceof LogAxis).as("log y").isEqualTo(logY);
        } else {
            CategoryPlot p = (CategoryPlot) f.chart().getPlot();
            xLabels = categoryTicks(p.getDomainAxis(), g2, area, p.getDomainAxisEdge());
            yLabels = valueTicks(p.getRangeAxis(), g2, area, p.getRangeAxisEdge());
            assertThat(p.getRangeAxis() instanceof LogAxis).as("log y").isEqualTo(logY);
        }
        assertThat(xLabels).as("x tick labels of " + name).hasSizeGreaterThanOrEqualTo(2).allMatch(l -> !l.isBlank());
        assertThat(yLabels).as("y tick labels of " + name).hasSizeGreaterThanOrEqualTo(3).allMatch(l -> !l.isBlank());
        List<String> drawn = texts.stream().map(String::strip).toList();
        // a category label may be wrapped: each of its lines is one <text>
        assertThat(drawn).as("x tick labels drawn as <text>").containsAll(xLabels.stream().flatMap(String::lines).toList());
        assertThat(texts).as("y tick labels drawn as <text>").containsAll(yLabels);
        if (!categories.isEmpty()) {
            assertThat(xLabels.stream().map(l -> l.replace('\n', ' ')).toList()).as("every category on the axis, in order")
                    .containsExactlyElementsOf(categories);
        }
        if (logX) {
            assertThat(xLabels).as("a log x axis has at least 3 labels").hasSizeGreaterThanOrEqualTo(3);
        }
    }

    /**
     * At a small size (500 x 300, two report figures side by side in a paper column) the title and
     * both axis titles are whole: the y title fits the plot's height (set smaller, or written above
     * the plot), the x title its width, and the plot keeps a height of its own below the title.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("small")
    void titles_are_never_clipped_at_500_by_300(String name, Figure f) {
        Graphics2D g2 = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        Rectangle2D area = f.layout().getPlotInfo().getDataArea();
        org.jfree.chart.axis.Axis x;
        org.jfree.chart.axis.Axis y;
        if (f.chart().getPlot() instanceof XYPlot p) {
            x = p.getDomainAxis();
            y = p.getRangeAxis();
        } else {
            x = ((CategoryPlot) f.chart().getPlot()).getDomainAxis();
            y = ((CategoryPlot) f.chart().getPlot()).getRangeAxis();
        }
        assertThat(area.getHeight()).as("the plot keeps a height of its own").isGreaterThan(60);
        assertThat(area.getMinY()).as("the plot starts below the title").isGreaterThan(15);
        assertThat(g2.getFontMetrics(x.getLabelFont()).stringWidth(x.getLabel())).as("x title within the plot's width").isLessThanOrEqualTo((int) area.getWidth());
        if (y.getLabel() != null) {
            assertThat(g2.getFontMetrics(y.getLabelFont()).stringWidth(y.getLabel())).as("y title within the plot's height")
                    .isLessThanOrEqualTo((int) area.getHeight());
        } else {
            assertThat(f.chart().getSubtitles()).as("the y title above the plot").anyMatch(t -> t instanceof org.jfree.chart.title.TextTitle tt
                    && tt.getText().contains("CCT increase over the lower bound (%)"));
        }
    }

    /** Points named at length, as a sweep's points may be: each category label several words and up to 36 characters. */
    static final List<String> LONG_NAMES = List.of("ECMP, one path per flow", "HOST FLOWLET AR, PLB-like repathing",
            "HOST PKT, fresh entropy per packet", "SWITCH PKT, shared pointer", "SWITCH PKT AR, quantized queue bins",
            "OFAN, weighted spraying with erasure");

    /**
     * Long point names on the category axis, at a report's small size and at the default: every label is drawn whole (its
     * lines give back the name, no "..."), no line is wider than its category's share of the plot (so no label reaches
     * into its neighbour's), and the labels leave the plot at least 40 % of the figure's height.
     */
    @ParameterizedTest(name = "{0} x {1}")
    @org.junit.jupiter.params.provider.CsvSource({"500, 300", "800, 460"})
    void long_category_labels_are_wrapped_whole_within_their_category(int width, int height) {
        java.util.Random rnd = new java.util.Random(7);
        List<Grouped.Row> rows = new ArrayList<>();
        for (String n : LONG_NAMES) {
            for (int seed = 0; seed < 2; seed++) {
                rows.add(new Grouped.Row(n, "", 5 + 150 * rnd.nextDouble()));
            }
        }
        Figure f = Charts.grouped("b", Grouped.ofColumn("scenario_name", "CCT increase over the lower bound (%)", rows, false),
                Charts.GroupedOptions.of("CCT increase over the lower bound (%) by scenario").withSize(width, height));
        CategoryPlot p = (CategoryPlot) f.chart().getPlot();
        Rectangle2D area = f.layout().getPlotInfo().getDataArea();
        Graphics2D g2 = new BufferedImage(f.width(), f.height(), BufferedImage.TYPE_INT_RGB).createGraphics();
        double slot = area.getWidth() / LONG_NAMES.size();
        List<String> whole = new ArrayList<>();
        for (Object t : p.getDomainAxis().refreshTicks(g2, new AxisState(), area, p.getDomainAxisEdge())) {
            StringBuilder joined = new StringBuilder();
            for (Object l : ((CategoryTick) t).getLabel().getLines()) {
                org.jfree.chart.text.TextFragment fragment = ((TextLine) l).getFirstTextFragment();
                String line = fragment.getText().strip();
                assertThat((double) g2.getFontMetrics(fragment.getFont()).stringWidth(line)).as("'" + line + "' within its category (" + slot + " px)")
                        .isLessThanOrEqualTo(slot);
                joined.append(line.replace(" ", ""));
            }
            whole.add(joined.toString());
        }
        assertThat(whole).as("every label whole, in order").containsExactlyElementsOf(LONG_NAMES.stream().map(n -> n.replace(" ", "")).toList())
                .noneMatch(l -> l.contains("..."));
        assertThat(p.getDomainAxis().getCategoryLabelPositions()).as("side by side, not rotated")
                .isEqualTo(org.jfree.chart.axis.CategoryLabelPositions.STANDARD);
        assertThat(area.getHeight()).as("the labels leave the plot a good part of the figure's height").isGreaterThanOrEqualTo(0.4 * height);
    }

    static Stream<Arguments> small() {
        List<Arguments> out = new ArrayList<>();
        String[] names = {"ECMP", "HOST PKT", "SWITCH PKT, shared pointer", "SWITCH PKT, per-class pointers"};
        java.util.Random rnd = new java.util.Random(3);
        List<Grouped.Row> rows = new ArrayList<>();
        for (String n : names) {
            for (String size : List.of("256 KiB", "1 MiB")) {
                for (int seed = 0; seed < 3; seed++) {
                    rows.add(new Grouped.Row(n, size, 5 + 600 * rnd.nextDouble()));
                }
            }
        }
        String long_ = "CCT increase over the lower bound (%)";
        out.add(Arguments.of("bars of named points", Charts.grouped("b", Grouped.ofColumn("scenario_name", long_, rows, false),
                Charts.GroupedOptions.of("stats: CCT increase over the lower bound by scenario and message size").withSize(500, 300))));
        out.add(Arguments.of("points on a log axis", Charts.grouped("b", Grouped.ofColumn("scenario_name", long_, rows, false),
                Charts.GroupedOptions.of("stats: CCT increase over the lower bound by scenario and message size").withLog(false, true)
                        .withSize(500, 300))));
        List<Grouped.Row> sizes = new ArrayList<>();
        for (long b : new long[] {1 << 18, 1 << 20, 1 << 22}) {
            for (int seed = 0; seed < 2; seed++) {
                sizes.add(new Grouped.Row(b, "ecmp", 100 + b / 1e4 + seed));
            }
        }
        out.add(Arguments.of("lines over message size", Charts.grouped("l", Grouped.ofColumn("workload.messageBytes", "largest switch queue (KB)",
                sizes, false), Charts.GroupedOptions.of("largest switch queue (KB) by message size and scheme").withLog(true, null).withSize(500, 300))));
        out.add(Arguments.of("FCT CDF", Charts.cdf("c", "Flow completion time by scheme (256 KiB)", "FCT (\u00b5s)",
                Map.of("ecmp", rnd.doubles(100, 5, 50).toArray()), true, new Charts.Size(500, 300))));
        return out.stream();
    }

    private static List<String> valueTicks(ValueAxis a, Graphics2D g2, Rectangle2D area, RectangleEdge edge) {
        List<String> out = new ArrayList<>();
        for (Object t : a.refreshTicks(g2, new AxisState(), area, edge)) {
            String text = ((ValueTick) t).getText();
            if (text != null && !text.isEmpty()) {
                out.add(text);
            }
        }
        return out;
    }

    private static List<String> categoryTicks(CategoryAxis a, Graphics2D g2, Rectangle2D area, RectangleEdge edge) {
        List<String> out = new ArrayList<>();
        for (Object t : a.refreshTicks(g2, new AxisState(), area, edge)) {
            StringBuilder sb = new StringBuilder();
            for (Object line : ((CategoryTick) t).getLabel().getLines()) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(((TextLine) line).getFirstTextFragment().getText().strip());
            }
            out.add(sb.toString());
        }
        return out;
    }
}
