package org.lbsim.net;

import java.util.Arrays;

/**
 * Recycles packets so the steady state allocates nothing. Counts acquisitions and releases so
 * tests can check that every packet is accounted for. A partitioned run ({@code --threads}) uses
 * {@link PartitionPools}, one pool per partition, chosen when the network is built, so that in a
 * sequential run this class has no loaded subclass and its calls stay monomorphic.
 */
public class PacketPool {
    private Packet[] free = new Packet[1024];
    private int freeCount;
    private int created;
    private long acquired;
    private long released;

    public Packet acquire() {
        Packet p;
        if (freeCount > 0) {
            p = free[--freeCount];
            free[freeCount] = null;
        } else {
            p = new Packet(created++);
        }
        acquired++;
        p.kind = Packet.DATA;
        p.flow = 0;
        p.src = 0;
        p.dst = 0;
        p.sizeBytes = 0;
        p.payloadBytes = 0;
        p.psn = 0;
        p.cumAck = 0;
        p.sackBits = 0;
        p.entropy = 0;
        p.pathId = -1;
        p.trafficClass = 0;
        p.ecnMarked = false;
        p.ecnEcho = false;
        p.retransmission = false;
        p.headerOnly = false;
        p.receiverComplete = false;
        p.receivedBytes = 0;
        p.sentPs = 0;
        p.nicRxPs = 0;
        p.echoSentPs = 0;
        p.echoNicRxPs = 0;
        p.schemeBits = 0;
        p.switchBits = 0;
        p.switchStampPs = 0;
        p.switchTailStampPs = 0;
        p.hops = 0;
        p.ingressPort = -1;
        p.next = null;
        p.arrivalPs = 0;
        return p;
    }

    public void release(Packet p) {
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = p;
        released++;
    }

    /** Packets handed out and not yet returned. */
    public long outstanding() {
        return acquired - released;
    }

    public long acquired() {
        return acquired;
    }

    /** Distinct packet objects ever created (the pool's high-water mark). */
    public int created() {
        return created;
    }
}
