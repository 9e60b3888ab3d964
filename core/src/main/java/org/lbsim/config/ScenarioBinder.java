package org.lbsim.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.registry.Component;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;

/**
 * Turns a generic tree (maps, lists, strings, numbers, booleans, as YAML or JSON parsers produce)
 * into a {@link Scenario}, by reflection over the scenario records.
 *
 * <ul>
 *   <li>Every key is optional: a missing key takes its value from the enclosing default
 *       (the record type's {@code defaults()}, or {@link ScenarioDefaults} for the scenario).</li>
 *   <li>{@code type:} picks the variant of a sealed interface by its {@code @TypeName}, or a
 *       component from its registry; the other keys of that map bind the variant's or the
 *       component's parameter record.</li>
 *   <li>Strict: unknown keys, wrong value types, fractional or out-of-range integers are errors.</li>
 *   <li>Every error is a {@link ScenarioException} whose field is the full path, such as
 *       {@code failures.links[2].a}.</li>
 * </ul>
 */
public final class ScenarioBinder {
    /** 2^53: every integer below it is exact as a double; from it on, a decimal may stand for a neighbouring integer. */
    private static final double EXACT_DOUBLE_INTEGERS = 9007199254740992.0;

    private ScenarioBinder() {
    }

    /** Binds a whole scenario; {@code tree} must be a map (a missing file content is an error). */
    public static Scenario bind(Object tree) {
        if (tree == null) {
            throw new ScenarioException("", "the scenario is empty; expected a map with keys such as "
                    + String.join(", ", Schema.fieldNames(Scenario.class)));
        }
        if (!(tree instanceof Map)) {
            throw new ScenarioException("", "expected a map of scenario keys (" + String.join(", ", Schema.fieldNames(Scenario.class))
                    + ") at the top level, got " + describe(tree));
        }
        return bindRecord(Scenario.class, tree, ScenarioDefaults.scenario(), "", null);
    }

    /**
     * Binds any scenario record (or sealed scenario interface) on its own, with its type's
     * {@code defaults()} for missing keys. Errors name fields relative to {@code path}.
     */
    public static <T> T bind(Class<T> type, Object tree, String path) {
        return type.cast(value(type, type, null, tree, Schema.staticDefaults(type), path));
    }

    // ---------------------------------------------------------------------------------------

    private static Object value(Class<?> raw, Type generic, RecordComponent field, Object node, Object fallback, String path) {
        if (raw == ComponentSpec.class) {
            if (field == null) {
                throw new IllegalStateException("a ComponentSpec can only be bound as a field of Scenario");
            }
            return component(Schema.registryOf(field.getName()), node, (ComponentSpec) fallback, path);
        }
        if (raw.isInterface() && raw.isSealed()) {
            return sealed(raw, node, fallback, path);
        }
        if (raw.isRecord()) {
            Object fb = fallback != null ? fallback : Schema.staticDefaults(raw);
            return bindRecord(raw, node, fb, path, null);
        }
        if (raw == List.class) {
            return list(generic, node, path);
        }
        return scalar(raw, node, path);
    }

    /**
     * @param fallback  where missing keys come from; null = every key is required
     * @param typeLabel non-null for a {@code type:}-selected map: the type name, and {@code type} is an allowed key
     */
    private static <R> R bindRecord(Class<R> type, Object node, Object fallback, String path, String typeLabel) {
        Map<?, ?> map = map(node, path);
        RecordComponent[] fields = type.getRecordComponents();
        List<String> allowed = new ArrayList<>();
        if (typeLabel != null) {
            allowed.add("type");
        }
        allowed.addAll(Schema.fieldNames(type));
        // every error of the map at once: unknown keys, then each field's own errors
        List<ScenarioException> errors = new ArrayList<>();
        for (Object key : map.keySet()) {
            if (!(key instanceof String k)) {
                errors.add(new ScenarioException(path, "keys must be names, got " + describe(key)));
            } else if (!allowed.contains(k)) {
                errors.add(new ScenarioException(join(path, k), unknownKey(k, allowed, type, typeLabel)));
            }
        }
        Object[] args = new Object[fields.length];
        Class<?>[] types = new Class<?>[fields.length];
        for (int i = 0; i < fields.length; i++) {
            RecordComponent f = fields[i];
            types[i] = f.getType();
            String name = f.getName();
            Object fieldFallback = fallback == null ? null : read(f, fallback);
            if (map.containsKey(name)) {
                try {
                    args[i] = value(f.getType(), f.getGenericType(), f, map.get(name), fieldFallback, join(path, name));
                } catch (ScenarioException e) {
                    errors.add(e);
                }
            } else if (fallback != null) {
                args[i] = fieldFallback;
            } else if (f.getAnnotation(org.lbsim.scenario.IntDefault.class) != null) {
                args[i] = f.getAnnotation(org.lbsim.scenario.IntDefault.class).value();
            } else {
                String doc = Schema.doc(f);
                errors.add(new ScenarioException(join(path, name), "is required" + (typeLabel == null ? "" : " for type '" + typeLabel + "'")
                        + (doc == null ? "" : " (" + doc + ")")));
            }
        }
        if (!errors.isEmpty()) {
            throw ScenarioException.of(errors); // checks across fields run only on fields that bound
        }
        return construct(type, types, args, path);
    }

    private static <R> R construct(Class<R> type, Class<?>[] types, Object[] args, String path) {
        try {
            Constructor<R> ctor = type.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ScenarioException se) {
                throw se.under(path);
            }
            if (cause instanceof IllegalArgumentException) {
                throw new ScenarioException(path, String.valueOf(cause.getMessage()));
            }
            throw new IllegalStateException("cannot build " + type.getSimpleName() + " at '" + path + "'", cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
        }
    }

    private static Object read(RecordComponent f, Object record) {
        try {
            Method m = f.getAccessor();
            m.setAccessible(true);
            return m.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + f.getName(), e);
        }
    }

    private static Object sealed(Class<?> iface, Object node, Object fallback, String path) {
        Map<?, ?> map = typedMap(node, path);
        List<String> names = Schema.variantNames(iface);
        Class<?> variant;
        if (map.containsKey("type")) {
            String name = typeName(map.get("type"), path, names);
            variant = Schema.variant(iface, name);
            if (variant == null) {
                throw new ScenarioException(join(path, "type"), "unknown " + Schema.kindName(iface) + " type '" + name + "'"
                        + Suggestions.didYouMean(name, names) + " (allowed: " + String.join(", ", names) + ")");
            }
        } else {
            Object def = fallback != null ? fallback : Schema.staticDefaults(iface);
            if (def == null) {
                throw new ScenarioException(join(path, "type"), "is required (one of " + String.join(", ", names) + ")");
            }
            variant = def.getClass();
        }
        Object variantFallback = fallback != null && fallback.getClass() == variant ? fallback : Schema.staticDefaults(variant);
        return bindRecord(variant, withoutType(map), variantFallback, path, Schema.typeName(variant));
    }

    private static ComponentSpec component(Registry<?> registry, Object node, ComponentSpec fallback, String path) {
        Map<?, ?> map = typedMap(node, path);
        List<String> names = registry.names();
        String name;
        if (map.containsKey("type")) {
            name = typeName(map.get("type"), path, names);
        } else if (fallback != null) {
            name = fallback.type();
        } else {
            throw new ScenarioException(join(path, "type"), "is required (one of " + String.join(", ", names) + ")");
        }
        Component<?> c = registry.find(name).orElse(null);
        if (c == null) {
            throw new ScenarioException(join(path, "type"), "unknown " + registry.kind() + " '" + name + "'"
                    + Suggestions.didYouMean(name, names) + " (allowed: " + String.join(", ", names) + ")");
        }
        Record paramsFallback = fallback != null && fallback.type().equals(name) ? fallback.params() : c.defaults();
        Record params = bindRecord(c.paramsType(), withoutType(map), paramsFallback, path, name);
        return new ComponentSpec(name, params);
    }

    private static String typeName(Object value, String path, List<String> names) {
        if (!(value instanceof String s)) {
            throw new ScenarioException(join(path, "type"), "expected a type name (one of " + String.join(", ", names) + "), got " + describe(value));
        }
        return s;
    }

    private static Map<?, ?> withoutType(Map<?, ?> map) {
        Map<Object, Object> copy = new LinkedHashMap<>(map);
        copy.remove("type");
        return copy;
    }

    private static List<Object> list(Type generic, Object node, String path) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof List<?> items)) {
            throw new ScenarioException(path, "expected a list, got " + describe(node));
        }
        if (!(generic instanceof ParameterizedType p) || !(p.getActualTypeArguments()[0] instanceof Class<?> element)) {
            throw new IllegalStateException("unsupported list type " + generic + " at '" + path + "'");
        }
        List<Object> out = new ArrayList<>(items.size());
        Object elementDefaults = element.isRecord() || element.isSealed() ? Schema.staticDefaults(element) : null;
        for (int i = 0; i < items.size(); i++) {
            String at = path + "[" + i + "]";
            Object item = items.get(i);
            if (item == null) {
                throw new ScenarioException(at, "expected " + expected(element) + ", got " + describe(null));
            }
            out.add(value(element, element, null, item, elementDefaults, at));
        }
        return out;
    }

    /** A map with a {@code type:} key; a bare name in its place ({@code --set loadBalancing=ofan}) gets a hint. */
    private static Map<?, ?> typedMap(Object node, String path) {
        if (node instanceof String s && s.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
            throw new ScenarioException(path, "expected a map, got " + describe(node) + " (to choose the type, write " + path + ".type: " + s
                    + ", or " + path + ": {type: " + s + "})");
        }
        return map(node, path);
    }

    private static Map<?, ?> map(Object node, String path) {
        if (node == null) {
            return Map.of(); // "key:" with nothing under it: all defaults
        }
        if (!(node instanceof Map<?, ?> m)) {
            throw new ScenarioException(path, "expected a map, got " + describe(node));
        }
        return m;
    }

    private static String unknownKey(String key, List<String> allowed, Class<?> type, String typeLabel) {
        StringBuilder sb = new StringBuilder("unknown key");
        String suggestion = Suggestions.didYouMean(key, allowed);
        sb.append(suggestion);
        Class<?> sealed = Schema.sealedParent(type);
        if (suggestion.isEmpty() && sealed != null) {
            for (Class<?> other : Schema.variants(sealed)) {
                if (other != type && Schema.fieldNames(other).contains(key)) {
                    String name = Schema.typeName(other);
                    sb.append(" for ").append(typeLabel).append(", it belongs to ").append(name)
                            .append(": add 'type: ").append(name).append("'");
                    break;
                }
            }
        }
        sb.append(" (allowed keys").append(typeLabel == null ? "" : " for " + typeLabel).append(": ")
                .append(String.join(", ", allowed)).append(")");
        return sb.toString();
    }

    // --- scalars ---------------------------------------------------------------------------

    private static Object scalar(Class<?> type, Object node, String path) {
        boolean integral = type == int.class || type == Integer.class || type == long.class || type == Long.class;
        if ((integral || type == double.class || type == Double.class) && node instanceof String s && Units.unitOf(path) != null) {
            node = Units.convert(s, path, integral, describe(node)); // "1MiB", "400Gbps", "500ns" into the field's own unit
        }
        if (type == int.class || type == Integer.class) {
            return integer(node, path, Integer.MIN_VALUE, Integer.MAX_VALUE).intValue();
        }
        if (type == long.class || type == Long.class) {
            return integer(node, path, Long.MIN_VALUE, Long.MAX_VALUE).longValue();
        }
        if (type == double.class || type == Double.class) {
            if (!(node instanceof Number n)) {
                throw new ScenarioException(path, "expected a number, got " + describe(node));
            }
            double d = n.doubleValue();
            if (!Double.isFinite(d)) {
                throw new ScenarioException(path, "must be a finite number, got " + n);
            }
            if (d == 0 && node instanceof BigDecimal b && b.signum() != 0) {
                throw new ScenarioException(path, "'" + b + "' is too small to tell from 0; write 0 or a larger number");
            }
            return d;
        }
        if (type == boolean.class || type == Boolean.class) {
            if (!(node instanceof Boolean b)) {
                String hint = node instanceof String s && s.matches("(?i)yes|no|on|off|y|n") ? " (write true or false; YAML 1.1's yes, no, on"
                        + " and off are text to lbsim)" : "";
                throw new ScenarioException(path, "expected true or false, got " + describe(node) + hint);
            }
            return b;
        }
        if (type == String.class) {
            if (!(node instanceof String s)) {
                String hint = node instanceof Number || node instanceof Boolean ? " (put it in quotes to use it as text)" : "";
                throw new ScenarioException(path, "expected a string, got " + describe(node) + hint);
            }
            return s;
        }
        if (type.isEnum()) {
            return enumValue(type, node, path);
        }
        throw new IllegalStateException("unsupported scenario field type " + type.getName() + " at '" + path + "'");
    }

    private static BigInteger integer(Object node, String path, long min, long max) {
        String range = "an integer between " + min + " and " + max;
        BigInteger v;
        if (node instanceof Integer || node instanceof Long || node instanceof Short || node instanceof Byte) {
            v = BigInteger.valueOf(((Number) node).longValue());
        } else if (node instanceof BigInteger b) {
            v = b;
        } else if (node instanceof Double || node instanceof Float || node instanceof BigDecimal) {
            double d = ((Number) node).doubleValue();
            BigDecimal exact = node instanceof BigDecimal bd ? bd : (Double.isFinite(d) ? new BigDecimal(d) : null);
            if (exact == null || exact.stripTrailingZeros().scale() > 0) {
                throw new ScenarioException(path, "expected an integer, got " + describe(node));
            }
            v = exact.toBigInteger();
            boolean inRange = v.compareTo(BigInteger.valueOf(min)) >= 0 && v.compareTo(BigInteger.valueOf(max)) <= 0;
            if (inRange && !(node instanceof BigDecimal) && Math.abs(d) >= EXACT_DOUBLE_INTEGERS) {
                // a decimal such as 9.007199254740993e15 has already lost its last digits as a double
                throw new ScenarioException(path, "expected an integer written out in digits, got " + describe(node)
                        + " (from 2^53 on, a decimal may stand for a neighbouring integer)");
            }
        } else {
            throw new ScenarioException(path, "expected an integer, got " + describe(node));
        }
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new ScenarioException(path, "expected " + range + ", got " + v);
        }
        return v;
    }

    private static Object enumValue(Class<?> type, Object node, String path) {
        List<String> names = new ArrayList<>();
        for (Object c : type.getEnumConstants()) {
            names.add(((Enum<?>) c).name());
        }
        if (node instanceof String s) {
            for (Object c : type.getEnumConstants()) {
                if (((Enum<?>) c).name().equals(s)) {
                    return c;
                }
            }
            throw new ScenarioException(path, "unknown value '" + s + "'" + Suggestions.didYouMean(s, names)
                    + " (allowed: " + String.join(", ", names) + ")");
        }
        throw new ScenarioException(path, "expected one of " + String.join(", ", names) + ", got " + describe(node));
    }

    private static String expected(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "an integer";
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == List.class) {
            return "a list";
        }
        return "a map";
    }

    /** How an error message shows a value it did not expect. */
    public static String describe(Object value) {
        if (value == null) {
            return "nothing (an empty value)";
        }
        if (value instanceof String s) {
            String shown = s.length() > 40 ? s.substring(0, 37) + "..." : s;
            return "the string \"" + shown + "\"";
        }
        if (value instanceof Boolean b) {
            return "the boolean " + b;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger || value instanceof Short
                || value instanceof Byte) {
            return "the integer " + value;
        }
        if (value instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 1e15) {
                return "the number " + value;
            }
            return Double.isFinite(d) ? "the fractional number " + value : "the number " + value;
        }
        if (value instanceof Map) {
            return "a map";
        }
        if (value instanceof List) {
            return "a list";
        }
        return "a " + value.getClass().getSimpleName();
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
