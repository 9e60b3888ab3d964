package org.lbsim.registry;

import java.util.function.Function;

/**
 * One selectable implementation: its name in scenarios, a one-line summary, where it comes
 * from, the record type of its parameters with their defaults, and how to build it.
 *
 * @param <T> what the component builds (a load-balancing scheme, a congestion-control factory ...)
 */
public record Component<T>(String name, String summary, String source, Record defaults, Function<Record, T> factory) {

    public Class<? extends Record> paramsType() {
        return defaults.getClass();
    }

    public T create(Record params) {
        return factory.apply(params);
    }

    /** Builds an entry whose factory sees its own parameter type. */
    public static <T, P extends Record> Component<T> of(String name, String summary, String source, P defaults,
                                                        Function<P, T> factory) {
        @SuppressWarnings("unchecked")
        Class<P> type = (Class<P>) defaults.getClass();
        return new Component<>(name, summary, source, defaults, r -> factory.apply(type.cast(r)));
    }
}
