package org.lbsim.testing;

import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;

/** Test helper: packets made by hand, the fields a test does not name left as the pool hands them out (zero). */
public final class Packets {
    private Packets() {
    }

    /** A data packet of queue pair {@code flow} from host {@code src} to host {@code dst}, PSN {@code psn}, {@code sizeBytes} on the wire. */
    public static Packet data(PacketPool pool, int flow, int src, int dst, int psn, int sizeBytes) {
        return of(pool, Packet.DATA, flow, src, dst, psn, sizeBytes);
    }

    /** As {@link #data}, of kind {@code kind}. */
    public static Packet of(PacketPool pool, byte kind, int flow, int src, int dst, int psn, int sizeBytes) {
        Packet p = pool.acquire();
        p.kind = kind;
        p.flow = flow;
        p.src = src;
        p.dst = dst;
        p.psn = psn;
        p.sizeBytes = sizeBytes;
        return p;
    }

    /** An ACK of PSN {@code psn} carrying the cumulative ack {@code cumAck}. */
    public static Packet ack(PacketPool pool, int psn, int cumAck) {
        Packet p = pool.acquire();
        p.kind = Packet.ACK;
        p.psn = psn;
        p.cumAck = cumAck;
        return p;
    }
}
