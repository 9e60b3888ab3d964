package org.lbsim.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.lbsim.api.Catalog.Choice;
import org.lbsim.api.Catalog.Entry;
import org.lbsim.api.Catalog.Field;
import org.lbsim.api.Catalog.Group;
import org.lbsim.api.Catalog.Kind;
import org.lbsim.api.Catalog.ListOf;
import org.lbsim.api.Catalog.Node;
import org.lbsim.api.Catalog.Value;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;

/** The text of {@code lbsim explain NAME}: plain lines, columns aligned, no trailing spaces. */
final class Explainer {
    private final StringBuilder out = new StringBuilder();

    private Explainer() {
    }

    static String explain(String name) {
        String n = name.strip();
        Explainer e = new Explainer();
        if (n.equals("scenario") || n.isEmpty()) {
            e.root();
            return e.out.toString();
        }
        if (n.equals("hooks")) {
            return ExtensionPoints.listing();
        }
        Optional<ExtensionPoints.Hook> hook = ExtensionPoints.find(n);
        if (hook.isPresent()) {
            return ExtensionPoints.explain(hook.get());
        }
        Optional<Kind> kind = Kind.byWord(n);
        if (kind.isPresent()) {
            e.list(kind.get());
            return e.out.toString();
        }
        List<Object> segments = Resolver.segments(n);
        String first = (String) segments.get(0);
        List<Object> rest = segments.subList(1, segments.size());
        if (Catalog.component(Scenario.class, first) != null) {
            e.node(Resolver.forSchema().resolve(segments));
            return e.out.toString();
        }
        List<Entry> entries = Catalog.find(first);
        if (!entries.isEmpty()) {
            for (Entry entry : entries) {
                if (e.out.length() > 0) {
                    e.out.append('\n');
                }
                if (rest.isEmpty()) {
                    e.entry(entry);
                } else {
                    Group g = new Group(entry.name(), entry.summary(), entry.type(), entry.defaults(), entry);
                    e.node(Resolver.forSchema().resolve(g, rest, null));
                }
            }
            return e.out.toString();
        }
        List<String> candidates = new ArrayList<>();
        candidates.add("scenario");
        candidates.addAll(Catalog.fieldNames(Scenario.class));
        candidates.addAll(Kind.words());
        candidates.addAll(Catalog.names());
        throw new ScenarioException("", "unknown name '" + first + "'" + Catalog.didYouMean(first, candidates)
                + " (names: 'lbsim list " + String.join("|", Kind.words()) + "'; scenario keys: 'lbsim explain scenario')");
    }

    /** {@code lbsim list KIND}: one line per entry, name, summary and [source]. */
    static String listing(Kind kind) {
        Explainer e = new Explainer();
        e.list(kind);
        return e.out.toString();
    }

    private void list(Kind kind) {
        List<String[]> rows = new ArrayList<>();
        for (Entry entry : kind.entries()) {
            rows.add(new String[] {entry.name(), entry.summary() + (entry.source().isEmpty() ? "" : "  [" + entry.source() + "]")});
        }
        table(rows, "");
    }

    private void root() {
        Group g = Resolver.root();
        line("scenario: every key is optional; a key left out takes the default shown");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"key", "type", "default", "description"});
        for (Field f : Catalog.fields(Scenario.class, g.defaults())) {
            Node n = Resolver.forSchema().resolve(List.of(f.name()));
            String type = f.type();
            String def = f.defaultText();
            String doc = f.doc();
            if (n instanceof Choice c) {
                type = "map, type: " + (c.entries().size() <= 3 ? String.join(" | ", c.names()) : "one of " + c.entries().size());
                def = c.current() == null ? "required" : c.current().name();
            } else if (n instanceof Group) {
                def = "{...}";
            }
            rows.add(new String[] {f.name(), type, def, doc});
        }
        table(rows, "  ");
        line("");
        line("  more: 'lbsim explain KEY' (such as topology or switches.pfc), 'lbsim explain NAME' (such as ofan),");
        line("        'lbsim list " + String.join("|", Kind.words()) + "'");
    }

    private void entry(Entry e) {
        line(e.name() + ": " + e.label());
        line("  " + e.summary());
        if (!e.source().isEmpty()) {
            line("  source: " + e.source());
        }
        line("  use:    " + use(e.path(), "{type: " + e.name() + "}"));
        params(e.type(), e.defaults());
    }

    private static String use(String path, String value) {
        String[] parts = path.split("\\.");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            sb.append(parts[i]).append(": {");
        }
        sb.append(parts[parts.length - 1]).append(": ").append(value);
        sb.append("}".repeat(parts.length - 1));
        return sb.toString();
    }

    private void params(Class<?> type, Object defaults) {
        List<Field> fields = new ArrayList<>();
        Catalog.flatten(type, defaults, "", "", fields);
        line("");
        if (fields.isEmpty()) {
            line("  no parameters");
            return;
        }
        fieldTable(fields);
    }

    private void fieldTable(List<Field> fields) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"key", "type", "default", "description"});
        for (Field f : fields) {
            rows.add(new String[] {f.name(), f.type(), f.defaultText(), f.doc()});
        }
        table(rows, "  ");
    }

    private void node(Node n) {
        if (n instanceof Group g) {
            if (g.entry() != null && g.path().equals(g.entry().name())) {
                entry(g.entry());
                return;
            }
            line(g.path() + ": " + (g.doc().isEmpty() ? "a map" : g.doc()));
            if (g.entry() != null) {
                line("  (type " + g.entry().name() + ")");
            }
            params(g.type(), g.defaults());
        } else if (n instanceof Choice c) {
            line(c.path() + ": " + c.doc());
            line("  type: " + (c.entries().size() <= 4 ? String.join(" | ", c.names()) : "one " + c.label() + " of " + c.entries().size())
                    + (c.current() == null ? " (required)" : " (default " + c.current().name() + ")"));
            List<String[]> rows = new ArrayList<>();
            for (Entry e : c.entries()) {
                rows.add(new String[] {e.name(), e.summary() + (e.source().isEmpty() ? "" : "  [" + e.source() + "]")});
            }
            table(rows, "    ");
            if (c.current() != null) {
                line("");
                line("  keys of " + c.current().name() + " (the default; 'lbsim explain NAME' shows another type's):");
                List<Field> fields = new ArrayList<>();
                Catalog.flatten(c.current().type(), c.current().defaults(), "", "", fields);
                if (fields.isEmpty()) {
                    line("  no parameters");
                } else {
                    fieldTable(fields);
                }
            }
        } else if (n instanceof ListOf l) {
            line(l.path() + ": " + l.field().type() + ", " + (l.field().required() ? "required" : "default " + l.field().defaultText()));
            if (!l.doc().isEmpty()) {
                line("  " + l.doc());
            }
            if (l.element().isRecord()) {
                line("");
                line("  keys of each element:");
                List<Field> fields = new ArrayList<>();
                Catalog.flatten(l.element(), Catalog.staticDefaults(l.element()), "", "", fields);
                fieldTable(fields);
            }
        } else if (n instanceof Value v) {
            line(v.path() + ": " + v.field().type() + ", " + (v.field().required() ? "required" : "default " + v.field().defaultText()));
            if (!v.doc().isEmpty()) {
                line("  " + v.doc());
            }
        } else {
            throw new IllegalStateException("cannot explain " + n);
        }
    }

    private void table(List<String[]> rows, String indent) {
        int cols = rows.isEmpty() ? 0 : rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols - 1; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder sb = new StringBuilder(indent);
            for (int i = 0; i < cols; i++) {
                sb.append(r[i]);
                if (i < cols - 1) {
                    sb.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            line(sb.toString());
        }
    }

    private void line(String s) {
        out.append(s.stripTrailing()).append('\n');
    }
}
