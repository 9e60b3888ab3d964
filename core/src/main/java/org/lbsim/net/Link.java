package org.lbsim.net;

import org.lbsim.kernel.PayloadHandler;
import org.lbsim.kernel.Simulator;

/**
 * One direction of a cable: a delay line. Packets leave in the order they entered, so the link
 * keeps them in a FIFO threaded through {@link Packet#next}. In a partitioned run each packet's
 * arrival is a wake-up of its own, scheduled by the sender with {@link Simulator#transfer}: the
 * sending and receiving ends may be in different partitions, and only the sender knows when a packet
 * enters the wire. A sequential run keeps one pending wake-up, for the head, and schedules the next
 * when the head lands: a smaller event set (a bandwidth-delay product fewer entries per link). Both
 * run the arrivals in the same order, because the kernels' key puts the target first and a link
 * never has two arrivals at one instant; only a failing link's stale wake-ups differ in number.
 */
public final class Link implements PayloadHandler {
    private final Simulator sim;
    private int handlerId = -1;
    private final int port;
    private final int peerPort;
    private final long delayPs;
    private final Network network;
    private PacketReceiver receiver;
    private boolean down;
    private long lostPackets;
    /** Changes when the link fails during the run, so the wake-up of the packets it lost is recognised as stale. */
    private long epoch;
    /**
     * Packets the receiving end has taken in ({@link #accept}), and the first {@code discardUpTo}
     * packets sent, those the link lost when it failed, in a partitioned run some of them still waiting
     * in the sender's outbox (counted as lost then, freed when they are taken in). Written by the
     * receiving end, and between windows.
     */
    private long acceptedPackets;
    private long discardUpTo;
    /** A sequential run: one pending wake-up for the head ({@link Link}). */
    private final boolean train;
    private Packet head;
    private Packet tail;
    private int count;
    /** When the head's last bit arrives, or Long.MAX_VALUE when nothing is on the wire. */
    private long headArrivalPs = Long.MAX_VALUE;

    Link(Network network, int port, int peerPort, long delayPs) {
        this.network = network;
        this.sim = network.simulator();
        this.port = port;
        this.peerPort = peerPort;
        this.delayPs = delayPs;
        this.train = !network.simulator().partitioned();
    }

    /** Registers with the kernel; once, after the fabric's ports and NICs. */
    void register() {
        handlerId = sim.register(this);
        sim.place(handlerId, network.topology().peerNode(port)); // it delivers to the node at its far end
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
        // between windows: in a partitioned run, frames sent in the last window to a link of another partition
        // are still in the sender's outbox; they are lost now as well, counted now and freed when taken in
        long unaccepted = network.sentOnWire(port) - Math.max(acceptedPackets, discardUpTo);
        discardUpTo = network.sentOnWire(port);
        lostPackets += unaccepted;
        network.countLinkLoss(port, unaccepted);
        n += (int) unaccepted;
        if (n > 0) {
            epoch++;
        }
        return n;
    }

    /**
     * When the next packet on the wire arrives (Long.MAX_VALUE if none); every later one arrives
     * later still, and one sent from now on at least {@link #delayPs()} from now.
     */
    long nextArrivalPs() {
        return headArrivalPs;
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
        p.next = null;
        p.arrivalPs = arrivalPs;
        network.countSentOnWire(port);
        if (train) {
            accept(p);
            if (count == 1) {
                sim.schedule(handlerId, arrivalPs, 0, epoch);
            }
            return;
        }
        sim.transfer(handlerId, arrivalPs, 0, epoch, p);
    }

    /** The packet enters the wire (in a partitioned run: in the receiving partition, in sending order). */
    @Override
    public void accept(Object payload) {
        Packet p = (Packet) payload;
        if (++acceptedPackets <= discardUpTo) {
            network.lostOnLinkCounted(p); // the link failed while it waited in an outbox; its wake-up is stale
            return;
        }
        if (count == 0) {
            head = p;
            headArrivalPs = p.arrivalPs;
        } else {
            tail.next = p;
            tail.arrivalPs = p.arrivalPs; // the tail's own arrival is already known: headArrivalPs or its predecessor's field
        }
        tail = p;
        count++;
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (tag != epoch) {
            return; // the packets it was for were lost when the link failed
        }
        Packet p = poll();
        if (train && count > 0) {
            sim.schedule(handlerId, headArrivalPs, 0, epoch);
        }
        receiver.receive(p, peerPort);
    }

    private Packet poll() {
        Packet p = head;
        head = p.next;
        if (head == null) {
            tail = null;
            headArrivalPs = Long.MAX_VALUE;
        } else {
            headArrivalPs = p.arrivalPs;
        }
        p.next = null;
        count--;
        return p;
    }
}
