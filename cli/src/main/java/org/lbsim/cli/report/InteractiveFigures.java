package org.lbsim.cli.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.lbsim.cli.plot.Figure;

/**
 * What {@code lbsim report --interactive} puts into a page: uPlot (the webjar
 * {@code org.webjars.npm:uplot}, MIT, ~50 KB minified) and its stylesheet inlined, lbsim's
 * figures.js that draws each figure again from the CSV embedded beside it, and a
 * Content-Security-Policy that allows exactly these two scripts (by their SHA-256) and nothing else.
 */
final class InteractiveFigures {
    private static final String WEBJAR = "META-INF/resources/webjars/uplot/";
    private static final String POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** uPlot's version (from the webjar's pom.properties). */
    final String version;
    /** The library, its MIT licence first as a comment (the licence asks for it in every copy). */
    final String library;
    final String libraryCss;
    final String figuresJs;

    private InteractiveFigures() {
        Properties p = new Properties();
        try (InputStream in = resource(POM)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        version = p.getProperty("version");
        String dir = WEBJAR + version + "/";
        String licence = text(dir + "LICENSE").replace("*/", "* /");
        library = "/*! uPlot " + version + " (https://github.com/leeoniya/uPlot), inlined by lbsim report --interactive.\n" + licence + "*/\n"
                + text(dir + "dist/uPlot.iife.min.js");
        libraryCss = text(dir + "dist/uPlot.min.css");
        figuresJs = text("org/lbsim/cli/report/figures.js");
    }

    private static final class Holder {
        static final InteractiveFigures INSTANCE = new InteractiveFigures();
    }

    static InteractiveFigures get() {
        return Holder.INSTANCE;
    }

    private static InputStream resource(String name) {
        InputStream in = InteractiveFigures.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("resource " + name + " is not on the class path (the uPlot webjar is a dependency of lbsim-cli)");
        }
        return in;
    }

    private static String text(String name) {
        try (InputStream in = resource(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CSP source of an inline script: its SHA-256, base64. */
    static String hash(String script) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code script-src} with the hashes of the two inline scripts. */
    String scriptSrc() {
        return "script-src " + hash(library) + " " + hash(figuresJs);
    }

    /**
     * The spec of a figure as the JSON figures.js reads (data-chart attribute), with the axis titles as the
     * static figure draws them: figures.js writes them as given, so both figures carry the same titles.
     */
    static String specJson(Figure f) {
        Figure.Spec s = f.spec();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", s.title());
        m.put("kind", s.kind().name());
        m.put("seriesColumn", s.seriesColumn());
        m.put("xColumn", s.xColumn());
        m.put("yColumn", s.yColumn());
        m.put("lowColumn", s.lowColumn());
        m.put("highColumn", s.highColumn());
        m.put("xTitle", s.xTitle());
        m.put("yTitle", s.yTitle());
        m.put("xAxisTitle", f.xAxisTitle());
        m.put("yAxisTitle", f.yAxisTitle());
        m.put("yTitleAbove", f.yTitleAbove());
        m.put("logX", s.logX());
        m.put("logY", s.logY());
        m.put("categories", s.categories());
        m.put("capY", Double.isNaN(s.capY()) ? null : s.capY());
        m.put("capLabel", s.capLabel());
        m.put("legend", s.legend());
        Map<String, double[]> fits = new LinkedHashMap<>();
        s.fits().forEach((k, fit) -> fits.put(k, new double[] {fit.prefactor(), fit.slope(), fit.fromX(), fit.toX()}));
        m.put("fits", fits);
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
