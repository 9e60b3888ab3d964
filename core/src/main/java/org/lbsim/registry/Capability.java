package org.lbsim.registry;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a registered component declares about itself, so that the code and the tests that depend on it
 * ask the registry instead of keeping lists of names. A load-balancing scheme declares exactly one
 * granularity ({@link #PACKET_LEVEL}, {@link #FLOWLET_LEVEL}, {@link #FLOW_LEVEL}); every component
 * may declare {@link #PARTITION_SAFE}; {@link #OWNS_PORT_CHOICE} is for load-balancing schemes only.
 */
public enum Capability {
    /**
     * Keeps all its state, its counters included, per switch, per port, per host or per queue pair (or
     * per partition, summed at the end), so a partitioned run ({@code --threads}) runs it, with the
     * results of the sequential kernel. Declared only once the scheme is in {@code PartitionedRunTest}'s
     * comparison, which runs every component that declares it.
     */
    PARTITION_SAFE("partition-safe"),
    /** May send consecutive packets of one queue pair on different paths. */
    PACKET_LEVEL("packet"),
    /** Keeps a queue pair on one path and moves it between bursts (a flowlet gap) or on congestion or failure signals. */
    FLOWLET_LEVEL("flowlet"),
    /** One path per queue pair for its whole life; only routing changes move it. */
    FLOW_LEVEL("flow"),
    /**
     * Switches choose among equal-cost ports by the scheme's own rules (path ids, ToR programs, policy
     * tables), not by the FIB's W-ECMP weights.
     */
    OWNS_PORT_CHOICE("own port choice");

    /** The granularities, one of which every load-balancing scheme declares. */
    public static final List<Capability> GRANULARITIES = List.of(PACKET_LEVEL, FLOWLET_LEVEL, FLOW_LEVEL);

    private final String label;

    Capability(String label) {
        this.label = label;
    }

    /** How listings and docs/schemes.md name it: "partition-safe", "packet", "own port choice". */
    public String label() {
        return label;
    }

    /** The granularity among {@code capabilities}, or null if it declares none. */
    public static Capability granularity(Set<Capability> capabilities) {
        for (Capability c : GRANULARITIES) {
            if (capabilities.contains(c)) {
                return c;
            }
        }
        return null;
    }

    /** An immutable set of the given capabilities. */
    public static Set<Capability> setOf(Capability... capabilities) {
        EnumSet<Capability> set = EnumSet.noneOf(Capability.class);
        set.addAll(List.of(capabilities));
        return java.util.Collections.unmodifiableSet(set);
    }
}
