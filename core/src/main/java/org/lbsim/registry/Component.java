package org.lbsim.registry;

import java.util.Set;
import java.util.function.Function;

/**
 * One selectable implementation: its name in scenarios, the name papers and figures give it, a
 * one-line summary, where it comes from, the record type of its parameters with their defaults, how
 * to build it, and what it declares about itself ({@link Capability}).
 *
 * @param name         what a scenario writes ({@code type: host-spray})
 * @param displayName  what figures, legends and listings call it, as its paper does ({@code HOST PKT})
 * @param capabilities what it declares ({@link Capability}): partition-safe, its granularity, whether it owns port choice
 * @param <T>          what the component builds (a load-balancing scheme, a congestion-control factory ...)
 */
public record Component<T>(String name, String displayName, String summary, String source, Record defaults,
                           Function<Record, T> factory, Set<Capability> capabilities) {

    public Component {
        if (displayName == null || displayName.isBlank()) {
            throw new IllegalArgumentException("component " + name + " needs a display name");
        }
        capabilities = Set.copyOf(capabilities);
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

    public boolean has(Capability c) {
        return capabilities.contains(c);
    }

    /** Builds an entry whose factory sees its own parameter type, declaring {@code capabilities}. */
    public static <T, P extends Record> Component<T> of(String name, String displayName, String summary, String source, P defaults,
                                                        Function<P, T> factory, Capability... capabilities) {
        @SuppressWarnings("unchecked")
        Class<P> type = (Class<P>) defaults.getClass();
        return new Component<>(name, displayName, summary, source, defaults, r -> factory.apply(type.cast(r)), Capability.setOf(capabilities));
    }
}
