package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * HOST PKT (OFAN 3.2 (4); Table 2 models it after oblivious packet spraying): the host draws a fresh random entropy for every packet and the
 * switches hash it, so every packet takes an independent, uniformly random path.
 */
public final class HostPacketSpray implements LoadBalancer {
    /** No parameters. */
    public record Params() {
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        SplittableRandom rng = host.rng();
        return (psn, retransmission) -> rng.nextInt(1 << 16);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }
}
