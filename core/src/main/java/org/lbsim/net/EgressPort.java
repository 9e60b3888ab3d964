package org.lbsim.net;

import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;

/**
 * An output-queued switch port: a FIFO, drop-tail admission against the switch's buffer model,
 * ECN marking on enqueue, and store-and-forward serialization followed by the inter-frame gap.
 * The frame on the wire holds its buffer until its gap ends. The port wakes up only when a frame
 * is waiting for the line; with a private buffer, the end of the last frame is settled lazily at
 * the next enqueue (exactly, as of the time it ended), which saves one event per idle hop.
 * Packets of a kind the network marks as priority ({@link Network#setPriorityKind}) wait in a
 * control queue served first, outside the buffer and PFC (ns-3's queue index 0).
 */
public final class EgressPort implements EventHandler {
    private final Network network;
    private final Simulator sim;
    private final int handlerId;
    private final int port;
    /** The line rate, and the gap after each frame at that rate; a degraded link changes both during the run. */
    private long rateMbps;
    /** Time.exactPsPerByte(rateMbps): a multiplication per frame instead of a division where exact. */
    private long psPerByte;
    private long gapPs;
    private final int gapBytes;
    private final Link link;
    private final BufferModel buffer;
    private final EcnMarker ecn;
    private final SplittableRandom rng;
    private final PacketQueue queue = new PacketQueue();
    /** Strict-priority control queue: served before {@link #queue}, never paused, charged to no buffer. */
    private final PacketQueue controlQueue = new PacketQueue();
    /** Per packet kind, whether it goes to {@link #controlQueue} (the network's table, shared). */
    private final boolean[] priorityKinds;
    /** ECN marks on dequeue, for the queue the packet leaves behind (ns-3's RDMA switch), instead of on enqueue. */
    private boolean markAtDequeue;
    private EgressStage stage = EgressStage.NONE;

    private long queueBytes;
    private int inServiceBytes;
    private int inServiceIngress;
    /** The frame on the wire came from the control queue: its end frees no buffer. */
    private boolean inServiceControl;
    /** The buffer alone, or PFC's per-ingress accounting of the owning switch. */
    private final Admission admission;
    private long pausedSincePs;
    private long pausedTotalPs;
    private long pauseEvents;
    private long busyUntilPs;
    private boolean wakePending;
    private boolean paused;
    /** Release a finished frame's buffer lazily (no wake-up) unless other ports share the memory. */
    private final boolean lazyRelease;

    // statistics
    private long maxQueueBytes;
    private long queueAreaBytePs;
    private long lastChangePs;
    private long drops;
    private long ecnMarks;
    private long txPackets;
    private long txBytes;

    EgressPort(Network network, int port, long rateMbps, int gapBytes, Link link, BufferModel buffer, EcnMarker ecn, SplittableRandom rng,
               PfcIngress pfc, boolean[] priorityKinds) {
        this.priorityKinds = priorityKinds;
        this.admission = pfc != null ? pfc : Admission.byBuffer(buffer);
        this.network = network;
        this.sim = network.simulator();
        this.port = port;
        this.rateMbps = rateMbps;
        this.psPerByte = Time.exactPsPerByte(rateMbps);
        this.gapBytes = gapBytes;
        this.gapPs = Time.serializationPs(gapBytes, rateMbps);
        this.link = link;
        this.buffer = buffer;
        this.ecn = ecn;
        this.rng = rng;
        // PFC and shared buffers need the memory back at the exact moment; otherwise settle lazily.
        this.lazyRelease = !buffer.isShared() && pfc == null;
        this.handlerId = sim.register(this);
    }

    public int port() {
        return port;
    }

    /** Bytes queued here now, including the frame on the wire (which holds its buffer until its gap ends). */
    public long queueBytes() {
        settle(sim.nowPs());
        return queueBytes;
    }

    /** Packets waiting (control queue included), not counting the one on the wire. */
    public int queuePackets() {
        return queue.size() + controlQueue.size();
    }

    public Link link() {
        return link;
    }

    /** ECN marks on dequeue (true) or on enqueue (false, the default). */
    void setMarkAtDequeue(boolean on) {
        this.markAtDequeue = on;
    }

    void setStage(EgressStage stage) {
        this.stage = stage;
    }

    void enqueue(Packet p) {
        enqueue(p, false);
    }

    /**
     * A packet a switch stage held and now releases (a ConWeave reorder queue's flush: many at one
     * instant, all charged to the ingress they came in on). ns-3 admits them through its MMU, whose
     * ingress check uses a port's PFC headroom only once the switch's shared pool is past its limit
     * (conweave-ns3 switch-mmu.cc:134-161, :208-217): so under PFC only the shared memory refuses them
     * here, and the charge may pause the ingress; lossy, they meet the buffer like any packet.
     */
    void enqueueReleased(Packet p) {
        enqueue(p, true);
    }

    private void enqueue(Packet p, boolean released) {
        long now = sim.nowPs();
        settle(now);
        if (priorityKinds[p.kind]) {
            enqueueControl(p, now);
            return;
        }
        if (!(released ? admission.admitReleased(p.ingressPort, queueBytes, p.sizeBytes) : admission.admit(p.ingressPort, queueBytes, p.sizeBytes))) {
            drops++;
            network.dropAtPort(p, port);
            return;
        }
        admission.onAdmit(p.ingressPort, p.sizeBytes);
        // ECN-capable: data and schemes' own packets (DLBF III-D: a notification can be marked); not ACK / NACK / CNP
        if (!markAtDequeue && (p.kind == Packet.DATA || p.kind >= Packet.FIRST_SCHEME_KIND) && ecn.shouldMark(queueBytes, rng)) {
            if (!p.ecnMarked) {
                ecnMarks++;
            }
            p.ecnMarked = true;
        }
        accountQueue(now);
        queueBytes += p.sizeBytes;
        buffer.add(p.sizeBytes);
        if (queueBytes > maxQueueBytes) {
            maxQueueBytes = queueBytes;
        }
        queue.add(p);
        stage.onEnqueue(p, port, queueBytes);
        if (paused) {
            return;
        }
        if (now >= busyUntilPs && inServiceBytes == 0) {
            startNext(now);
        } else if (!wakePending) {
            wakeAt(busyUntilPs);
        }
    }

    /** ns-3 admits queue-0 packets without buffer or PFC accounting and marks no ECN on them (switch-node.cc:298-330, :336). */
    private void enqueueControl(Packet p, long now) {
        controlQueue.add(p);
        stage.onEnqueue(p, port, queueBytes);
        if (now >= busyUntilPs && inServiceBytes == 0) {
            startNext(now);
        } else if (!wakePending) {
            wakeAt(busyUntilPs);
        }
    }

    private void wakeAt(long t) {
        wakePending = true;
        sim.schedule(handlerId, t, 0, 0);
    }

    private void startNext(long now) {
        boolean control = !controlQueue.isEmpty();
        // PFC pauses the data queue only (ns-3 pauses per priority; queue 0 never, broadcom-egress-queue.cc:101-104)
        Packet p = control ? controlQueue.poll() : paused ? null : queue.poll();
        if (p == null) {
            return;
        }
        // ns-3's SwitchNotifyDequeue: the queue left behind (this frame's bytes are still counted until its gap ends)
        if (markAtDequeue && (p.kind == Packet.DATA || p.kind >= Packet.FIRST_SCHEME_KIND) && ecn.shouldMark(queueBytes - p.sizeBytes, rng)) {
            if (!p.ecnMarked) {
                ecnMarks++;
            }
            p.ecnMarked = true;
        }
        long serPs = Time.serializationPs(p.sizeBytes, rateMbps, psPerByte);
        txPackets++;
        txBytes += p.sizeBytes;
        // The frame keeps its buffer until its gap ends; the packet itself is handed to the link now.
        inServiceBytes = p.sizeBytes;
        inServiceIngress = p.ingressPort;
        inServiceControl = control;
        busyUntilPs = now + serPs + gapPs;
        stage.onDequeue(p, port, queueBytes);
        if (!lazyRelease || !queue.isEmpty() || !controlQueue.isEmpty()) {
            wakeAt(busyUntilPs);
        }
        link.transmit(p, now + serPs);
    }

    /** Event kinds: the end of a frame's gap, and PFC control frames arriving from downstream. */
    static final int WAKE = 0;
    static final int PAUSE = 1;
    static final int RESUME = 2;

    int handlerId() {
        return handlerId;
    }

    @Override
    public void onEvent(int kind, long tag) {
        if (kind != WAKE) {
            setPaused(kind == PAUSE);
            return;
        }
        wakePending = false;
        long now = sim.nowPs();
        settle(now);
        if (inServiceBytes == 0 && (!paused || !controlQueue.isEmpty())) {
            startNext(now);
        }
    }

    /** Frees the buffer of a frame whose gap has ended, as of the moment it ended. */
    private void settle(long now) {
        if (inServiceBytes != 0 && busyUntilPs <= now) {
            if (!inServiceControl) {
                accountQueue(busyUntilPs);
                queueBytes -= inServiceBytes;
                buffer.remove(inServiceBytes);
                admission.onRelease(inServiceIngress, inServiceBytes);
            }
            inServiceBytes = 0;
            if (queueBytes < 0) {
                throw new IllegalStateException("negative queue at port " + port);
            }
        }
    }

    /**
     * The link this port feeds has failed: every frame waiting here is lost now, counted as link loss
     * of this port's layer, and its buffer (and PFC ingress accounting) released. The frame on the
     * wire was lost with the link and keeps its buffer until its gap ends, as always.
     */
    int dropQueued() {
        long now = sim.nowPs();
        settle(now);
        int n = 0;
        for (Packet p = queue.poll(); p != null; p = queue.poll()) {
            accountQueue(now);
            queueBytes -= p.sizeBytes;
            buffer.remove(p.sizeBytes);
            admission.onRelease(p.ingressPort, p.sizeBytes);
            network.dropOnLink(p, port);
            n++;
        }
        for (Packet p = controlQueue.poll(); p != null; p = controlQueue.poll()) {
            network.dropOnLink(p, port);
            n++;
        }
        return n;
    }

    /** Frames that start after now are serialized at {@code mbps} (a degraded or restored link). */
    void setRateMbps(long mbps) {
        this.rateMbps = mbps;
        this.psPerByte = Time.exactPsPerByte(mbps);
        this.gapPs = Time.serializationPs(gapBytes, mbps);
    }

    public long rateMbps() {
        return rateMbps;
    }

    /** PFC: stop or restart transmission after the frame on the wire. */
    public void setPaused(boolean paused) {
        if (paused == this.paused) {
            return;
        }
        this.paused = paused;
        if (paused) {
            pauseEvents++;
            pausedSincePs = sim.nowPs();
        } else {
            pausedTotalPs += sim.nowPs() - pausedSincePs;
        }
        if (!paused) {
            long now = sim.nowPs();
            settle(now);
            if (inServiceBytes == 0) {
                startNext(now);
            } else if (!wakePending && (!queue.isEmpty() || !controlQueue.isEmpty())) {
                wakeAt(busyUntilPs);
            }
        }
    }

    public boolean isPaused() {
        return paused;
    }

    /** Times this port was paused by PFC. */
    public long pauseEvents() {
        return pauseEvents;
    }

    /** Time spent paused up to {@code nowPs}. */
    public long pausedPs(long nowPs) {
        return pausedTotalPs + (paused ? nowPs - pausedSincePs : 0);
    }

    private void accountQueue(long now) {
        queueAreaBytePs += queueBytes * (now - lastChangePs);
        lastChangePs = now;
    }

    /** Closes the time integral at {@code endPs} so {@link #timeAverageQueueBytes} is exact. */
    public void finishStats(long endPs) {
        settle(endPs);
        accountQueue(Math.max(endPs, lastChangePs));
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
