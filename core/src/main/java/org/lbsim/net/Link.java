package org.lbsim.net;

import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;

/**
 * One direction of a cable: a delay line. Packets leave in the order they entered, so the link
 * keeps them in a FIFO and has exactly one pending wake-up, for the head's arrival.
 */
public final class Link implements EventHandler {
    private final Simulator sim;
    private final int handlerId;
    private final int port;
    private final int peerPort;
    private final long delayPs;
    private final PacketQueue inFlight = new PacketQueue();
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
        for (Packet p = inFlight.poll(); p != null; p = inFlight.poll()) {
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
        return inFlight.size();
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
        p.arrivalPs = lastBitPs + delayPs;
        boolean wasEmpty = inFlight.isEmpty();
        inFlight.add(p);
        if (wasEmpty) {
            sim.schedule(handlerId, p.arrivalPs, 0, epoch);
        }
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (tag != epoch) {
            return; // the packets it was for were lost when the link failed
        }
        Packet p = inFlight.poll();
        Packet nextHead = inFlight.peek();
        if (nextHead != null) {
            sim.schedule(handlerId, nextHead.arrivalPs, 0, epoch);
        }
        receiver.receive(p, peerPort);
    }
}
