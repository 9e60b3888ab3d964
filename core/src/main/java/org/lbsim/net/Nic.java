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
    /** ACK / NACK / CNP first and never paused (ns-3's queue 0), instead of alternating with data and paused with it. */
    private boolean controlPriority;
    private long pausedSincePs;
    private long pausedTotalPs;
    private long pauseEvents;
    /** The one link into this NIC (null: unknown or several, then no wake-up is ever skipped). */
    private Link incoming;
    private int incomingLinks;
    /** Skip wake-ups whose outcome is known (see {@link #skipIdleWakes}); off on the exact path. */
    private boolean skipIdleWakes;
    private long wakesSkipped;
    /** The end of gap whose wake-up was skipped last; a kick at or before it would contradict the proof. */
    private long skippedWakePs = -1;
    private long kicksInSkippedWindow;

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
        if (sim.nowPs() <= skippedWakePs && pendingWakePs == Long.MAX_VALUE) {
            kicksInSkippedWindow++; // cannot happen (see skipIdleWakes); counted so that tests can check it
        }
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
        long now = sim.nowPs();
        Packet p = paused ? controlPriority ? source.pollUnpaused(now) : null : source.poll(now);
        if (paused && p == null) {
            return; // resumed by a RESUME frame, which wakes the transmitter again
        }
        if (p != null) {
            long serPs = Time.serializationPs(p.sizeBytes, rateMbps, psPerByte);
            p.sentPs = now; // DLBF III-C: t1, when the packet goes on the wire
            txPackets++;
            txBytes += p.sizeBytes;
            link.transmit(p, now + serPs);
            freeAtPs = now + serPs + gapPs;
            if (skipIdleWakes && quietThrough(freeAtPs, serPs + gapPs) && source.idleThrough(freeAtPs)) {
                // The wake-up at the end of the gap would find the stack empty and change nothing, and nothing
                // can give the stack work before then: leave it out; a later kick wakes the NIC as it would have.
                wakesSkipped++;
                skippedWakePs = freeAtPs;
                return;
            }
            wakeAt(freeAtPs);
        } else {
            long t = source.nextReadyPs(now);
            if (t != Long.MAX_VALUE) {
                wakeAt(Math.max(t, now));
            }
        }
    }

    /**
     * From this call on, leave out the transmitter's wake-ups whose outcome is already known: the one
     * at the end of a frame's gap when the stack is empty and nothing can reach it before then
     * ({@link PacketSource#idleThrough}), and (through {@link #idleNow}) the one a stack would ask for
     * only to find nothing to send. Event order is unchanged (docs/architecture.md, "NIC wake-ups whose
     * outcome is known").
     * Only for NICs that can never be paused (no PFC) and have exactly one link in.
     */
    void skipIdleWakes() {
        skipIdleWakes = incoming != null;
    }

    boolean idleNowPossible() {
        return skipIdleWakes;
    }

    void addIncoming(Link link) {
        incomingLinks++;
        incoming = incomingLinks == 1 ? link : null;
    }

    /**
     * Nothing arrives at this NIC up to and including {@code tPs}, which is at most {@code windowPs} from now:
     * no packet on the wire arrives by then, and the link is longer than the window, so none sent later can.
     */
    private boolean quietThrough(long tPs, long windowPs) {
        return incoming.delayPs() > windowPs && incoming.nextArrivalPs() > tPs;
    }

    /**
     * Whether a kick now would only schedule a wake-up for now (the transmitter is free, no wake-up is
     * pending) and nothing is still to arrive at this instant: then a stack that knows the wake-up would
     * find nothing may leave it out. Always false on the exact path.
     */
    public boolean idleNow() {
        long now = sim.nowPs();
        return skipIdleWakes && pendingWakePs == Long.MAX_VALUE && freeAtPs <= now && incoming.nextArrivalPs() > now;
    }

    /** A stack left out the wake-up a kick would have scheduled ({@link #idleNow}). */
    public void wakeSkipped() {
        wakesSkipped++;
    }

    /** Wake-ups left out because their outcome was known. */
    public long wakesSkipped() {
        return wakesSkipped;
    }

    /** Kicks inside a window whose wake-up was left out: always 0 unless the proof is broken. */
    public long kicksInSkippedWindow() {
        return kicksInSkippedWindow;
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

    /** Control frames first and in a class PFC never pauses; set before the run. */
    void controlPriority(boolean on) {
        controlPriority = on;
    }

    public boolean controlPriority() {
        return controlPriority;
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
