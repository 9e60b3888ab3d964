package org.lbsim.registry;

import java.util.function.Function;

/**
 * One selectable implementation: its name in scenarios, the name papers and figures give it, a
 * one-line summary, where it comes from, the record type of its parameters with their defaults, and
 * how to build it.
 *
 * @param name        what a scenario writes ({@code type: host-spray})
 * @param displayName what figures, legends and listings call it, as its paper does ({@code HOST PKT})
 * @param <T>         what the component builds (a load-balancing scheme, a congestion-control factory ...)
 */
public record Component<T>(String name, String displayName, String summary, String source, Record defaults,
                           Function<Record, T> factory) {

    public Component {
        if (displayName == null || displayName.isBlank()) {
            throw new IllegalArgumentException("component " + name + " needs a display name");
        }
    }

    public Class<? extends Record> paramsType() {
        return defaults.getClass();
    }

    public T create(Record params) {
        return factory.apply(params);
    }

    /** The line listings show: "HOST PKT: fresh random entropy on every packet ...". */
    public String headline() {
        return displayName + ": " + summary;
    }

    /** Builds an entry whose factory sees its own parameter type. */
    public static <T, P extends Record> Component<T> of(String name, String displayName, String summary, String source, P defaults,
                                                        Function<P, T> factory) {
        @SuppressWarnings("unchecked")
        Class<P> type = (Class<P>) defaults.getClass();
        return new Component<>(name, displayName, summary, source, defaults, r -> factory.apply(type.cast(r)));
    }
}
