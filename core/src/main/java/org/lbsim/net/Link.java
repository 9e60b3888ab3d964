package org.lbsim.net;

import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;

/**
 * One direction of a cable: a delay line. Packets leave in the order they entered, so the link
 * keeps them in a FIFO and has exactly one pending wake-up, for the head's arrival. The FIFO is a
 * ring of (arrival time, packet) in two parallel arrays, so that scheduling the next head reads a
 * primitive array instead of the next packet, which is cold in large fabrics (issue 21).
 */
public final class Link implements EventHandler {
    private static final int INITIAL_RING = 8;
    private final Simulator sim;
    private final int handlerId;
    private final int port;
    private final int peerPort;
    private final long delayPs;
    /** The ring: slots head .. head + count - 1 (mod capacity, a power of two). */
    private Packet[] ringPackets = new Packet[INITIAL_RING];
    private long[] ringArrivalPs = new long[INITIAL_RING];
    private int head;
    private int count;
    private final Network network;
    private PacketReceiver receiver;
    private boolean down;
    private long lostPackets;
    /** Changes when the link fails during the run, so the wake-up of the packets it lost is recognised as stale. */
    private long epoch;

    Link(Network network, int port, int peerPort, long delayPs) {
        this.network = network;
        this.sim = network.simulator();
        this.port = port;
        this.peerPort = peerPort;
        this.delayPs = delayPs;
        this.handlerId = sim.register(this);
    }

    void connect(PacketReceiver r) {
        this.receiver = r;
    }

    public long delayPs() {
        return delayPs;
    }

    public boolean isDown() {
        return down;
    }

    void setDown(boolean down) {
        this.down = down;
    }

    /**
     * The link fails now: the packets on the wire are lost (counted as link loss of this port's
     * layer) and their pending arrival is cancelled. Returns how many were lost.
     */
    int failNow() {
        down = true;
        int n = 0;
        while (count > 0) {
            Packet p = poll();
            lostPackets++;
            network.dropOnLink(p, port);
            n++;
        }
        if (n > 0) {
            epoch++;
        }
        return n;
    }

    public int inFlight() {
        return count;
    }

    public long lostPackets() {
        return lostPackets;
    }

    /** The last bit of {@code p} leaves the sending port at {@code lastBitPs}. */
    void transmit(Packet p, long lastBitPs) {
        if (down) {
            lostPackets++;
            network.dropOnLink(p, port);
            return;
        }
        long arrivalPs = lastBitPs + delayPs;
        if (count == ringPackets.length) {
            grow();
        }
        int slot = (head + count) & (ringPackets.length - 1);
        ringPackets[slot] = p;
        ringArrivalPs[slot] = arrivalPs;
        count++;
        if (count == 1) {
            sim.schedule(handlerId, arrivalPs, 0, epoch);
        }
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (tag != epoch) {
            return; // the packets it was for were lost when the link failed
        }
        Packet p = poll();
        if (count > 0) {
            sim.schedule(handlerId, ringArrivalPs[head], 0, epoch);
        }
        receiver.receive(p, peerPort);
    }

    private Packet poll() {
        Packet p = ringPackets[head];
        ringPackets[head] = null;
        head = (head + 1) & (ringPackets.length - 1);
        count--;
        return p;
    }

    /** Doubles the ring, unwrapping it; a link only grows to the most frames it ever had in flight. */
    private void grow() {
        int cap = ringPackets.length;
        Packet[] packets = new Packet[cap * 2];
        long[] arrivals = new long[cap * 2];
        for (int i = 0; i < count; i++) {
            packets[i] = ringPackets[(head + i) & (cap - 1)];
            arrivals[i] = ringArrivalPs[(head + i) & (cap - 1)];
        }
        ringPackets = packets;
        ringArrivalPs = arrivals;
        head = 0;
    }
}
