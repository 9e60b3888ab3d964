package org.lbsim.lb;

import org.lbsim.registry.Component;
import org.lbsim.registry.Registry;

/** Every load-balancing scheme a scenario can name. Adding one is a class plus one line here. */
public final class LoadBalancers {
    public static final Registry<LoadBalancer> REGISTRY = new Registry<>("load-balancing scheme",
            Component.of("ecmp", "FLOW: per-flow ECMP, one fixed entropy per queue pair, switches hash", "OFAN 3.2 (1)",
                    new FlowEcmp.Params(), p -> new FlowEcmp()),
            Component.of("host-spray", "HOST_PKT: fresh random entropy on every packet, switches hash (OPS)", "OFAN 3.2 (4)",
                    new HostPacketSpray.Params(), p -> new HostPacketSpray()));

    private LoadBalancers() {
    }
}
