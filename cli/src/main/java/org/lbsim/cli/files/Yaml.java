package org.lbsim.cli.files;

import org.lbsim.cli.errors.ControlCharacters;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.ReaderException;
import org.lbsim.cli.errors.UserError;
import org.lbsim.api.ScenarioText;

/** Reading scenario files into generic trees, and writing trees back as YAML. */
public final class Yaml {
    private static final YAMLMapper WRITER = YAMLMapper.builder(YAMLFactory.builder().stringQuotingChecker(new Quoting()).build())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES) // plain text unquoted ...
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS) // ... but "2024" or "0x10" quoted, so it stays a string
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES) // a long string stays on its line
            .addModule(new SimpleModule().addSerializer(Double.class, new Doubles()).addSerializer(Float.class, new Doubles()))
            .build();

    private Yaml() {
    }

    /**
     * The tree of one YAML document; null for an empty file. Any problem is a {@link UserError}
     * naming {@code shownName} (the path as the user wrote it).
     */
    public static Object read(Path file, String shownName) {
        return readWithPositions(file, shownName).tree();
    }

    /**
     * A document's tree and where each of its fields starts: a map entry at its key, a list element at its value, as
     * 1-based {@code line:column} under its field path ({@code topology.k}, {@code failures.links[0]}; "" is the whole
     * document). A value an alias copied has the alias's position.
     */
    public record Document(Object tree, java.util.Map<String, String> positions) {
        /**
         * {@code file:line:column} of {@code field}, or of the nearest enclosing field the file writes out (a field it
         * leaves to its default is blamed on the map that would hold it); just {@code file} when none is (a top-level
         * field the file does not set, or no document).
         */
        public String where(String file, String field) {
            for (String f = field == null ? "" : field; !f.isEmpty(); f = parent(f)) {
                String at = positions.get(f);
                if (at != null) {
                    return file + ":" + at;
                }
            }
            return file;
        }

        /** {@code a.b[2]} -> {@code a.b}, {@code a.b} -> {@code a}, {@code a} -> "". */
        static String parent(String field) {
            int i = Math.max(field.lastIndexOf('.'), field.endsWith("]") ? field.lastIndexOf('[') : -1);
            return i < 0 ? "" : field.substring(0, i);
        }
    }

    /** As {@link #read}, with where each field starts ({@link Document}). */
    public static Document readWithPositions(Path file, String shownName) {
        if (Files.isDirectory(file)) {
            throw UserError.at(shownName, "", "is a directory, expected a YAML scenario file");
        }
        String text;
        try {
            text = bounded(file, shownName);
        } catch (NoSuchFileException e) {
            throw UserError.at(shownName, "", "no such file");
        } catch (CharacterCodingException e) {
            throw UserError.at(shownName, "", "is not UTF-8 text");
        } catch (IOException e) {
            throw UserError.at(shownName, "", "cannot read: " + e.getMessage());
        }
        longLines(text, shownName);
        return parseWithPositions(text, shownName);
    }

    /** The largest scenario or sweep file read: the YAML reader's own limit of 3 Mi code points. */
    public static final int MAX_FILE_BYTES = 3 << 20;
    /** The longest line of a scenario or sweep file: the YAML reader takes seconds over a single value of megabytes. */
    public static final int MAX_LINE_CHARS = 1 << 16;

    /** The file as UTF-8 text, refused when it is longer than {@link #MAX_FILE_BYTES} (an endless stream such as /dev/zero too). */
    private static String bounded(Path file, String shownName) throws IOException {
        byte[] bytes;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw UserError.at(shownName, "", "is larger than " + (MAX_FILE_BYTES >> 20) + " MiB; a scenario or sweep file is at most "
                    + MAX_FILE_BYTES + " bytes (is this the right file?)");
        }
        return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    }

    /** Refuses a line longer than {@link #MAX_LINE_CHARS}, naming it, before the YAML reader spends seconds on it. */
    private static void longLines(String text, String shownName) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE_CHARS) {
                    throw UserError.at(shownName + ":" + line, "", "the line is " + (i - start) + " characters long, more than the "
                            + MAX_LINE_CHARS + " a scenario or sweep file may have on one line");
                }
                line++;
                start = i + 1;
            }
        }
    }

    /**
     * The tree of one YAML document ({@link YamlReader}: lbsim's reading of unquoted values,
     * aliases resolved); null for an empty text. Any problem is a {@link UserError} naming
     * {@code shownName}.
     */
    public static Object parse(String text, String shownName) {
        return parseWithPositions(text, shownName).tree();
    }

    /** As {@link #parse}, with where each field starts ({@link Document}). */
    public static Document parseWithPositions(String text, String shownName) {
        try {
            return YamlReader.readWithPositions(text, shownName);
        } catch (MarkedYAMLException e) {
            throw syntaxError(e, shownName);
        } catch (ReaderException e) {
            String before = text.substring(0, Math.min(text.length(), Math.max(0, e.getPosition())));
            int line = (int) before.chars().filter(c -> c == '\n').count() + 1;
            int column = before.length() - before.lastIndexOf('\n');
            throw UserError.at(shownName + ":" + line + ":" + column, "", String.format(Locale.ROOT,
                    "YAML syntax error: special characters are not allowed (U+%04X)", e.getCodePoint()));
        } catch (YAMLException e) {
            throw UserError.at(shownName, "", "YAML syntax error: " + oneLine(e.getMessage()));
        }
    }

    private static UserError syntaxError(MarkedYAMLException m, String file) {
        Mark at = m.getProblemMark();
        if (at == null) {
            return UserError.at(file, "", "YAML syntax error: " + oneLine(m.getProblem() != null ? m.getProblem() : m.getMessage()));
        }
        StringBuilder problem = new StringBuilder(oneLine(m.getProblem()));
        Mark ctx = m.getContextMark();
        if (m.getContext() != null && ctx != null && (ctx.getLine() != at.getLine() || ctx.getColumn() != at.getColumn())) {
            problem.append(" (").append(oneLine(m.getContext())).append(" that starts at line ").append(ctx.getLine() + 1)
                    .append(", column ").append(ctx.getColumn() + 1).append(")");
        }
        return UserError.at(file + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1), "", "YAML syntax error: " + problem);
    }

    public static String oneLine(String s) {
        return ControlCharacters.oneLine(s);
    }

    /**
     * A tree as block-style YAML (jackson-dataformat-yaml): ordered maps, lists, strings, numbers,
     * booleans and null. Strings are quoted unless they are plainly text (so "2024", "yes" or "0x10"
     * stay strings), doubles keep a decimal point, and the same tree always gives the same text.
     */
    public static String write(Object tree) {
        try {
            return WRITER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as YAML: " + e.getOriginalMessage(), e);
        }
    }

    /** Quotes every string that {@link YamlReader} would not read back unquoted as the same text ("1:20", "0o17", "<<"). */
    private static final class Quoting extends StringQuotingChecker.Default {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean needToQuoteName(String name) {
            return super.needToQuoteName(name) || "<<".equals(name);
        }

        @Override
        public boolean needToQuoteValue(String value) {
            if (super.needToQuoteValue(value)) {
                return true;
            }
            try {
                return !value.equals(ScenarioText.plain(value));
            } catch (ScenarioText.Refused e) {
                return true;
            }
        }
    }

    /**
     * Doubles as Java's shortest text that reads back exactly (always with a '.'), with a signed
     * exponent ({@code 1.0E+20}: YAML 1.1 readers take an unsigned one for a string), and
     * {@code .nan}, {@code .inf}, {@code -.inf}.
     */
    private static final class Doubles extends StdSerializer<Number> {
        Doubles() {
            super(Number.class);
        }

        @Override
        public void serialize(Number v, JsonGenerator gen, SerializerProvider provider) throws IOException {
            double d = v.doubleValue();
            String t;
            if (Double.isNaN(d)) {
                t = ".nan";
            } else if (Double.isInfinite(d)) {
                t = d > 0 ? ".inf" : "-.inf";
            } else {
                t = Double.toString(d);
                int e = t.indexOf('E');
                if (e >= 0 && t.charAt(e + 1) != '-') {
                    t = t.substring(0, e + 1) + "+" + t.substring(e + 1);
                }
            }
            gen.writeNumber(t);
        }
    }
}
