package org.lbsim.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.lbsim.registry.Registries;
import org.lbsim.registry.Registry;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.TypeName;

/** Reflection over the scenario records: defaults, sealed variants and their type names, registries. */
final class Schema {
    private Schema() {
    }

    static Registry<?> registryOf(String componentField) {
        return Registries.forField(componentField)
                .orElseThrow(() -> new IllegalStateException("no registry for a ComponentSpec field named '" + componentField + "'"));
    }

    /** The value of {@code type}'s {@code public static T defaults()} method, or null if it has none. */
    static Object staticDefaults(Class<?> type) {
        Method m;
        try {
            m = type.getDeclaredMethod("defaults");
        } catch (NoSuchMethodException e) {
            return null;
        }
        if (!Modifier.isStatic(m.getModifiers()) || !type.isAssignableFrom(m.getReturnType())) {
            return null;
        }
        try {
            m.setAccessible(true);
            return m.invoke(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + type.getName() + ".defaults()", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(type.getName() + ".defaults() failed", e.getCause());
        }
    }

    /** The permitted record variants of a sealed scenario interface. */
    static List<Class<?>> variants(Class<?> sealed) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> c : sealed.getPermittedSubclasses()) {
            if (!c.isRecord() || c.getAnnotation(TypeName.class) == null) {
                throw new IllegalStateException(c.getName() + " must be a record annotated with @TypeName to be a variant of " + sealed.getName());
            }
            out.add(c);
        }
        return out;
    }

    static List<String> variantNames(Class<?> sealed) {
        return variants(sealed).stream().map(Schema::typeName).toList();
    }

    static Class<?> variant(Class<?> sealed, String name) {
        for (Class<?> c : variants(sealed)) {
            if (typeName(c).equals(name)) {
                return c;
            }
        }
        return null;
    }

    static String typeName(Class<?> variant) {
        TypeName t = variant.getAnnotation(TypeName.class);
        return t == null ? null : t.value();
    }

    /** The sealed scenario interface this record is a {@code type:}-selected variant of, or null. */
    static Class<?> sealedParent(Class<?> record) {
        if (record.getAnnotation(TypeName.class) == null) {
            return null;
        }
        for (Class<?> i : record.getInterfaces()) {
            if (i.isSealed()) {
                return i;
            }
        }
        return null;
    }

    /** "topology" for TopologySpec, "buffer" for BufferSpec: how error messages name a sealed kind. */
    static String kindName(Class<?> sealed) {
        String s = sealed.getSimpleName();
        if (s.endsWith("Spec")) {
            s = s.substring(0, s.length() - 4);
        }
        return s.toLowerCase(Locale.ROOT);
    }

    static List<String> fieldNames(Class<?> record) {
        List<String> names = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    static String doc(RecordComponent c) {
        Doc d = c.getAnnotation(Doc.class);
        return d == null ? null : d.value();
    }
}
