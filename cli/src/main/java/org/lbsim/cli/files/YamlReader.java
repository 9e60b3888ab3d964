package org.lbsim.cli.files;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lbsim.cli.errors.UserError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.lbsim.api.ScenarioText;

/**
 * One YAML document as a tree of maps, lists, strings, numbers, booleans and nulls, built from
 * SnakeYAML's events so that lbsim, not a YAML 1.1 schema, decides what an unquoted value means
 * ({@link Scalars#plain}, the reading {@code --set} uses too). Aliases resolve to a copy of their
 * anchor's value; an alias to no anchor, a value containing its own alias, duplicate keys, merge
 * keys and tags other than YAML's standard ones are errors naming the file, the line and the field.
 */
final class YamlReader {
    /** Deeper than any scenario (about six levels) by far, shallow enough for the binder's recursion. */
    static final int MAX_DEPTH = 1000;
    /** Values that aliases may add to a document: a scenario needs a handful; more is an alias bomb. */
    static final long MAX_ALIAS_VALUES = 100_000;

    private static final String CORE = "tag:yaml.org,2002:";

    private final ParserImpl events;
    private final String file;
    private final Map<String, Anchored> anchors = new HashMap<>();
    private final Set<String> open = new HashSet<>();
    /** Values created so far (an anchored value's size is the difference across it). */
    private long created;
    private long aliasValues;
    /** Where each field path starts (a map entry at its key, a list element at its value), 1-based "line:column". */
    private final Map<String, String> positions = new HashMap<>();

    private record Anchored(Object value, long size) {
    }

    private YamlReader(String text, String file) {
        this.events = new ParserImpl(new StreamReader(text), new LoaderOptions());
        this.file = file;
    }

    /**
     * The tree of the single document in {@code text} (null when there is none) and where each field path of the tree
     * starts in {@code text} ("" is the document's value). Malformed YAML
     * surfaces as SnakeYAML's exceptions; everything else lbsim refuses is a {@link UserError}.
     */
    static Yaml.Document readWithPositions(String text, String file) {
        YamlReader r = new YamlReader(text, file);
        Object tree = r.document();
        return new Yaml.Document(tree, Map.copyOf(r.positions));
    }

    private Object document() {
        events.getEvent(); // stream start
        if (events.checkEvent(Event.ID.StreamEnd)) {
            return null;
        }
        events.getEvent(); // document start
        Object tree = node("", 0);
        events.getEvent(); // document end
        if (events.checkEvent(Event.ID.DocumentStart)) {
            events.getEvent();
            // the line of the second document's first value
            throw UserError.at(file + ":" + position(events.peekEvent()), "", "a second YAML document starts here; put one scenario in a file");
        }
        return tree;
    }

    private Object node(String path, int depth) {
        Event e = events.getEvent();
        positions.putIfAbsent(path, position(e));
        if (depth > MAX_DEPTH) {
            throw UserError.at(file + ":" + position(e), "", "values nested deeper than " + MAX_DEPTH + " levels");
        }
        if (e instanceof AliasEvent alias) {
            return alias(alias, path);
        }
        String anchor = ((NodeEvent) e).getAnchor();
        long before = created;
        if (anchor != null) {
            open.add(anchor);
        }
        Object value;
        if (e instanceof ScalarEvent s) {
            value = scalar(s, path);
        } else if (e.is(Event.ID.SequenceStart)) {
            collectionTag((CollectionStartEvent) e, path, "seq");
            List<Object> list = new ArrayList<>();
            while (!events.checkEvent(Event.ID.SequenceEnd)) {
                list.add(node(path + "[" + list.size() + "]", depth + 1));
            }
            events.getEvent();
            value = list;
        } else {
            collectionTag((CollectionStartEvent) e, path, "map");
            Map<String, Object> map = new LinkedHashMap<>();
            while (!events.checkEvent(Event.ID.MappingEnd)) {
                Event keyEvent = events.peekEvent();
                String key = key(path);
                String at = path.isEmpty() ? key : path + "." + key;
                if (map.containsKey(key)) {
                    throw UserError.at(file + ":" + position(keyEvent), at, "duplicate key (first at line " + positions.get(at).substring(0, positions.get(at).indexOf(':')) + ")");
                }
                positions.put(at, position(keyEvent));
                map.put(key, node(at, depth + 1));
            }
            events.getEvent();
            value = map;
        }
        created++;
        if (anchor != null) {
            open.remove(anchor);
            anchors.put(anchor, new Anchored(value, created - before));
        }
        return value;
    }

    private Object alias(AliasEvent alias, String path) {
        String name = alias.getAnchor();
        String where = file + ":" + position(alias);
        if (open.contains(name)) {
            throw UserError.at(where, path, "the alias *" + name + " is inside the value of &" + name + " it stands for (a value cannot contain itself)");
        }
        Anchored a = anchors.get(name);
        if (a == null) {
            throw UserError.at(where, path, "the alias *" + name + " has no anchor &" + name + " before it; define the value with &" + name
                    + " first, or quote \"*" + name + "\" to mean text");
        }
        aliasValues += a.size();
        if (aliasValues > MAX_ALIAS_VALUES) {
            throw UserError.at(where, path, "aliases expand the document by more than " + MAX_ALIAS_VALUES + " values; write the values out");
        }
        created += a.size();
        return copy(a.value());
    }

    /** A map key: a scalar's text, or an alias to one. */
    private String key(String path) {
        Event e = events.peekEvent();
        if (e instanceof ScalarEvent s) {
            if (s.isPlain() && s.getTag() == null && "<<".equals(s.getValue())) {
                throw UserError.at(file + ":" + position(e), path, "merge keys (<<) are not supported; write the keys out");
            }
            events.getEvent();
            return s.getValue();
        }
        if (e instanceof AliasEvent a) {
            Object v = node(path, 0);
            if (v instanceof Map || v instanceof List) {
                throw UserError.at(file + ":" + position(e), path, "the alias *" + a.getAnchor() + " used as a key stands for " + ScenarioText.describe(v)
                        + "; keys must be names");
            }
            return String.valueOf(v);
        }
        throw UserError.at(file + ":" + position(e), path, "keys must be names, got a " + (e.is(Event.ID.SequenceStart) ? "list" : "map"));
    }

    private Object scalar(ScalarEvent s, String path) {
        String tag = s.getTag();
        String text = s.getValue();
        if (tag == null) {
            return s.isPlain() ? plain(text, s, path) : text;
        }
        if (tag.equals("!") || tag.equals(CORE + "str")) {
            return text;
        }
        Object v = switch (tag) {
            case CORE + "int", CORE + "float", CORE + "bool", CORE + "null" -> plain(text.strip(), s, path);
            default -> throw UserError.at(file + ":" + position(s), path, "the tag " + shortTag(tag) + " is not supported; write the value without a tag");
        };
        boolean fits = switch (tag.substring(CORE.length())) {
            case "int" -> v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger;
            case "float" -> v instanceof Number;
            case "bool" -> v instanceof Boolean;
            default -> v == null;
        };
        if (!fits) {
            throw UserError.at(file + ":" + position(s), path, "'" + text + "' is not a value of the tag " + shortTag(tag) + "; " + ScenarioText.ALLOWED);
        }
        return tag.equals(CORE + "float") ? (Object) ((Number) v).doubleValue() : v;
    }

    private Object plain(String text, ScalarEvent s, String path) {
        try {
            return ScenarioText.plain(text);
        } catch (ScenarioText.Refused r) {
            throw UserError.at(file + ":" + position(s), path, r.getMessage());
        }
    }

    private void collectionTag(CollectionStartEvent e, String path, String kind) {
        String tag = e.getTag();
        if (tag != null && !tag.equals("!") && !tag.equals(CORE + kind)) {
            throw UserError.at(file + ":" + position(e), path, "the tag " + shortTag(tag) + " is not supported; write the value without a tag");
        }
    }

    private static String shortTag(String tag) {
        return tag.startsWith(CORE) ? "!!" + tag.substring(CORE.length()) : tag;
    }

    private static String position(Event e) {
        return (e.getStartMark().getLine() + 1) + ":" + (e.getStartMark().getColumn() + 1);
    }

    @SuppressWarnings("unchecked")
    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> c = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, v) -> c.put(k, copy(v)));
            return c;
        }
        if (value instanceof List<?> l) {
            List<Object> c = new ArrayList<>(l.size());
            l.forEach(v -> c.add(copy(v)));
            return c;
        }
        return value;
    }
}
