package org.lbsim.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.TimeSeries;
import org.w3c.dom.Document;

/** Every kind of figure as PNG and SVG: files written, PNG decodes, SVG is XML and stays small. */
class FiguresTest {
    @TempDir
    Path dir;

    /** Parses without ever fetching the DTD the SVG names. */
    static Document xml(String text) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    static BufferedImage png(byte[] bytes) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(bytes));
        assertThat(img).as("PNG decodes").isNotNull();
        return img;
    }

    private static List<TimeSeries> longSeries(int n, int count) {
        List<TimeSeries> out = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            long[] t = new long[n];
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                t[i] = i * 1_000_000L;
                v[i] = 400_000 * Math.abs(Math.sin(i / 3000.0 + s)) + (i * 7919L % 1000) * 20;
            }
            out.add(new TimeSeries("queue.max L" + s, "bytes", t, v));
        }
        return out;
    }

    /** One unnamed series: the static figure draws no legend, and the interactive one names the series by the y title, not "mean". */
    @Test
    void the_one_series_of_a_figure_without_a_legend_is_named_by_its_y_title() {
        List<Grouped.Row> rows = List.of(new Grouped.Row("ecmp", "", 20.0), new Grouped.Row("ofan", "", 1.0));
        Figure f = Charts.grouped("cct", Grouped.of("loadBalancing.type", "CCT increase (%)", rows), Charts.GroupedOptions.of("cct"));
        assertThat(f.chart().getLegend() == null || !f.chart().getLegend().isVisible()).as("no legend on the static figure").isTrue();
        assertThat(f.csv()).contains("\nmean,ecmp,");
        assertThat(f.spec().legend()).containsExactly(java.util.Map.entry("mean", "CCT increase (%)"));
        List<Grouped.Row> two = List.of(new Grouped.Row("ecmp", "a", 20.0), new Grouped.Row("ofan", "b", 1.0));
        assertThat(Charts.grouped("cct", Grouped.of("loadBalancing.type", "CCT increase (%)", two), Charts.GroupedOptions.of("cct")).spec().legend())
                .as("named series keep their names").isEmpty();
    }

    @Test
    void a_time_series_of_100k_points_gives_a_small_valid_svg_and_a_png() throws Exception {
        Figure f = Charts.timeSeries("q", "Queue depth", "queue (KB)", longSeries(100_000, 1), 1e-3, n -> n);
        Path svg = dir.resolve("plots/q.svg");
        Path pngFile = dir.resolve("plots/q.png");
        f.save(svg);
        f.save(pngFile);
        String text = Files.readString(svg);
        assertThat(text.length()).as("SVG bytes for one 100k-point series").isLessThan(150_000);
        Document d = xml(text);
        assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(d.getDocumentElement().getAttribute("viewBox")).isEqualTo("0 0 800 460");
        // a series is one <path>; <line> elements are the axes, ticks and grid lines only
        assertThat(PlotLines.count(text, "<line ")).as("<line> elements").isLessThan(80);
        assertThat(text).doesNotContainPattern("[ML]-?\\d+\\.\\d{3,}");
        BufferedImage img = png(Files.readAllBytes(pngFile));
        assertThat(img.getWidth()).isEqualTo(800);
        assertThat(img.getHeight()).isEqualTo(460);
        assertThat(f.svg()).as("same figure, same bytes").isEqualTo(text);
    }

    @Test
    void six_long_series_stay_below_half_a_megabyte() {
        Figure f = Charts.timeSeries("q", "Queue depth", "queue (KB)", longSeries(100_000, 6), 1e-3, n -> n);
        assertThat(f.svg().length()).isLessThan(500_000);
    }

    @Test
    void cdfs_of_fct_queue_and_reordering_render() throws Exception {
        Map<String, double[]> samples = new LinkedHashMap<>();
        samples.put("E->A", new java.util.Random(1).doubles(50_000, 0, 800).toArray());
        samples.put("A->C", new java.util.Random(2).doubles(50_000, 0, 300).toArray());
        samples.put("empty", new double[0]);
        Figure q = Charts.cdf("queue-cdf", "Queue depth", "queue (KB)", samples, false);
        assertThat(Charts.legend(q)).contains("E->A", "A->C").doesNotContain("empty");
        Figure o = Charts.outOfOrderCdf("ooo", "Reordering", new long[] {900, 30, 40, 20, 10});
        Figure single = Charts.outOfOrderCdf("ooo", "Reordering", new long[] {900});
        for (Figure f : List.of(q, o, single)) {
            assertThat(png(f.png()).getWidth()).isEqualTo(800);
            xml(f.svg());
        }
        assertThat(Charts.outOfOrderCdf("x", "x", new long[0])).isNull();
        assertThat(Charts.cdf("x", "x", "x", Map.of("a", new double[0]), false)).isNull();
    }

    @Test
    void grouped_figures_draw_categories_numbers_error_bars_and_fits() throws Exception {
        List<Grouped.Row> rows = new ArrayList<>();
        for (String scheme : List.of("ecmp", "ofan")) {
            for (double size = 1024; size <= 1 << 24; size *= 4) {
                for (int seed = 0; seed < 3; seed++) {
                    double slope = scheme.equals("ecmp") ? 0.5 : 0.25;
                    rows.add(new Grouped.Row((long) size, scheme, 2 * Math.pow(size, slope) * (1 + 0.002 * seed)));
                }
            }
        }
        Grouped g = Grouped.of("message size", "max queue (KB)", rows);
        assertThat(g.numericX()).isTrue();
        assertThat(g.maxRunsPerPoint()).isEqualTo(3);
        Figure f = Charts.grouped("q", g, Charts.GroupedOptions.of("queue").withLog(true, true).withFit(true));
        assertThat(Charts.legend(f)).containsExactly("ecmp (slope 0.50)", "ofan (slope 0.25)");
        xml(f.svg());
        png(f.png());

        List<Grouped.Row> cats = new ArrayList<>();
        for (String scheme : List.of("ecmp", "host-spray", "ofan")) {
            for (int seed = 0; seed < 4; seed++) {
                cats.add(new Grouped.Row(scheme, "", 10 + scheme.length() + seed));
            }
        }
        Grouped c = Grouped.of("loadBalancing.type", "CCT increase (%)", cats);
        assertThat(c.numericX()).isFalse();
        assertThat(c.categories()).containsExactly("ecmp", "host-spray", "ofan");
        Grouped.Cell first = c.groups().get("").get(0);
        assertThat(first.y().mean()).isEqualTo(15.5);
        assertThat(first.y().min()).isEqualTo(14);
        assertThat(first.y().max()).isEqualTo(17);
        for (Charts.ErrorBars e : Charts.ErrorBars.values()) {
            Figure cf = Charts.grouped("cct", c, Charts.GroupedOptions.of("cct").withErrorBars(e).withSize(640, 400));
            assertThat(png(cf.png()).getWidth()).isEqualTo(640);
            xml(cf.svg());
        }
        assertThat(Charts.grouped("x", Grouped.of("x", "y", List.of()), Charts.GroupedOptions.of("x"))).isNull();
    }

    /**
     * Categories on a log y axis: points, not bars (a bar's length means nothing there), each with
     * its interval. Two runs a point: the whisker spans the two runs, no t interval (with n = 2 its
     * factor 12.7 would reach far below 0). The axis spans the means and the interval ends; an
     * interval end at or below 0 (three runs, no floor given) sits at the axis bottom.
     */
    @Test
    void categories_on_a_log_axis_are_points_with_their_intervals() {
        List<Grouped.Row> rows = new ArrayList<>();
        for (String scheme : List.of("ecmp", "ofan")) {
            rows.add(new Grouped.Row(scheme, "", scheme.equals("ecmp") ? 200.0 : 0.5));
            rows.add(new Grouped.Row(scheme, "", scheme.equals("ecmp") ? 1800.0 : 0.6));
        }
        Figure f = Charts.grouped("cct", Grouped.of("loadBalancing.type", "CCT increase (%)", rows), Charts.GroupedOptions.of("cct").withLog(false, null));
        org.jfree.chart.plot.CategoryPlot plot = (org.jfree.chart.plot.CategoryPlot) f.chart().getPlot();
        assertThat(plot.getRenderer()).isInstanceOf(CategoryIntervals.Points.class);
        assertThat(f.spec().kind()).isEqualTo(Figure.Kind.POINTS);
        org.jfree.chart.axis.ValueAxis y = plot.getRangeAxis();
        assertThat(y).isInstanceOf(LabelledLogAxis.class);
        assertThat(f.csv()).contains("\nmean,ecmp,2,1000,200,1800,range,").containsPattern("\nmean,ofan,2,0\\.55[0-9]*,0\\.5,0\\.6,range,");
        assertThat(f.caption()).contains("n = 2", "the runs themselves (min\u2013max)").doesNotContain("confidence interval of the mean");
        assertThat(y.getLowerBound()).as("lower bound: ofan's smaller run over 1.5").isCloseTo(0.5 / 1.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(y.getUpperBound()).as("upper bound: ecmp's larger run times 1.5").isCloseTo(1800 * 1.5, org.assertj.core.api.Assertions.within(1e-6));
        java.awt.geom.Rectangle2D area = new java.awt.geom.Rectangle2D.Double(0, 0, 100, 300);
        assertThat(y.valueToJava2D(-500, area, org.jfree.chart.ui.RectangleEdge.LEFT)).as("a value below 0 sits at the axis bottom")
                .isEqualTo(y.valueToJava2D(y.getLowerBound(), area, org.jfree.chart.ui.RectangleEdge.LEFT)).isEqualTo(300.0);
        Figure linear = Charts.grouped("cct", Grouped.of("loadBalancing.type", "CCT increase (%)", rows), Charts.GroupedOptions.of("cct"));
        assertThat(((org.jfree.chart.plot.CategoryPlot) linear.chart().getPlot()).getRenderer()).as("bars on a linear axis")
                .isInstanceOf(CategoryIntervals.Bars.class);
    }

    @Test
    void the_file_extension_picks_the_format() {
        assertThat(Figure.Format.of(Path.of("a.PNG"))).isEqualTo(Figure.Format.PNG);
        assertThat(Figure.Format.of(Path.of("a.svg"))).isEqualTo(Figure.Format.SVG);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Figure.Format.of(Path.of("a.pdf")))
                .hasMessage("the file name must end in .png or .svg, got a.pdf");
    }

    /** Occurrences of a string. */
    static final class PlotLines {
        static int count(String text, String what) {
            int n = 0;
            for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
                n++;
            }
            return n;
        }
    }

    @Test
    void svg_has_real_text_and_inline_svg_has_prefixed_ids_and_the_same_figure_gives_the_same_bytes() throws Exception {
        Figure f = Charts.cdf("fct", "Flow completion time", "FCT (\u00b5s)", Map.of("ecmp", new double[] {1, 2, 3, 5, 8}), false);
        String svg = f.svg();
        Document d = xml(svg);
        assertThat(d.getElementsByTagName("text").getLength()).as("<text> elements").isGreaterThan(5);
        assertThat(svg).contains(">Flow completion time</text>", ">FCT (\u00b5s)</text>");
        assertThat(f.svg()).isEqualTo(svg);
        String inline = f.svgElement("f7-");
        assertThat(inline).startsWith("<svg ").doesNotContain("<?xml").contains("viewBox='0 0 800 460'", "width:100%", "id='f7-svg'", "clip-path='url(#f7-clip-0)'");
        xml(inline);
        assertThat(f.csv()).startsWith("series,FCT (\u00b5s),fraction_at_most_x\n").contains("\necmp,8,1\n");
    }

    @Test
    void a_fit_needs_four_x_values_and_values_at_the_cap_are_marked_and_left_out() {
        List<Grouped.Row> rows = new ArrayList<>();
        double[] sizes = {1, 2, 4, 8, 16, 32};
        for (double s : sizes) {
            rows.add(new Grouped.Row(s, "few", 10 * s));
            rows.add(new Grouped.Row(s, "capped", Math.min(100, 10 * s)));
        }
        for (double s : sizes) {
            rows.add(new Grouped.Row(s, "full", 100.0)); // every value at the cap: nothing to fit, and the legend says why
        }
        rows.add(new Grouped.Row(64.0, "three", 1.0));
        rows.add(new Grouped.Row(128.0, "three", 2.0));
        rows.add(new Grouped.Row(256.0, "three", 4.0));
        Figure f = Charts.grouped("q", Grouped.of("size", "queue (KB)", rows),
                Charts.GroupedOptions.of("q").withLog(true, true).withFit(true).withCap(100, "buffer cap"));
        // "capped" reaches 100 from x = 16 on: the fit uses x = 1, 2, 4, 8 (slope 1), "three" has only 3 sizes
        assertThat(Charts.legend(f)).containsExactly("few (slope 1.00)", "capped (slope 1.00)", "full", "three");
        assertThat(f.caption()).contains("not fitted: full (every value at the cap), three (3 x values below the cap)");
        var plot = (org.jfree.chart.plot.XYPlot) f.chart().getPlot();
        assertThat(plot.getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND)).hasSize(1);
        assertThat(f.svg()).contains(">buffer cap</text>");
        assertThat(f.caption()).contains("cap", "One run per point (n = 1, no interval)").doesNotContain("95 %");
        Figure below = Charts.grouped("q", Grouped.of("size", "queue (KB)", rows.subList(0, 4)),
                Charts.GroupedOptions.of("q").withCap(1000, "buffer cap"));
        assertThat(((org.jfree.chart.plot.XYPlot) below.chart().getPlot()).getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND)).isNull();
    }
}
