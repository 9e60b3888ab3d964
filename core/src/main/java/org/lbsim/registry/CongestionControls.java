package org.lbsim.registry;

import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.cc.MSwift;
import org.lbsim.spi.CongestionControlFactory;

/** Every congestion-control algorithm a scenario can name. */
public final class CongestionControls {
    public static final Registry<CongestionControlFactory> REGISTRY = new Registry<>("congestion control", java.util.Set.of(Capability.PARTITION_SAFE),
            Component.of("fixed-rate", "ideal fixed rate", "sender at line rate or rho_max; never reacts to the network",
                    "OFAN 4, App. A", new FixedRate.Params(false, 0, true), FixedRate::factory, Capability.PARTITION_SAFE),
            Component.of("dcqcn", "DCQCN", "rate cut on CNP or NACK (checked every T_D), alpha every 1 us, fast recovery, additive and hyper increase (T_I timer, optional byte counter), as RNICs run it",
                    "DCQCN (SIGCOMM 2015); Themis 2.2; PRO 5", Dcqcn.Params.defaults(), Dcqcn::factory, Capability.PARTITION_SAFE),
            Component.of("mswift", "MSwift", "Swift's delay-target window (target = unloaded RTT + 113 KB at line rate), robust to spraying",
                    "OFAN 8.3, App. H", new MSwift.Params(113_000, 1, 0.8, 0.5, 0.01), MSwift::factory));

    private CongestionControls() {
    }
}
