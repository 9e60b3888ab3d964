package org.lbsim.cli.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.api.Lbsim;
import org.lbsim.scenario.Scenario;

/**
 * A scenario flattened into the columns of {@code runs}: one entry per scalar field, keyed by its
 * dotted path ({@code topology.k}, {@code loadBalancing.type}, {@code workload.messageBytes}).
 * Integers are {@link Long}, decimals {@link Double}, flags {@link Boolean}, everything else
 * {@link String}; a list (such as {@code failures.links}) is one column holding its compact JSON
 * text. {@code name} and {@code seed} are left out: {@code runs} has them as {@code scenario_name}
 * and {@code seed}.
 */
public final class ScenarioColumns {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScenarioColumns() {
    }

    public static Map<String, Object> of(Scenario scenario) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> tree = Lbsim.tree(scenario);
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            if (e.getKey().equals("name") || e.getKey().equals("seed")) {
                continue;
            }
            flatten(e.getKey(), e.getValue(), out);
        }
        return out;
    }

    /**
     * Adds the column a field path with list indices names ({@code workload.jobs[0].bytes}), which
     * {@link #of} keeps inside its list's JSON column, as {@link #of} would store it; adds nothing
     * when the scenario has no such field.
     */
    public static void addIndexed(Scenario scenario, List<Object> path, String pathText, Map<String, Object> out) {
        Object at = Lbsim.tree(scenario);
        for (Object seg : path) {
            if (seg instanceof String key && at instanceof Map<?, ?> m && m.containsKey(key)) {
                at = m.get(key);
            } else if (seg instanceof Integer i && at instanceof List<?> l && i < l.size()) {
                at = l.get(i);
            } else {
                return;
            }
        }
        flatten(pathText, at, out);
    }

    private static void flatten(String path, Object value, Map<String, Object> out) {
        if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                flatten(path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (value instanceof List<?> l) {
            try {
                out.put(path, JSON.writeValueAsString(l));
            } catch (JsonProcessingException e) {
                out.put(path, String.valueOf(l));
            }
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            out.put(path, ((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            out.put(path, ((Number) value).doubleValue());
        } else if (value == null || value instanceof Boolean || value instanceof String) {
            out.put(path, value);
        } else {
            out.put(path, value.toString());
        }
    }

    /** The DuckDB column type of a flattened value; null for null (no column needed). */
    public static String sqlType(Object value) {
        if (value instanceof Long) {
            return "BIGINT";
        }
        if (value instanceof Double) {
            return "DOUBLE";
        }
        if (value instanceof Boolean) {
            return "BOOLEAN";
        }
        return value == null ? null : "VARCHAR";
    }
}
