package org.lbsim.api;

import org.lbsim.scenario.SetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lbsim.api.Catalog.Choice;
import org.lbsim.api.Catalog.Entry;
import org.lbsim.api.Catalog.Field;
import org.lbsim.api.Catalog.Group;
import org.lbsim.api.Catalog.ListOf;
import org.lbsim.api.Catalog.Node;
import org.lbsim.api.Catalog.Value;
import org.lbsim.config.Overrides;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;

/**
 * Follows a dotted path ({@code switches.pfc.xoffBytes}, {@code failures.links[0].a}) through the
 * scenario schema. With a tree, the {@code type:} keys found in it pick the variants on the way
 * (as the binder would); without one, the defaults do. Unknown keys are {@link ScenarioException}s
 * worded as the binder words them.
 */
final class Resolver {
    /** null: follow the defaults only. */
    private final Map<?, ?> tree;
    /** Explain mode: a key of another variant switches to it, a key on a list reaches into its elements. */
    private final boolean lenient;

    private Resolver(Map<?, ?> tree, boolean lenient) {
        this.tree = tree;
        this.lenient = lenient;
    }

    static Resolver forSchema() {
        return new Resolver(null, true);
    }

    static Resolver forTree(Map<?, ?> tree) {
        return new Resolver(tree, false);
    }

    static Group root() {
        return new Group("", "a scenario: every key is optional; a missing key takes its default", Scenario.class, Catalog.defaults(), null);
    }

    /** The segments of a dotted path ({@code a.b[2].c} -> a, b, 2, c), parsed as {@code --set} parses them. */
    static List<Object> segments(String path) {
        try {
            return Overrides.parse(path + "=").path();
        } catch (SetException e) {
            throw new ScenarioException(path, "is not a valid path; expected keys separated by dots, such as switches.ecn.kminBytes"
                    + " or failures.links[0].a");
        }
    }

    Node resolve(String path) {
        return resolve(root(), segments(path), tree);
    }

    Node resolve(List<Object> segments) {
        return resolve(root(), segments, tree);
    }

    /**
     * Walks {@code segments} from {@code start}; {@code treeNode} is the part of the tree at
     * {@code start} (or null). Returns null when the tree makes the path uncheckable (an unknown
     * type name is reported by the binder on its own).
     */
    Node resolve(Node start, List<Object> segments, Object treeNode) {
        Node at = start;
        Object t = treeNode;
        for (Object seg : segments) {
            if (at == null) {
                return null;
            }
            Object childTree = childTree(t, seg);
            at = step(at, seg, childTree);
            t = childTree;
        }
        return at;
    }

    private static Object childTree(Object t, Object seg) {
        if (seg instanceof String key && t instanceof Map<?, ?> m) {
            return m.get(key);
        }
        if (seg instanceof Integer i && t instanceof List<?> l && i < l.size()) {
            return l.get(i);
        }
        return null;
    }

    private Node step(Node at, Object seg, Object childTree) {
        if (at instanceof Group g) {
            if (seg instanceof Integer i) {
                throw new ScenarioException(g.path(), "is a map, not a list, so it has no element [" + i + "]");
            }
            return key(g, (String) seg, childTree, null);
        }
        if (at instanceof Choice ch) {
            if (seg instanceof Integer i) {
                throw new ScenarioException(ch.path(), "is a map, not a list, so it has no element [" + i + "]");
            }
            String key = (String) seg;
            String typePath = join(ch.path(), "type");
            if (key.equals("type")) {
                Entry cur = ch.current();
                return new Value(typePath, ch.doc().isEmpty() ? ch.label() : ch.doc(), new Field("type", String.join(" | ", ch.names()),
                        cur == null ? null : cur.name(), cur == null, ch.doc().isEmpty() ? ch.label() : ch.doc()));
            }
            Entry cur = ch.current();
            if (cur == null) {
                if (!lenient) {
                    return null;
                }
                throw new ScenarioException(typePath, "has no default; name a type first, such as 'lbsim explain "
                        + ch.names().get(0) + "." + key + "' (types: " + String.join(", ", ch.names()) + ")");
            }
            Group g = new Group(ch.path(), cur.summary(), cur.type(), cur.defaults(), cur);
            return key(g, key, childTree, ch);
        }
        if (at instanceof ListOf l) {
            Node element = element(l);
            if (seg instanceof Integer i) {
                return rename(element, l.path() + "[" + i + "]");
            }
            if (!lenient) {
                throw new ScenarioException(l.path(), "is a list; address its elements as " + l.path() + "[0]." + seg);
            }
            return step(element, seg, childTree);
        }
        Value v = (Value) at;
        throw new ScenarioException(v.path(), "is " + article(v.field().type()) + ", it has no key '" + seg + "'");
    }

    /** The key {@code key} of a record; {@code via} is the choice the record was picked by, if any. */
    private Node key(Group g, String key, Object childTree, Choice via) {
        RecordComponent c = Catalog.component(g.type(), key);
        if (c == null) {
            List<String> allowed = new ArrayList<>();
            if (via != null) {
                allowed.add("type");
            }
            allowed.addAll(g.keys());
            String owner = null;
            if (via != null) {
                for (Entry other : via.entries()) {
                    if (other.type() != g.type() && Catalog.component(other.type(), key) != null) {
                        owner = other.name();
                        break;
                    }
                }
            }
            if (lenient && owner != null && Catalog.didYouMean(key, allowed).isEmpty()) {
                Entry o = via.entry(owner).orElseThrow();
                return key(new Group(via.path(), o.summary(), o.type(), o.defaults(), o), key, childTree, null);
            }
            throw Catalog.unknownKey(g.path(), key, allowed, via == null ? null : g.entry().name(), owner);
        }
        Object def = g.defaults() == null ? null : Catalog.read(c, g.defaults());
        return node(c, def, g.defaults() == null, join(g.path(), key), childTree);
    }

    /** The node of one record component, at {@code path}, with its default and the tree under it. */
    private Node node(RecordComponent c, Object def, boolean required, String path, Object childTree) {
        Class<?> raw = c.getType();
        String doc = Catalog.doc(c.getAnnotation(org.lbsim.scenario.Doc.class));
        if (raw == ComponentSpec.class || raw.isInterface() && raw.isSealed()) {
            String chosen = childTree instanceof Map<?, ?> m && m.get("type") instanceof String s ? s : null;
            Choice ch = Catalog.choice(path, doc, raw, c, def, chosen);
            if (chosen != null && ch.current() == null) {
                if (lenient) {
                    return null;
                }
                throw new ScenarioException(join(path, "type"), "unknown " + ch.label() + (raw == ComponentSpec.class ? "" : " type")
                        + " '" + chosen + "'" + Catalog.didYouMean(chosen, ch.names()) + " (allowed: " + String.join(", ", ch.names()) + ")");
            }
            return ch;
        }
        if (raw.isRecord()) {
            return new Group(path, doc, raw, def != null ? def : Catalog.staticDefaults(raw), null);
        }
        Field f = new Field(c.getName(), Catalog.typeText(raw, c.getGenericType()), Catalog.tree(def), required, doc);
        if (raw == List.class) {
            return new ListOf(path, doc, f, Catalog.elementType(c.getGenericType()) instanceof Class<?> el ? el : Object.class);
        }
        return new Value(path, doc, f);
    }

    private static Node element(ListOf l) {
        Class<?> el = l.element();
        String path = l.path() + "[]";
        if (el.isRecord()) {
            return new Group(path, l.doc(), el, Catalog.staticDefaults(el), null);
        }
        if (el.isInterface() && el.isSealed()) {
            return Catalog.choice(path, l.doc(), el, null, Catalog.staticDefaults(el), null);
        }
        return new Value(path, l.doc(), new Field("[]", Catalog.typeText(el, el), null, true, l.doc()));
    }

    private static Node rename(Node n, String path) {
        if (n instanceof Group g) {
            return new Group(path, g.doc(), g.type(), g.defaults(), g.entry());
        }
        if (n instanceof Choice c) {
            return new Choice(path, c.doc(), c.label(), c.entries(), c.current());
        }
        if (n instanceof Value v) {
            return new Value(path, v.doc(), v.field());
        }
        return n;
    }

    private static String article(String type) {
        return switch (type) {
            case "integer" -> "an integer";
            case "number" -> "a number";
            case "boolean" -> "a boolean";
            case "string" -> "a string";
            default -> "a value (" + type + ")";
        };
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
