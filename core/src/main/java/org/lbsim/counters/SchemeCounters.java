package org.lbsim.counters;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lbsim.spi.CounterSink;

/** A {@link CounterSink} that keeps the counters in report order, summing repeated names (longs stay longs). */
public final class SchemeCounters implements CounterSink {
    private final Map<String, Number> values = new LinkedHashMap<>();

    @Override
    public void add(String name, long value) {
        values.merge(name, value, (a, b) -> a instanceof Long x && b instanceof Long y ? (Number) (x + y)
                : (Number) (a.doubleValue() + b.doubleValue()));
    }

    @Override
    public void add(String name, double value) {
        values.merge(name, value, (a, b) -> a.doubleValue() + b.doubleValue());
    }

    /** The counters so far, in the order they were first reported. */
    public Map<String, Number> values() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
