package org.lbsim.cli.plot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Post-processing of the SVG that XChart (through VectorGraphics2D) writes. That output draws
 * every line segment as its own {@code <line>} element with coordinates to 16 digits and clip
 * ids from identity hash codes; here runs of segments with one style become one {@code <path>},
 * numbers keep two decimals (a hundredth of a pixel) and ids are numbered in order, so the file is
 * several times smaller and the same figure gives the same bytes.
 */
public final class Svg {
    private static final Pattern LINE = Pattern.compile(
            "<line style=\"([^\"]*)\" x1=\"([^\"]+)\" x2=\"([^\"]+)\" y1=\"([^\"]+)\" y2=\"([^\"]+)\"/>");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+\\.\\d+");
    private static final Pattern PROLOG = Pattern.compile("\\A\\s*<\\?xml[^>]*>\\s*(<!DOCTYPE[^>]*>\\s*)?");
    private static final Pattern SIZE = Pattern.compile("<svg([^>]*?) height=\"[^\"]*\"([^>]*?) width=\"[^\"]*\"");

    private Svg() {
    }

    /** The compacted document (still a standalone SVG file with its XML declaration). */
    public static String compact(String svg) {
        return renumberIds(roundNumbers(mergeLines(svg)), "clip");
    }

    /**
     * An {@code <svg>} element to paste into an HTML page: no XML declaration or DOCTYPE, ids
     * prefixed so several figures on one page do not clash, and a width that follows the page
     * (the viewBox keeps the aspect ratio).
     */
    public static String inline(String svg, String idPrefix) {
        String s = PROLOG.matcher(compact(svg)).replaceFirst("");
        s = renumberIds(s, idPrefix + "clip");
        Matcher m = SIZE.matcher(s);
        if (m.find()) {
            s = s.substring(0, m.start()) + "<svg" + m.group(1) + m.group(2) + " width=\"100%\" style=\"height:auto\" role=\"img\""
                    + s.substring(m.end());
        }
        return s.strip();
    }

    static String mergeLines(String svg) {
        Matcher m = LINE.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length() / 3);
        int copied = 0;
        String style = null;
        StringBuilder d = null;
        String lastX = null;
        String lastY = null;
        while (m.find()) {
            boolean adjacent = style != null && svg.substring(copied, m.start()).isBlank() && style.equals(m.group(1));
            if (!adjacent) {
                if (style != null) {
                    out.append("<path style=\"").append(style).append("\" d=\"").append(d).append("\"/>");
                    style = null;
                }
                out.append(svg, copied, m.start());
                style = m.group(1);
                d = new StringBuilder();
            }
            String x1 = m.group(2);
            String y1 = m.group(4);
            if (!(x1.equals(lastX) && y1.equals(lastY) && adjacent)) {
                if (d.length() > 0) {
                    d.append(' ');
                }
                d.append('M').append(x1).append(',').append(y1);
            }
            d.append(" L").append(m.group(3)).append(',').append(m.group(5));
            lastX = m.group(3);
            lastY = m.group(5);
            copied = m.end();
        }
        if (style != null) {
            out.append("<path style=\"").append(style).append("\" d=\"").append(d).append("\"/>");
        }
        out.append(svg, copied, svg.length());
        return out.toString();
    }

    static String roundNumbers(String s) {
        Matcher m = NUMBER.matcher(s);
        StringBuilder out = new StringBuilder(s.length());
        while (m.find()) {
            m.appendReplacement(out, round2(m.group()));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String round2(String number) {
        int dot = number.indexOf('.');
        if (number.length() - dot - 1 <= 2) {
            return number;
        }
        double v = Double.parseDouble(number);
        long hundredths = Math.round(v * 100);
        if (hundredths == 0) {
            return "0";
        }
        String sign = hundredths < 0 ? "-" : "";
        long a = Math.abs(hundredths);
        long whole = a / 100;
        long frac = a % 100;
        if (frac == 0) {
            return sign + whole;
        }
        return sign + whole + (frac % 10 == 0 ? "." + frac / 10 : (frac < 10 ? ".0" : ".") + frac);
    }

    private static String renumberIds(String s, String prefix) {
        Matcher m = Pattern.compile("\\b(?:clip\\d+|" + Pattern.quote(prefix) + "\\d+)\\b").matcher(s);
        Map<String, String> ids = new LinkedHashMap<>();
        StringBuilder out = new StringBuilder(s.length());
        while (m.find()) {
            String id = ids.computeIfAbsent(m.group(), k -> prefix + (ids.size() + 1));
            m.appendReplacement(out, id);
        }
        m.appendTail(out);
        return out.toString();
    }
}
