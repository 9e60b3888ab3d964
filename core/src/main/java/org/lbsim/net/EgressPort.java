package org.lbsim.net;

import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;

/**
 * An output-queued switch port: a FIFO, drop-tail admission against the switch's buffer model,
 * ECN marking on enqueue, and store-and-forward serialization followed by the inter-frame gap.
 * The packet being serialized still occupies the buffer until its gap ends. One pending wake-up
 * while busy: the end of the current frame's gap.
 */
public final class EgressPort implements EventHandler {
    private final Network network;
    private final Simulator sim;
    private final int handlerId;
    private final int port;
    private final long rateMbps;
    private final long gapPs;
    private final Link link;
    private final BufferModel buffer;
    private final EcnMarker ecn;
    private final SplittableRandom rng;
    private final PacketQueue queue = new PacketQueue();

    private long queueBytes;
    private int inServiceBytes;
    private boolean busy;
    private boolean paused;

    // statistics
    private long maxQueueBytes;
    private long queueAreaBytePs;
    private long lastChangePs;
    private long drops;
    private long ecnMarks;
    private long txPackets;
    private long txBytes;

    EgressPort(Network network, int port, long rateMbps, int gapBytes, Link link, BufferModel buffer, EcnMarker ecn, SplittableRandom rng) {
        this.network = network;
        this.sim = network.simulator();
        this.port = port;
        this.rateMbps = rateMbps;
        this.gapPs = Time.serializationPs(gapBytes, rateMbps);
        this.link = link;
        this.buffer = buffer;
        this.ecn = ecn;
        this.rng = rng;
        this.handlerId = sim.register(this);
    }

    public int port() {
        return port;
    }

    /** Bytes queued here, including the frame on the wire. */
    public long queueBytes() {
        return queueBytes;
    }

    public int queuePackets() {
        return queue.size();
    }

    public Link link() {
        return link;
    }

    void enqueue(Packet p) {
        if (!buffer.admit(queueBytes, p.sizeBytes)) {
            drops++;
            network.dropAtPort(p, port);
            return;
        }
        if (p.kind == Packet.DATA && ecn.shouldMark(queueBytes, rng)) {
            if (!p.ecnMarked) {
                ecnMarks++;
            }
            p.ecnMarked = true;
        }
        accountQueue();
        queueBytes += p.sizeBytes;
        buffer.add(p.sizeBytes);
        if (queueBytes > maxQueueBytes) {
            maxQueueBytes = queueBytes;
        }
        queue.add(p);
        if (!busy && !paused) {
            startNext();
        }
    }

    private void startNext() {
        Packet p = queue.poll();
        if (p == null) {
            busy = false;
            return;
        }
        busy = true;
        long now = sim.nowPs();
        long serPs = Time.serializationPs(p.sizeBytes, rateMbps);
        txPackets++;
        txBytes += p.sizeBytes;
        // The frame keeps its buffer until its gap ends; the packet itself is handed to the link now.
        inServiceBytes = p.sizeBytes;
        sim.schedule(handlerId, now + serPs + gapPs, 0, 0);
        link.transmit(p, now + serPs);
    }

    @Override
    public void onEvent(int kind, long tag) {
        accountQueue();
        queueBytes -= inServiceBytes;
        buffer.remove(inServiceBytes);
        inServiceBytes = 0;
        if (!paused) {
            startNext();
        } else {
            busy = false;
        }
    }

    /** PFC: stop or restart transmission after the frame on the wire. */
    public void setPaused(boolean paused) {
        this.paused = paused;
        if (!paused && !busy) {
            startNext();
        }
    }

    public boolean isPaused() {
        return paused;
    }

    private void accountQueue() {
        long now = sim.nowPs();
        queueAreaBytePs += queueBytes * (now - lastChangePs);
        lastChangePs = now;
    }

    /** Closes the time integral at {@code endPs} so {@link #timeAverageQueueBytes} is exact. */
    public void finishStats(long endPs) {
        queueAreaBytePs += queueBytes * (endPs - lastChangePs);
        lastChangePs = endPs;
    }

    public double timeAverageQueueBytes(long durationPs) {
        return durationPs <= 0 ? 0 : queueAreaBytePs / (double) durationPs;
    }

    public long maxQueueBytes() {
        return maxQueueBytes;
    }

    public long drops() {
        return drops;
    }

    public long ecnMarks() {
        return ecnMarks;
    }

    public long txPackets() {
        return txPackets;
    }

    public long txBytes() {
        return txBytes;
    }
}
