package org.lbsim.registry;

import org.lbsim.net.OverflowPolicy;
import org.lbsim.net.PacketTrimming;

/** Every switch overflow policy a scenario can name ({@code switches.overflow}): what a port does with a packet its buffer refuses. */
public final class OverflowPolicies {
    /** Neither policy takes parameters. */
    public record NoParams() {
    }

    public static final Registry<OverflowPolicy.Factory> REGISTRY = new Registry<>("overflow policy", java.util.Set.of(Capability.PARTITION_SAFE),
            Component.of("drop-tail", "drop-tail", "a packet the buffer refuses is dropped", "every lossy switch",
                    new NoParams(), p -> (network, headerBytes) -> OverflowPolicy.DROP_TAIL, Capability.PARTITION_SAFE),
            Component.of("trim", "trimming", "a data packet the buffer refuses loses its payload; its header goes on ahead of the data and the receiver NACKs its PSN",
                    "NDP (SIGCOMM 2017) 3.1; csg-htsim compositequeue.cpp", new NoParams(), p -> PacketTrimming::new, Capability.PARTITION_SAFE));

    private OverflowPolicies() {
    }
}
