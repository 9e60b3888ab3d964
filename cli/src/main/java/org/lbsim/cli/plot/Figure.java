package org.lbsim.cli.plot;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** One chart, written as PNG (anti-aliased bitmap) or SVG (vector; long series are downsampled before they get here). */
public final class Figure {
    private final String name;
    private final Chart<?, ?> chart;

    Figure(String name, Chart<?, ?> chart) {
        this.name = name;
        this.chart = chart;
    }

    /** A short file-name-safe identifier, such as {@code fct-cdf}. */
    public String name() {
        return name;
    }

    public String title() {
        return chart.getTitle();
    }

    public Chart<?, ?> chart() {
        return chart;
    }

    public byte[] png() {
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SVG document (UTF-8 text, with its XML declaration), compacted by {@link Svg#compact}. */
    public String svg() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Svg.compact(out.toString(StandardCharsets.UTF_8));
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
