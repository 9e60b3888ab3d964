package org.lbsim.api;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.lbsim.config.ScenarioDefaults;
import org.lbsim.config.ScenarioTree;
import org.lbsim.config.Suggestions;
import org.lbsim.registry.Component;
import org.lbsim.registry.CongestionControls;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.registry.LossRecoveries;
import org.lbsim.registry.Registries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TypeName;

/**
 * What a scenario can contain, read from the code itself: the component registries
 * ({@link LoadBalancers}, {@link CongestionControls}, {@link LossRecoveries}), the {@code @TypeName}
 * variants of the sealed scenario interfaces, and the {@code @Doc} of every record component. Nothing
 * here is a hand-kept list of names, so {@code lbsim list} / {@code lbsim explain} cannot drift from
 * what the binder accepts.
 */
public final class Catalog {
    /** A string default that stands for "not given" (FailureSpec.FailedLink's ends, an event's action): shown as required; so is a NaN default. */
    private static final String PLACEHOLDER = "?";

    private Catalog() {
    }

    /** The kinds of choices a scenario makes, each at one path of the scenario tree. */
    public enum Kind {
        SCHEMES("schemes", "loadBalancing"),
        TOPOLOGIES("topologies", "topology"),
        WORKLOADS("workloads", "workload"),
        CC("cc", "congestionControl"),
        RECOVERY("recovery", "lossRecovery"),
        BUFFERS("buffers", "switches.buffer");

        private final String word;
        private final String path;

        Kind(String word, String path) {
            this.word = word;
            this.path = path;
        }

        /** The word of {@code lbsim list WORD}. */
        public String word() {
            return word;
        }

        /** Where in a scenario the choice is made, such as {@code switches.buffer}. */
        public String path() {
            return path;
        }

        /** How messages name one entry of this kind: "load-balancing scheme", "topology", "buffer". */
        public String label() {
            Choice c = choiceAt(path);
            return c.label();
        }

        public List<Entry> entries() {
            return choiceAt(path).entries();
        }

        public static Optional<Kind> byWord(String word) {
            return Arrays.stream(values()).filter(k -> k.word.equals(word)).findFirst();
        }

        public static List<String> words() {
            return Arrays.stream(values()).map(Kind::word).toList();
        }
    }

    /**
     * One selectable type: a registered component or a {@code @TypeName} variant.
     *
     * @param label    what it is: "load-balancing scheme", "topology", "buffer" ...
     * @param path     where a scenario chooses it ({@code loadBalancing}, {@code switches.buffer})
     * @param displayName what figures and listings call it: the registry's paper-facing name ({@code HOST PKT}
     *                 for {@code host-spray}), the type name itself for a {@code @TypeName} variant
     * @param summary  one line on what it is, headed by the display name for a registered component
     * @param source   the paper section it follows, or "" when the code does not say
     * @param type     its parameter record (or the variant record itself)
     * @param defaults its default parameters, or null when every parameter is required
     */
    public record Entry(String label, String path, String name, String displayName, String summary, String source,
                        Class<? extends Record> type, Record defaults) {
        /** "ecmp (ECMP): per-flow ECMP ...": the name, the display name where it differs, and the summary. */
        public String namedSummary() {
            String prefix = displayName + ": ";
            return displayName.equals(name) || !summary.startsWith(prefix) ? name + ": " + summary
                    : name + " (" + displayName + "): " + summary.substring(prefix.length());
        }

        /** Every parameter, nested records flattened to dotted names ({@code hostLink.rateGbps}). */
        public List<Field> params() {
            List<Field> out = new ArrayList<>();
            flatten(type, defaults, "", "", out);
            return out;
        }
    }

    /**
     * One key of a scenario map.
     *
     * @param name         the key, dotted below the map it belongs to ({@code hostLink.rateGbps}, {@code links[].a})
     * @param type         "integer", "number", "boolean", "string", "list of numbers", "fat-tree | leaf-spine" ...
     * @param defaultValue the default as a scenario tree value (maps, lists, scalars); null when required
     * @param required     true when a scenario must give it (there is no default)
     * @param doc          the {@code @Doc} text, "" if none
     */
    public record Field(String name, String type, Object defaultValue, boolean required, String doc) {
        public Field {
            // such as FailedLink.MISSING or an event's NaN time: a default that only marks "not given"
            if (PLACEHOLDER.equals(defaultValue) || defaultValue instanceof Double d && d.isNaN()) {
                defaultValue = null;
                required = true;
            }
        }

        /** The default as short text: {@code 800}, {@code [0.05, 0.1]}, {@code {rateGbps: 800, delayNs: 500}}, "required". */
        public String defaultText() {
            return required ? "required" : inline(defaultValue);
        }
    }

    /**
     * The help text of {@code lbsim explain NAME}: NAME is {@code scenario}, a scenario key or dotted
     * path ({@code switches.pfc}, {@code failures.links}), a type name ({@code ofan}, {@code fat-tree},
     * optionally followed by a key: {@code leaf-spine.hostLink}) or a kind ({@code schemes}).
     *
     * @throws ScenarioException for a name or key that does not exist, with the closest valid one
     */
    public static String explain(String name) {
        return Explainer.explain(name);
    }

    /** The text of {@code lbsim list KIND}: one line per entry with its name, summary and [source]. */
    public static String list(Kind kind) {
        return Explainer.listing(kind);
    }

    // --- kinds and entries ----------------------------------------------------------------------

    /** Every entry of every kind whose name is {@code name} (normally zero or one). */
    public static List<Entry> find(String name) {
        List<Entry> out = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Entry e : k.entries()) {
                if (e.name().equals(name)) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /**
     * The types a scenario can choose at {@code path} ({@code topology}, {@code switches.buffer},
     * {@code loadBalancing} ...), with their default parameters.
     *
     * @throws ScenarioException if the path does not exist or does not choose a type
     */
    public static List<Entry> choices(String path) {
        Node n = Resolver.forSchema().resolve(path);
        if (!(n instanceof Choice c)) {
            throw new ScenarioException(path, "does not choose a type");
        }
        return c.entries();
    }

    /** Every entry name of every kind, in kind order. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Entry e : k.entries()) {
                if (!out.contains(e.name())) {
                    out.add(e.name());
                }
            }
        }
        return out;
    }

    /**
     * What figures and legends call the value {@code value} of a scenario column such as {@code loadBalancing.type}
     * or {@code trafficClasses[0].lossRecovery.type}: the registry's display name ({@code HOST PKT} for
     * {@code host-spray}). Empty when the column does not name a registered component or the value is not one.
     */
    public static Optional<String> displayName(String column, String value) {
        if (column == null || value == null || !column.endsWith(".type")) {
            return Optional.empty();
        }
        String owner = column.substring(0, column.length() - ".type".length());
        String field = owner.substring(Math.max(owner.lastIndexOf('.'), owner.lastIndexOf(']')) + 1);
        return Registries.forField(field).flatMap(r -> r.displayName(value));
    }

    /** The registry a {@code ComponentSpec} field of Scenario draws from. */
    static Registry<?> registry(String field) {
        return Registries.forField(field)
                .orElseThrow(() -> new IllegalStateException("no registry known for the ComponentSpec field '" + field + "' of Scenario"));
    }

    /** The choice (sealed interface or component) at a fixed scenario path such as {@code switches.buffer}. */
    static Choice choiceAt(String path) {
        Node n = Resolver.forSchema().resolve(path);
        if (!(n instanceof Choice c)) {
            throw new IllegalStateException(path + " is not a type choice in Scenario");
        }
        return c;
    }

    // --- the schema as nodes --------------------------------------------------------------------

    /** A place in the scenario tree. */
    sealed interface Node permits Group, Choice, ListOf, Value {
        String path();

        String doc();
    }

    /** A record: a map with fixed keys. {@code defaults} is null when every key is required. */
    record Group(String path, String doc, Class<?> type, Object defaults, Entry entry) implements Node {
        List<String> keys() {
            return fieldNames(type);
        }
    }

    /**
     * A map whose {@code type:} picks a variant (sealed interface) or a component (registry).
     * {@code current} is the chosen or default entry, null if there is no default.
     */
    record Choice(String path, String doc, String label, List<Entry> entries, Entry current) implements Node {
        List<String> names() {
            return entries.stream().map(Entry::name).toList();
        }

        Optional<Entry> entry(String name) {
            return entries.stream().filter(e -> e.name().equals(name)).findFirst();
        }
    }

    /** A list; {@code element} describes its items. */
    record ListOf(String path, String doc, Field field, Class<?> element) implements Node {
    }

    /** A scalar. */
    record Value(String path, String doc, Field field) implements Node {
    }

    /** The choice a sealed interface or ComponentSpec makes, with {@code chosenType} (or the default) as current. */
    static Choice choice(String path, String doc, Class<?> raw, RecordComponent field, Object defaults, String chosenType) {
        List<Entry> entries = new ArrayList<>();
        String label;
        String defaultName = null;
        if (raw == ComponentSpec.class) {
            Registry<?> registry = registry(field.getName());
            label = registry.kind();
            for (Component<?> c : registry.all()) {
                entries.add(new Entry(label, path, c.name(), c.displayName(), c.headline(), c.source() == null ? "" : c.source(),
                        c.paramsType(), c.defaults()));
            }
            if (defaults instanceof ComponentSpec spec) {
                defaultName = spec.type();
            }
        } else {
            label = kindName(raw);
            for (Class<?> v : raw.getPermittedSubclasses()) {
                TypeName t = v.getAnnotation(TypeName.class);
                if (!v.isRecord() || t == null) {
                    continue; // the binder rejects such a variant too; nothing to list
                }
                Object def = defaults != null && defaults.getClass() == v ? defaults : variantDefaults(raw, v);
                @SuppressWarnings("unchecked")
                Class<? extends Record> rec = (Class<? extends Record>) v;
                entries.add(new Entry(label, path, t.value(), t.value(), doc(v.getAnnotation(Doc.class)), "", rec, (Record) def));
            }
            if (defaults != null && defaults.getClass().getAnnotation(TypeName.class) != null) {
                defaultName = defaults.getClass().getAnnotation(TypeName.class).value();
            }
        }
        String pick = chosenType != null ? chosenType : defaultName;
        Entry current = null;
        for (Entry e : entries) {
            if (e.name().equals(pick)) {
                current = e;
            }
        }
        // the default parameters of the chosen entry are the position's defaults when it is the default type
        if (current != null && pick.equals(defaultName) && defaults != null) {
            Record params = defaults instanceof ComponentSpec spec ? spec.params() : (Record) defaults;
            current = new Entry(current.label(), current.path(), current.name(), current.displayName(), current.summary(), current.source(),
                    current.type(), params);
        }
        return new Choice(path, doc, label, List.copyOf(entries), current);
    }

    /** A variant's own {@code defaults()}, else its interface's if that is of the variant's class, else null. */
    private static Object variantDefaults(Class<?> sealed, Class<?> variant) {
        Object own = staticDefaults(variant);
        if (own != null) {
            return own;
        }
        Object parent = staticDefaults(sealed);
        return parent != null && parent.getClass() == variant ? parent : null;
    }

    // --- flattening records into fields ----------------------------------------------------------

    static void flatten(Class<?> record, Object defaults, String prefix, String docPrefix, List<Field> out) {
        for (RecordComponent c : record.getRecordComponents()) {
            String name = prefix + c.getName();
            String doc = docPrefix + doc(c.getAnnotation(Doc.class));
            org.lbsim.scenario.IntDefault optional = c.getAnnotation(org.lbsim.scenario.IntDefault.class);
            Object def = defaults != null ? read(c, defaults) : optional != null ? (Object) optional.value() : null;
            boolean required = defaults == null && optional == null;
            Class<?> raw = c.getType();
            if (raw == ComponentSpec.class || raw.isSealed() && raw.isInterface()) {
                Choice ch = choice(name, doc, raw, c, def, null);
                out.add(new Field(name + ".type", String.join(" | ", ch.names()),
                        ch.current() == null ? null : ch.current().name(), required || ch.current() == null, doc));
                if (ch.current() != null) {
                    flatten(ch.current().type(), ch.current().defaults(), name + ".", doc + " (" + ch.current().name() + "): ", out);
                }
            } else if (raw.isRecord()) {
                Object nested = def != null ? def : staticDefaults(raw);
                flatten(raw, nested, name + ".", doc.isEmpty() ? "" : doc + ": ", out);
            } else if (raw == List.class && elementType(c.getGenericType()) instanceof Class<?> el && el.isRecord()) {
                out.add(new Field(name, typeText(raw, c.getGenericType()), tree(def), required, doc));
                flatten(el, staticDefaults(el), name + "[].", "", out);
            } else {
                out.add(new Field(name, typeText(raw, c.getGenericType()), tree(def), required, doc));
            }
        }
    }

    /** The fields of one record, not flattened (nested maps are one field each). */
    static List<Field> fields(Class<?> record, Object defaults) {
        List<Field> out = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) {
            org.lbsim.scenario.IntDefault optional = c.getAnnotation(org.lbsim.scenario.IntDefault.class);
            Object def = defaults != null ? read(c, defaults) : optional != null ? (Object) optional.value() : null;
            out.add(new Field(c.getName(), typeText(c.getType(), c.getGenericType()), tree(def), defaults == null && optional == null,
                    doc(c.getAnnotation(Doc.class))));
        }
        return out;
    }

    // --- reflection helpers ----------------------------------------------------------------------

    static Object read(RecordComponent c, Object record) {
        try {
            Method m = c.getAccessor();
            m.setAccessible(true);
            return m.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + record.getClass().getSimpleName() + "." + c.getName(), e);
        }
    }

    /** The value of {@code type}'s static {@code defaults()}, or null if it has none. */
    static Object staticDefaults(Class<?> type) {
        try {
            Method m = type.getDeclaredMethod("defaults");
            if (!Modifier.isStatic(m.getModifiers()) || !type.isAssignableFrom(m.getReturnType()) || m.getParameterCount() != 0) {
                return null;
            }
            m.setAccessible(true);
            return m.invoke(null);
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + type.getName() + ".defaults()", e);
        }
    }

    static List<String> fieldNames(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).toList();
    }

    static RecordComponent component(Class<?> record, String name) {
        for (RecordComponent c : record.getRecordComponents()) {
            if (c.getName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    static Type elementType(Type generic) {
        return generic instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : null;
    }

    /** "topology" for TopologySpec, "buffer" for BufferSpec: how the binder names a sealed kind. */
    static String kindName(Class<?> sealed) {
        String s = sealed.getSimpleName();
        if (s.endsWith("Spec")) {
            s = s.substring(0, s.length() - 4);
        }
        return s.toLowerCase(Locale.ROOT);
    }

    static String doc(Doc d) {
        return d == null ? "" : d.value();
    }

    /** How a field's type reads in help text. */
    static String typeText(Class<?> raw, Type generic) {
        if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class
                || raw == short.class || raw == Short.class || raw == byte.class || raw == Byte.class) {
            return "integer";
        }
        if (raw == double.class || raw == Double.class || raw == float.class || raw == Float.class) {
            return "number";
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return "boolean";
        }
        if (raw == String.class) {
            return "string";
        }
        if (raw.isEnum()) {
            return Arrays.stream(raw.getEnumConstants()).map(e -> ((Enum<?>) e).name()).collect(Collectors.joining(" | "));
        }
        if (raw == List.class) {
            Type el = elementType(generic);
            if (el instanceof Class<?> c) {
                String t = typeText(c, c);
                return "list of " + (t.equals("map") || t.startsWith("map ") ? "maps" : t.equals("integer") ? "integers"
                        : t.equals("number") ? "numbers" : t.equals("string") ? "strings" : t.equals("boolean") ? "booleans" : t);
            }
            return "list";
        }
        if (raw == ComponentSpec.class) {
            return "map with type:";
        }
        if (raw.isSealed() && raw.isInterface()) {
            return "map with type:";
        }
        return "map";
    }

    static Object tree(Object value) {
        return value == null ? null : ScenarioTree.toTreeValue(value);
    }

    /**
     * A scenario tree value as one line of YAML flow text: {@code 800}, {@code 0.2}, {@code true},
     * {@code [0.05, 0.1]}, {@code {rateGbps: 800, delayNs: 500}}. Whole doubles lose their ".0".
     */
    public static String inline(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return Double.toString(d);
        }
        if (v instanceof Map<?, ?> m) {
            return m.entrySet().stream().map(e -> e.getKey() + ": " + inline(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        if (v instanceof List<?> l) {
            return l.stream().map(Catalog::inline).collect(Collectors.joining(", ", "[", "]"));
        }
        if (v instanceof String s && s.isEmpty()) {
            return "\"\"";
        }
        return String.valueOf(v);
    }

    /** ", did you mean 'x'?" or "". */
    static String didYouMean(String given, List<String> allowed) {
        return Suggestions.closest(given, allowed).map(s -> ", did you mean '" + s + "'?").orElse("");
    }

    /** The error for a key a map does not have, worded as the binder words it. */
    static ScenarioException unknownKey(String path, String key, List<String> allowed, String typeLabel, String belongsTo) {
        StringBuilder sb = new StringBuilder("unknown key");
        String suggestion = didYouMean(key, allowed);
        sb.append(suggestion);
        if (suggestion.isEmpty() && belongsTo != null) {
            sb.append(" for ").append(typeLabel).append(", it belongs to ").append(belongsTo)
                    .append(": add 'type: ").append(belongsTo).append("'");
        }
        sb.append(" (allowed keys").append(typeLabel == null ? "" : " for " + typeLabel).append(": ")
                .append(String.join(", ", allowed)).append(")");
        return new ScenarioException(path.isEmpty() ? key : path + "." + key, sb.toString());
    }

    /** The scenario every missing key falls back to. */
    static Scenario defaults() {
        return ScenarioDefaults.scenario();
    }
}
