package org.lbsim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Boundary cases of a parameter record's range checks: a record with one numeric field replaced is
 * either built (the value just inside a bound) or refused with a {@link ScenarioException} whose
 * field is that field and whose problem states the allowed range and the value given.
 */
public final class Ranges {
    private Ranges() {
    }

    /** Whether {@code value} for {@code field} is accepted, or refused with a problem containing {@code range}. */
    public record Case(String field, Number value, boolean accepted, String range) {
        public static Case ok(String field, Number value) {
            return new Case(field, value, true, null);
        }

        public static Case refused(String field, Number value, String range) {
            return new Case(field, value, false, range);
        }

        /** Builds {@code base} with this case's field replaced and checks the verdict. */
        public void check(Record base) {
            if (accepted) {
                Record r = with(base, field, value);
                assertThat(((Number) read(r, field)).doubleValue()).as(field).isEqualTo(value.doubleValue());
                return;
            }
            ScenarioException e = catchThrowableOfType(() -> with(base, field, value), ScenarioException.class);
            assertThat(e).as("%s = %s is refused", field, value).isNotNull();
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.problem()).contains(range).contains("got ");
        }

        @Override
        public String toString() {
            return field + " = " + value + (accepted ? " accepted" : " refused");
        }
    }

    /** {@code base} with {@code field} set to {@code value} (converted to the field's type), through the canonical constructor. */
    public static <R extends Record> R with(R base, String field, Object value) {
        RecordComponent[] fields = base.getClass().getRecordComponents();
        Object[] args = new Object[fields.length];
        boolean found = false;
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].getName().equals(field)) {
                args[i] = convert(value, fields[i].getType());
                found = true;
            } else {
                args[i] = read(base, fields[i].getName());
            }
        }
        assertThat(found).as("%s has a field %s", base.getClass().getSimpleName(), field).isTrue();
        try {
            @SuppressWarnings("unchecked")
            Constructor<R> c = (Constructor<R>) base.getClass().getDeclaredConstructor(
                    Arrays.stream(fields).map(RecordComponent::getType).toArray(Class<?>[]::new));
            c.setAccessible(true);
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The record's fields of a numeric type (int, long, double). */
    public static Set<String> numericFields(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents())
                .filter(f -> f.getType() == int.class || f.getType() == long.class || f.getType() == double.class)
                .map(RecordComponent::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The fields the cases exercise on both sides of some bound. */
    public static Set<String> fieldsWithBothVerdicts(Stream<Case> cases) {
        var byField = cases.collect(Collectors.groupingBy(Case::field, Collectors.mapping(Case::accepted, Collectors.toSet())));
        return byField.entrySet().stream().filter(e -> e.getValue().size() == 2).map(java.util.Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Object read(Record r, String field) {
        try {
            var m = r.getClass().getDeclaredMethod(field);
            m.setAccessible(true);
            return m.invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object convert(Object value, Class<?> type) {
        if (value instanceof Number n) {
            if (type == int.class) {
                assertThat(n.doubleValue()).as("an int value").isEqualTo(n.intValue());
                return n.intValue();
            }
            if (type == long.class) {
                return n.longValue();
            }
            if (type == double.class) {
                return n.doubleValue();
            }
        }
        return value;
    }
}
