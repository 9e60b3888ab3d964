package org.lbsim.net;

import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;

/**
 * A host's network interface: a single transmitter that pulls the next frame from the host stack
 * whenever the line is free (so the stack's scheduler decides the interleaving of ACKs and data,
 * OFAN App. B) and serializes it at line rate followed by the inter-frame gap. One pending
 * wake-up at most; a stale one is recognised by its generation tag.
 */
public final class Nic implements PacketReceiver, EventHandler {
    private final Network network;
    private final Simulator sim;
    private final int handlerId;
    private final int host;
    private final int port;
    private final long rateMbps;
    /** Time.exactPsPerByte(rateMbps): a multiplication per frame instead of a division where exact. */
    private final long psPerByte;
    private final long gapPs;
    private final Link link;
    private PacketSource source;
    private long freeAtPs;
    private long pendingWakePs = Long.MAX_VALUE;
    private long generation;
    private long txPackets;
    private long txBytes;
    private long rxPackets;
    private boolean paused;
    private long pausedSincePs;
    private long pausedTotalPs;
    private long pauseEvents;

    Nic(Network network, int host, int port, long rateMbps, int gapBytes, Link link) {
        this.network = network;
        this.sim = network.simulator();
        this.host = host;
        this.port = port;
        this.rateMbps = rateMbps;
        this.psPerByte = Time.exactPsPerByte(rateMbps);
        this.gapPs = Time.serializationPs(gapBytes, rateMbps);
        this.link = link;
        this.handlerId = sim.register(this);
        sim.place(handlerId, host);
    }

    public int host() {
        return host;
    }

    public int port() {
        return port;
    }

    public long rateMbps() {
        return rateMbps;
    }

    public void attach(PacketSource source) {
        this.source = source;
    }

    /** The stack has something new to send: make sure the transmitter looks as soon as the line is free. */
    public void kick() {
        long t = Math.max(sim.nowPs(), freeAtPs);
        if (t < pendingWakePs) {
            wakeAt(t);
        }
    }

    private void wakeAt(long t) {
        pendingWakePs = t;
        sim.schedule(handlerId, t, 0, ++generation);
    }

    int handlerId() {
        return handlerId;
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (kind != EgressPort.WAKE) {
            setPaused(kind == EgressPort.PAUSE);
            return;
        }
        if (tag != generation) {
            return;
        }
        pendingWakePs = Long.MAX_VALUE;
        if (paused) {
            return; // resumed by a RESUME frame, which wakes the transmitter again
        }
        long now = sim.nowPs();
        Packet p = source.poll(now);
        if (p != null) {
            long serPs = Time.serializationPs(p.sizeBytes, rateMbps, psPerByte);
            p.sentPs = now; // DLBF III-C: t1, when the packet goes on the wire
            txPackets++;
            txBytes += p.sizeBytes;
            link.transmit(p, now + serPs);
            freeAtPs = now + serPs + gapPs;
            wakeAt(freeAtPs);
        } else {
            long t = source.nextReadyPs(now);
            if (t != Long.MAX_VALUE) {
                wakeAt(Math.max(t, now));
            }
        }
    }

    @Override
    public void receive(Packet p, int ingressPort) {
        p.nicRxPs = sim.nowPs(); // DLBF III-C: t2, the receiver NIC's timestamp
        rxPackets++;
        source.deliver(p);
    }

    private void setPaused(boolean pause) {
        if (pause == paused) {
            return;
        }
        paused = pause;
        long now = sim.nowPs();
        if (pause) {
            pauseEvents++;
            pausedSincePs = now;
        } else {
            pausedTotalPs += now - pausedSincePs;
            kick();
        }
    }

    public boolean isPaused() {
        return paused;
    }

    public long pauseEvents() {
        return pauseEvents;
    }

    public long pausedPs(long nowPs) {
        return pausedTotalPs + (paused ? nowPs - pausedSincePs : 0);
    }

    public long txPackets() {
        return txPackets;
    }

    public long txBytes() {
        return txBytes;
    }

    public long rxPackets() {
        return rxPackets;
    }

    public Link link() {
        return link;
    }
}
