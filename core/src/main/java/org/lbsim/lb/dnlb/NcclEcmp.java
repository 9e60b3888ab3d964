package org.lbsim.lb.dnlb;

import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * CTCCL 4's baseline, NCCL + ECMP: NCCL keeps its connections (and their queue pairs) for the whole
 * run, and the RNIC derives each queue pair's RoCE source port from its queue pair numbers, so queue
 * pair q between two NICs has one port in [0xC000, 0xFFFF] for every step of every collective;
 * switches hash. Unlike {@code ecmp}, whose queue pairs draw a fresh entropy for each flow (each
 * ring step here), a hash collision stays for the whole run, as on the testbed (Fig. 6b).
 */
public final class NcclEcmp implements LoadBalancer {
    /** No parameters. */
    public record Params() {
    }

    private long salt;
    private boolean salted;

    public NcclEcmp(Params p) {
    }

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        if (!salted) {
            salt = host.rng().nextLong(); // the run's QP numbering, from its seed
            salted = true;
        }
        int sport = sourcePort(salt, host.qp().src(), host.qp().dst(), host.qp().qpIndex());
        return EntropyPolicy.fixed(sport);
    }

    /** The port of queue pair q of the connection src -> dst: fixed for the run. */
    static int sourcePort(long salt, int src, int dst, int q) {
        long z = salt ^ ((long) src << 40) ^ ((long) dst << 18) ^ q;
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        z ^= z >>> 33;
        return PortSegments.FIRST_PORT + (int) ((z >>> 1) % PortSegments.RANGE);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new EcmpHashSelector(sw.fib(), sw.rng().nextLong());
    }
}
