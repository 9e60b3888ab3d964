package org.lbsim.config;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.Scenario;

/**
 * The reverse of {@link ScenarioBinder}: a scenario as a generic tree of ordered maps, lists and
 * scalars, with every field spelt out and {@code type:} first wherever a variant or component is
 * chosen. Binding the tree again gives an equal scenario.
 */
public final class ScenarioTree {
    private ScenarioTree() {
    }

    public static Map<String, Object> toTree(Scenario scenario) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) toTreeValue(scenario);
        return tree;
    }

    /** Any scenario value (record, component, list or scalar) as a tree. */
    public static Object toTreeValue(Object value) {
        if (value instanceof ComponentSpec c) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("type", c.type());
            fields(c.params(), map);
            return map;
        }
        if (value instanceof Record r) {
            Map<String, Object> map = new LinkedHashMap<>();
            if (Schema.sealedParent(r.getClass()) != null) {
                map.put("type", Schema.typeName(r.getClass()));
            }
            fields(r, map);
            return map;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(toTreeValue(o));
            }
            return out;
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        return value; // String, Number, Boolean, null
    }

    private static void fields(Record r, Map<String, Object> into) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                var accessor = c.getAccessor();
                accessor.setAccessible(true);
                into.put(c.getName(), toTreeValue(accessor.invoke(r)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + c.getName(), e);
            }
        }
    }
}
