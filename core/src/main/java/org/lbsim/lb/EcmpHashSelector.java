package org.lbsim.lb;

import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;

/**
 * Switch ECMP: hash of (source, destination, entropy) with a per-switch salt, modulo the number
 * of candidates. A stateless function of the header, like a switch's hash unit.
 */
public final class EcmpHashSelector implements PortSelector {
    private final long salt;

    public EcmpHashSelector(long salt) {
        this.salt = salt;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        long h = salt ^ (((long) p.src << 40) ^ ((long) p.dst << 20) ^ (p.entropy & 0xFFFFFFFFL));
        h = mix(h);
        return ports[offset + (int) ((h >>> 1) % count)];
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
