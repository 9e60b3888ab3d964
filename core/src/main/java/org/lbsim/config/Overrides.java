package org.lbsim.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lbsim.scenario.SetException;
import org.lbsim.scenario.ScenarioException;

/**
 * {@code --set path=value}: changes a scenario tree before it is bound. The path names keys
 * separated by dots, with list elements as {@code links[0]}; missing maps on the way are created,
 * and an index equal to a list's length appends to it. The value is read as an unquoted value of
 * a scenario file ({@link Scalars}): a decimal integer or number, {@code true}/{@code false},
 * {@code null}, or else a string (quote it, as in {@code name='"2024"'}, to keep digits as text).
 */
public final class Overrides {
    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)((?:\\[[0-9]+\\])*)");
    private static final Pattern INDEX = Pattern.compile("\\[([0-9]+)\\]");

    private Overrides() {
    }

    /** One {@code --set} argument, parsed. */
    public record Assignment(String argument, List<Object> path, String pathText, Object value) {
    }

    public static Assignment parse(String argument) {
        int eq = argument.indexOf('=');
        if (eq < 0) {
            throw new SetException(argument, "", "expected PATH=VALUE, such as topology.k=4");
        }
        String pathText = argument.substring(0, eq).strip();
        List<Object> path = new ArrayList<>();
        if (pathText.isEmpty()) {
            throw new SetException(argument, "", "the path before '=' is empty; expected PATH=VALUE, such as topology.k=4");
        }
        for (String part : pathText.split("\\.", -1)) {
            Matcher m = SEGMENT.matcher(part);
            if (!m.matches()) {
                throw new SetException(argument, "", "'" + pathText + "' is not a valid path; expected keys separated by dots,"
                        + " such as topology.k or failures.links[0].a");
            }
            path.add(m.group(1));
            Matcher idx = INDEX.matcher(m.group(2));
            while (idx.find()) {
                try {
                    path.add(Integer.parseInt(idx.group(1)));
                } catch (NumberFormatException e) {
                    throw new SetException(argument, "", "list index " + idx.group(1) + " is too large");
                }
            }
        }
        String field = format(path, path.size());
        try {
            return new Assignment(argument, List.copyOf(path), field, scalar(argument.substring(eq + 1)));
        } catch (Scalars.Refused e) {
            throw new SetException(argument, field, e.getMessage());
        }
    }

    /** A new tree with every assignment applied in order; {@code tree} is not changed. */
    public static Map<String, Object> apply(Map<String, Object> tree, List<String> arguments) {
        Map<String, Object> copy = deepCopy(tree);
        for (String argument : arguments) {
            apply(copy, parse(argument));
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static void apply(Map<String, Object> root, Assignment a) {
        Object container = root;
        List<Object> path = a.path();
        for (int i = 0; i < path.size(); i++) {
            Object seg = path.get(i);
            boolean last = i == path.size() - 1;
            Object next = last ? a.value() : null;
            if (seg instanceof String key) {
                if (!(container instanceof Map)) {
                    throw notA(a, path, i, container, "map", key);
                }
                Map<String, Object> m = (Map<String, Object>) container;
                if (last) {
                    m.put(key, next);
                    return;
                }
                Object child = m.get(key);
                if (child == null) {
                    child = path.get(i + 1) instanceof Integer ? new ArrayList<>() : new LinkedHashMap<String, Object>();
                    m.put(key, child);
                }
                container = child;
            } else {
                int index = (Integer) seg;
                if (!(container instanceof List)) {
                    throw notA(a, path, i, container, "list", "[" + index + "]");
                }
                List<Object> l = (List<Object>) container;
                if (index > l.size()) {
                    throw new SetException(a.argument(), format(path, i), "has " + l.size() + " element" + (l.size() == 1 ? "" : "s")
                            + "; index " + index + " is out of range (" + l.size() + " appends an element)");
                }
                Object child = index < l.size() ? l.get(index) : null;
                if (last) {
                    if (index == l.size()) {
                        l.add(next);
                    } else {
                        l.set(index, next);
                    }
                    return;
                }
                if (child == null) {
                    child = path.get(i + 1) instanceof Integer ? new ArrayList<>() : new LinkedHashMap<String, Object>();
                    if (index == l.size()) {
                        l.add(child);
                    } else {
                        l.set(index, child);
                    }
                }
                container = child;
            }
        }
    }

    private static SetException notA(Assignment a, List<Object> path, int i, Object container, String kind, String step) {
        String where = format(path, i);
        String what = ScenarioBinder.describe(container);
        return new SetException(a.argument(), where, "is " + what + ", not a " + kind + ", so it has no " + ("map".equals(kind) ? "key '" + step + "'" : "element " + step));
    }

    /**
     * The {@code --set} argument an error is most likely due to: the last assignment whose path is
     * the error's field, lies inside it, or is the {@code type} that selects the map the field is in.
     */
    public static Optional<String> blame(List<String> arguments, ScenarioException error) {
        String field = error.field();
        String direct = null;
        String viaType = null;
        for (String argument : arguments) {
            Assignment a;
            try {
                a = parse(argument);
            } catch (SetException e) {
                continue;
            }
            String p = a.pathText();
            if (p.equals(field) || p.startsWith(field + ".") || p.startsWith(field + "[")
                    || field.startsWith(p + ".") || field.startsWith(p + "[")) {
                direct = argument;
            } else if (a.path().size() > 1 && "type".equals(a.path().get(a.path().size() - 1))
                    && field.startsWith(format(a.path(), a.path().size() - 1) + ".")) {
                viaType = argument;
            }
        }
        return Optional.ofNullable(direct != null ? direct : viaType);
    }

    /**
     * The reading of a {@code --set} value: quoted text as it is, nothing as the empty string, else
     * as a plain scalar of a scenario file ({@link Scalars#plain}, which refuses ambiguous numbers
     * such as {@code 010} or {@code 0x400} with {@link Scalars.Refused}).
     */
    public static Object scalar(String text) {
        String s = text.strip();
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1);
        }
        return s.isEmpty() ? "" : Scalars.plain(s);
    }

    /** The dotted text of the first {@code n} segments, such as {@code failures.links[0]}. */
    private static String format(List<Object> path, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            Object seg = path.get(i);
            if (seg instanceof Integer idx) {
                sb.append('[').append(idx).append(']');
            } else {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(seg);
            }
        }
        return sb.toString();
    }

    /** A copy of a scenario tree whose maps and lists can be changed without touching the original. */
    @SuppressWarnings("unchecked")
    public static <T> T deepCopy(T value) {
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(k, deepCopy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            for (Object o : l) {
                copy.add(deepCopy(o));
            }
            return (T) copy;
        }
        return value;
    }
}
