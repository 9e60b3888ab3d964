package org.lbsim.lb;

import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Fib;

/**
 * Switch ECMP: hash of (source, destination, entropy) with a per-switch salt, modulo the number
 * of members of the group, like a switch's hash unit. Under W-ECMP a next hop holds as many
 * members (hash buckets) as its weight (OFAN 5.2; {@link WeightedChoice}).
 */
public final class EcmpHashSelector implements PortSelector {
    private final long salt;
    private Fib fib;

    public EcmpHashSelector(Fib fib, long salt) {
        this.fib = fib;
        this.salt = salt;
    }

    @Override
    public void onRoutingChange(Fib newFib) {
        this.fib = newFib;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        long h = salt ^ (((long) p.src << 40) ^ ((long) p.dst << 20) ^ (p.entropy & 0xFFFFFFFFL));
        h = mix(h);
        return ports[offset + WeightedChoice.byHash(fib, group, h >>> 1)];
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
