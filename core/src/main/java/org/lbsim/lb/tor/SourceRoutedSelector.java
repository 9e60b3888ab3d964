package org.lbsim.lb.tor;

import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

/**
 * The port selector of the ToR-driven schemes (LetFlow, CONGA, ConWeave). Their source ToR picks a
 * path per packet and writes its index in {@link Packet#pathId}; here that index picks the uplink
 * (the ns-3 models encode the uplink as the path's first byte, e.g. letflow-routing.cc:156). At
 * later hops, and for every packet without a path (ACKs, control packets), switches hash as ECMP
 * does; a data packet's path index is mixed into that hash so different paths also spread over a
 * 3-tier fabric's upper layer.
 */
public final class SourceRoutedSelector implements PortSelector {
    private final int node;
    private final TorView tors;
    private final EcmpHashSelector ecmp;
    private final long salt;

    public SourceRoutedSelector(SwitchContext sw, TorView tors) {
        this.node = sw.node();
        this.tors = tors;
        this.salt = sw.rng().nextLong();
        this.ecmp = new EcmpHashSelector(sw.fib(), salt);
    }

    @Override
    public void onRoutingChange(Fib fib) {
        ecmp.onRoutingChange(fib);
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        if (p.pathId < 0 || p.kind != Packet.DATA) {
            return ecmp.select(p, group, ports, offset, count);
        }
        if (tors.torOf(p.src) == node) {
            return ports[offset + p.pathId % count];
        }
        long h = salt ^ ((long) p.pathId << 32) ^ ((long) p.src << 20) ^ p.dst ^ ((long) p.entropy << 44);
        h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
        h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return ports[offset + (int) ((h >>> 1) % count)];
    }
}
