package org.lbsim.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Reading scenario files into generic trees, and writing trees back as YAML. */
final class Yaml {
    private static final YAMLMapper READER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    /** Strings that may be written without quotes: they read back as the same string in YAML 1.1 and 1.2. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_/][A-Za-z0-9_./+-]*( [A-Za-z0-9_./+()-]+)*");
    private static final Set<String> RESERVED = Set.of("true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf");

    private Yaml() {
    }

    /**
     * The tree of one YAML document; null for an empty file. Any problem is a {@link UserError}
     * naming {@code shownName} (the path as the user wrote it).
     */
    static Object read(Path file, String shownName) {
        if (Files.isDirectory(file)) {
            throw UserError.at(shownName, "", "is a directory, expected a YAML scenario file");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw UserError.at(shownName, "", "no such file");
        } catch (CharacterCodingException e) {
            throw UserError.at(shownName, "", "is not UTF-8 text");
        } catch (IOException e) {
            throw UserError.at(shownName, "", "cannot read: " + e.getMessage());
        }
        return parse(text, shownName);
    }

    static Object parse(String text, String shownName) {
        try (JsonParser p = READER.createParser(text)) {
            if (p.nextToken() == null) {
                return null;
            }
            Object tree = READER.readValue(p, Object.class);
            if (p.nextToken() != null) {
                throw UserError.at(shownName + ":" + p.currentLocation().getLineNr(), "",
                        "a second YAML document starts here; put one scenario in a file");
            }
            return tree;
        } catch (JsonProcessingException e) {
            throw syntaxError(e, shownName);
        } catch (IOException e) {
            throw UserError.at(shownName, "", "cannot read: " + e.getMessage());
        }
    }

    private static UserError syntaxError(JsonProcessingException e, String file) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof MarkedYAMLException m && m.getProblemMark() != null) {
                Mark at = m.getProblemMark();
                StringBuilder problem = new StringBuilder(oneLine(m.getProblem()));
                Mark ctx = m.getContextMark();
                if (m.getContext() != null && ctx != null && (ctx.getLine() != at.getLine() || ctx.getColumn() != at.getColumn())) {
                    problem.append(" (").append(oneLine(m.getContext())).append(" that starts at line ").append(ctx.getLine() + 1)
                            .append(", column ").append(ctx.getColumn() + 1).append(")");
                }
                return UserError.at(file + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1), "", "YAML syntax error: " + problem);
            }
        }
        String message = oneLine(e.getOriginalMessage());
        if (message.startsWith("Duplicate field '") && e.getProcessor() instanceof JsonParser p) {
            String path = path(p.getParsingContext());
            return UserError.at(file, path, "duplicate key (line " + e.getLocation().getLineNr() + ")");
        }
        if (message.startsWith("Malformed numeric value") && e.getProcessor() instanceof JsonParser p) {
            // .nan, .inf and the like: name the field rather than only the position
            String path = path(p.getParsingContext());
            String line = e.getLocation() != null && e.getLocation().getLineNr() > 0 ? ":" + e.getLocation().getLineNr() : "";
            return UserError.at(file + line, path.isEmpty() ? "" : path, "must be a finite number; .nan, .inf and -.inf are not allowed ("
                    + message + ")");
        }
        if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
            return UserError.at(file + ":" + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr(), "",
                    "YAML syntax error: " + message);
        }
        return UserError.at(file, "", "YAML syntax error: " + message);
    }

    /** A parser context as a dotted path, such as {@code failures.links[1].a}. */
    private static String path(JsonStreamContext ctx) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject()) {
                parts.push(c.getCurrentName() == null ? "?" : c.getCurrentName());
            } else if (c.inArray()) {
                parts.push("[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String part : parts) {
            if (sb.length() > 0 && !part.startsWith("[")) {
                sb.append('.');
            }
            sb.append(part);
        }
        return sb.toString();
    }

    static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * A tree as block-style YAML: ordered maps, lists, strings, numbers, booleans and null. Strings
     * are quoted unless they are plainly text (so "2024", "yes" or "0x10" stay strings), doubles
     * keep a decimal point, and the same tree always gives the same text.
     */
    static String write(Object tree) {
        StringBuilder sb = new StringBuilder();
        if (tree instanceof Map<?, ?> m && !m.isEmpty()) {
            map(m, 0, sb);
        } else {
            sb.append(scalar(tree)).append('\n');
        }
        return sb.toString();
    }

    private static void map(Map<?, ?> m, int indent, StringBuilder sb) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            sb.append("  ".repeat(indent)).append(key(String.valueOf(e.getKey()))).append(':');
            value(e.getValue(), indent, sb);
        }
    }

    /** Writes what follows "key:" (or "-"), starting on the same line. */
    private static void value(Object v, int indent, StringBuilder sb) {
        if (v instanceof Map<?, ?> m && !m.isEmpty()) {
            sb.append('\n');
            map(m, indent + 1, sb);
        } else if (v instanceof List<?> l && !l.isEmpty()) {
            sb.append('\n');
            for (Object item : l) {
                sb.append("  ".repeat(indent + 1)).append('-');
                if (item instanceof Map<?, ?> im && !im.isEmpty()) {
                    sb.append(' ');
                    // the first key shares the "- " line; the others align with it
                    boolean first = true;
                    for (Map.Entry<?, ?> e : im.entrySet()) {
                        if (!first) {
                            sb.append("  ".repeat(indent + 2));
                        }
                        first = false;
                        sb.append(key(String.valueOf(e.getKey()))).append(':');
                        value(e.getValue(), indent + 2, sb);
                    }
                } else {
                    value(item, indent + 1, sb);
                }
            }
        } else {
            sb.append(' ').append(scalar(v)).append('\n');
        }
    }

    private static String key(String k) {
        return PLAIN.matcher(k).matches() && !RESERVED.contains(k.toLowerCase(Locale.ROOT)) ? k : quote(k);
    }

    private static String scalar(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map<?, ?>) {
            return "{}";
        }
        if (v instanceof List<?>) {
            return "[]";
        }
        if (v instanceof String s) {
            return PLAIN.matcher(s).matches() && !RESERVED.contains(s.toLowerCase(Locale.ROOT)) ? s : quote(s);
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                return ".nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? ".inf" : "-.inf";
            }
            String t = Double.toString(d); // shortest repr that reads back exactly; always has a '.'
            int e = t.indexOf('E');
            if (e >= 0 && t.charAt(e + 1) != '-') {
                t = t.substring(0, e + 1) + "+" + t.substring(e + 1); // YAML 1.1 floats want a signed exponent
            }
            return t;
        }
        return String.valueOf(v); // integers, booleans
    }

    /** A YAML double-quoted scalar (JSON escapes are valid there). */
    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
