package org.lbsim.cli.plot;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/**
 * One chart with the data behind it, written as PNG (anti-aliased bitmap), SVG (vector, text as
 * real {@code <text>} elements through JFreeSVG) and CSV (the numbers drawn). Long series are
 * downsampled before they get here.
 */
public final class Figure {
    private final String name;
    private final JFreeChart chart;
    private final int width;
    private final int height;
    private final String caption;
    private final String csv;
    private final Spec spec;
    private final String xAxisTitle;
    private final String yAxisTitle;
    private final boolean yTitleAbove;

    Figure(String name, JFreeChart chart, int width, int height, String caption, String csv, Spec spec) {
        this.name = name;
        this.chart = chart;
        this.width = width;
        this.height = height;
        this.caption = caption;
        this.csv = csv;
        this.spec = spec;
        Charts.fitCategoryLabels(chart, width, height);
        org.jfree.chart.axis.Axis[] axes = Charts.axes(chart);
        String yAsGiven = axes.length == 0 ? null : axes[1].getLabel();
        Charts.fitAxisTitles(chart, width, height);
        this.xAxisTitle = axes.length == 0 || axes[0].getLabel() == null ? "" : axes[0].getLabel();
        this.yTitleAbove = yAsGiven != null && !yAsGiven.isEmpty() && axes[1].getLabel() == null;
        this.yAxisTitle = yTitleAbove ? yAsGiven : axes.length == 0 || axes[1].getLabel() == null ? "" : axes[1].getLabel();
    }

    /** The x axis' title as the chart draws it ("(log scale)" included); "" when it has none. */
    public String xAxisTitle() {
        return xAxisTitle;
    }

    /** The y axis' title as the chart draws it ("(log scale)" included), beside the axis or, see {@link #yTitleAbove()}, above the plot. */
    public String yAxisTitle() {
        return yAxisTitle;
    }

    /** Whether the y title is too long for the plot's height at the smallest title font, and so written above the plot. */
    public boolean yTitleAbove() {
        return yTitleAbove;
    }

    /** How a figure is drawn. */
    public enum Kind {
        /** straight lines between the points */
        LINE,
        /** lines with a marker at each point (means of a sweep) */
        LINE_POINTS,
        /** a step function, flat up to the next point (an empirical CDF) */
        STEP,
        /** grouped bars, one per series in each category */
        BARS,
        /** markers side by side in each category, no bars and no lines (categories on a log y axis) */
        POINTS
    }

    /**
     * How the CSV behind a figure is drawn, so a page can draw it again from that CSV alone (the
     * interactive figures of {@code lbsim report --interactive}): which columns hold the series
     * name (null: one series), x, y and the error bar ends (null: none), the axes and the
     * categories in order (empty: numeric x). {@code capY} NaN: no cap marked. {@code legend}: a
     * series' legend entry where it is not its name (a fitted slope; the y title for the one series of
     * a figure drawn without a legend); {@code fits}: per series the
     * power law drawn dashed over it.
     */
    public record Spec(String title, Kind kind, String seriesColumn, String xColumn, String yColumn, String lowColumn, String highColumn,
                       String xTitle, String yTitle, boolean logX, boolean logY, java.util.List<String> categories, double capY,
                       String capLabel, java.util.Map<String, String> legend, java.util.Map<String, Fit> fits) {
        /** A spec without error bars, categories or cap. */
        static Spec of(String title, Kind kind, String seriesColumn, String xColumn, String yColumn, String xTitle, String yTitle,
                       boolean logX, boolean logY) {
            return new Spec(title, kind, seriesColumn, xColumn, yColumn, null, null, xTitle, yTitle, logX, logY, java.util.List.of(),
                    Double.NaN, "", java.util.Map.of(), java.util.Map.of());
        }

        /** y = prefactor * x^slope, drawn from fromX to toX. */
        public record Fit(double prefactor, double slope, double fromX, double toX) {
        }

        /** Whether x is a category axis. */
        public boolean categorical() {
            return !categories.isEmpty();
        }
    }

    /** A short file-name-safe identifier, such as {@code fct-cdf}. */
    public String name() {
        return name;
    }

    public String title() {
        return chart.getTitle() == null ? "" : chart.getTitle().getText();
    }

    /** What the marks and bars show ("" when the figure needs no explanation); also drawn under the figure. */
    public String caption() {
        return caption;
    }

    /** The data drawn, as CSV with a header line. */
    public String csv() {
        return csv;
    }

    /** How {@link #csv()} is drawn: columns, chart kind, axes. */
    public Spec spec() {
        return spec;
    }

    public JFreeChart chart() {
        return chart;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public byte[] png() {
        BufferedImage img = chart.createBufferedImage(width, height);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private SVGGraphics2D draw(String idPrefix, ChartRenderingInfo info) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix(idPrefix); // ids from the prefix and a counter: same figure, same bytes
        g.setGeomDoubleConverter(Figure::hundredths);
        chart.draw(g, new Rectangle(0, 0, width, height), info);
        return g;
    }

    /** The SVG document (UTF-8 text with its XML declaration); coordinates to a hundredth of a pixel. */
    public String svg() {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + draw(name + "-", null).getSVGElement(null, true,
                new ViewBox(0, 0, width, height), null, null) + "\n";
    }

    /**
     * An {@code <svg>} element to paste into an HTML page: no XML declaration, ids prefixed so
     * several figures on one page do not clash, and a width that follows the page (the viewBox
     * keeps the aspect ratio).
     */
    public String svgElement(String idPrefix) {
        String s = draw(idPrefix, null).getSVGElement(idPrefix + "svg", false, new ViewBox(0, 0, width, height), null, null);
        return s.replaceFirst("<svg ", "<svg style=\"width:100%;height:auto\" role=\"img\" ");
    }

    /** Renders once and returns where the plot area ended up: for tests of axes and labels. */
    ChartRenderingInfo layout() {
        ChartRenderingInfo info = new ChartRenderingInfo();
        draw("layout-", info);
        return info;
    }

    private static String hundredths(double v) {
        long h = Math.round(v * 100);
        if (h == 0) {
            return "0";
        }
        String sign = h < 0 ? "-" : "";
        long a = Math.abs(h);
        long whole = a / 100;
        long frac = a % 100;
        if (frac == 0) {
            return sign + whole;
        }
        return sign + whole + (frac % 10 == 0 ? "." + frac / 10 : (frac < 10 ? ".0" : ".") + frac);
    }

    /** Writes {@code .png} or {@code .svg} by the file's extension (creating parent folders). */
    public void save(Path file) throws IOException {
        Format format = Format.of(file);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (format == Format.SVG) {
            Files.writeString(file, svg(), StandardCharsets.UTF_8);
        } else {
            Files.write(file, png());
        }
    }

    /** The file of the data next to a figure file: {@code q.png} -> {@code q.csv}. */
    /**
     * Whether a file holds a figure's data as lbsim writes it ({@link Charts}): its first line is one of the
     * headers lbsim's figures have (series and time_us, series and fraction_at_most_x, degree_at_most and
     * fraction_of_arrivals, group ... runs,mean,low,high,interval,stddev,min,max, or as earlier versions wrote it
     * group ... runs,mean,ci95_low,ci95_high,stddev,min,max). Such a file may be replaced
     * by the data of a new figure of the same name; any other file may not.
     */
    public static boolean isFigureData(Path file) {
        String first;
        try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            char[] head = new char[4096];
            int n = r.read(head);
            String text = n <= 0 ? "" : new String(head, 0, n);
            int end = text.indexOf('\n');
            if (end < 0) {
                return false;
            }
            first = text.substring(0, end);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return first.startsWith("series,time_us,") || first.startsWith("series,") && first.endsWith(",fraction_at_most_x")
                || first.equals("degree_at_most,fraction_of_arrivals")
                || first.startsWith("group,") && (first.endsWith(",runs,mean,low,high,interval,stddev,min,max")
                        || first.endsWith(",runs,mean,ci95_low,ci95_high,stddev,min,max"));
    }

    public static Path csvBeside(Path figureFile) {
        String n = figureFile.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return figureFile.resolveSibling((dot < 0 ? n : n.substring(0, dot)) + ".csv");
    }

    /** The two file formats. */
    public enum Format {
        PNG, SVG;

        public String extension() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** By extension; anything else is an {@link IllegalArgumentException} naming the allowed ones. */
        public static Format of(Path file) {
            String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (n.endsWith(".png")) {
                return PNG;
            }
            if (n.endsWith(".svg")) {
                return SVG;
            }
            throw new IllegalArgumentException("the file name must end in .png or .svg, got " + file.getFileName());
        }
    }
}
