package org.lbsim.cli.files;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.lbsim.api.Lbsim;
import org.lbsim.api.Catalog;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TypeName;

/**
 * A scenario as a commented YAML file (what {@code lbsim init} writes): every field with its value, the
 * {@code @Doc} of each key as a comment, and for every {@code type:} the chosen type's summary and the
 * other types. Reads back (YAML comments aside) to an equal scenario.
 */
public final class ScenarioTemplate {
    /** Where trailing comments start (unless the line is longer). */
    private static final int COMMENT_COLUMN = 34;
    private static final int WIDTH = 100;
    /** Joins words that comment wrapping must keep on one line (a paper source). */
    private static final char NBSP = '\u00a0';

    private final StringBuilder out = new StringBuilder();

    private ScenarioTemplate() {
    }

    public static String write(Scenario scenario, List<String> header) {
        ScenarioTemplate t = new ScenarioTemplate();
        for (String h : header) {
            t.out.append(h.isEmpty() ? "#" : "# " + h).append('\n');
        }
        t.fields(scenario, "", 0);
        return t.out.toString();
    }

    private void fields(Record r, String path, int indent) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = read(c, r);
            String key = c.getName();
            String p = path.isEmpty() ? key : path + "." + key;
            Doc d = c.getAnnotation(Doc.class);
            String doc = d == null ? "" : d.value();
            String pad = "  ".repeat(indent);
            if (indent == 0) {
                out.append('\n');
                if (!doc.isEmpty()) {
                    comment(pad, doc);
                }
            }
            String trailing = indent == 0 ? "" : doc;
            if (v instanceof ComponentSpec spec) {
                line(pad + key + ":", trailing);
                choice(p, spec.type(), indent + 1);
                fields(spec.params(), p, indent + 1);
            } else if (v instanceof Record rec && rec.getClass().getAnnotation(TypeName.class) != null) {
                line(pad + key + ":", trailing);
                choice(p, rec.getClass().getAnnotation(TypeName.class).value(), indent + 1);
                fields(rec, p, indent + 1);
            } else if (v instanceof Record rec) {
                line(pad + key + ":", trailing);
                fields(rec, p, indent + 1);
            } else {
                line(pad + key + ": " + flow(Lbsim.treeValue(v)), trailing);
            }
        }
    }

    /** The comment lines above {@code type:} (summary of the chosen type, the others) and the line itself. */
    private void choice(String path, String chosen, int indent) {
        String pad = "  ".repeat(indent);
        List<String> others = new ArrayList<>();
        for (Catalog.Entry e : Catalog.choices(path)) {
            if (e.name().equals(chosen)) {
                comment(pad, e.namedSummary() + (e.source().isEmpty() ? "" : " [" + e.source().replace(' ', NBSP) + "]"));
            } else {
                others.add(e.name());
            }
        }
        if (!others.isEmpty()) {
            comment(pad, "other types: " + String.join(", ", others) + " ('lbsim explain NAME' shows one)");
        }
        out.append(pad).append("type: ").append(flow(chosen)).append('\n');
    }

    /** A value on one line: a YAML scalar, or a flow list / map of them. */
    private static String flow(Object v) {
        if (v instanceof List<?> l) {
            List<String> items = new ArrayList<>();
            for (Object o : l) {
                items.add(flow(o));
            }
            return "[" + String.join(", ", items) + "]";
        }
        if (v instanceof Map<?, ?> m) {
            List<String> items = new ArrayList<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                items.add(e.getKey() + ": " + flow(e.getValue()));
            }
            return "{" + String.join(", ", items) + "}";
        }
        String s = Yaml.write(Collections.singletonMap("k", v)); // "k: <scalar>\n", quoted as the writer quotes
        return s.substring(3, s.length() - 1);
    }

    private void line(String text, String trailing) {
        out.append(text);
        if (!trailing.isEmpty()) {
            out.append(" ".repeat(Math.max(2, COMMENT_COLUMN - text.length()))).append("# ").append(trailing);
        }
        out.append('\n');
    }

    /** A comment, wrapped at word boundaries to about {@link #WIDTH} columns. */
    private void comment(String pad, String text) {
        StringBuilder lineText = new StringBuilder();
        for (String word : text.split(" ")) {
            if (lineText.length() > 0 && pad.length() + 2 + lineText.length() + 1 + word.length() > WIDTH) {
                out.append(pad).append("# ").append(lineText.toString().replace(NBSP, ' ')).append('\n');
                lineText.setLength(0);
            }
            if (lineText.length() > 0) {
                lineText.append(' ');
            }
            lineText.append(word);
        }
        out.append(pad).append("# ").append(lineText.toString().replace(NBSP, ' ')).append('\n');
    }

    private static Object read(RecordComponent c, Record r) {
        try {
            var m = c.getAccessor();
            m.setAccessible(true);
            return m.invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + c.getName(), e);
        }
    }
}
