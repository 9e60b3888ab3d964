package org.lbsim.registry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registries by the scenario field that names a component of theirs ({@code loadBalancing},
 * {@code congestionControl}, {@code lossRecovery}, wherever in a scenario such a field is): the one
 * table the binder, the catalog and the partitioned run's checks read.
 */
public final class Registries {
    private static final Map<String, Registry<?>> BY_FIELD = byField();

    private Registries() {
    }

    private static Map<String, Registry<?>> byField() {
        Map<String, Registry<?>> m = new LinkedHashMap<>();
        m.put("loadBalancing", LoadBalancers.REGISTRY);
        m.put("congestionControl", CongestionControls.REGISTRY);
        m.put("lossRecovery", LossRecoveries.REGISTRY);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The registry a component field named {@code field} draws from, or empty when no registry has that field. */
    public static Optional<Registry<?>> forField(String field) {
        return Optional.ofNullable(BY_FIELD.get(field));
    }

    /** The component fields, in the order scenarios list them. */
    public static List<String> fields() {
        return List.copyOf(BY_FIELD.keySet());
    }
}
