package org.lbsim.net;

import java.util.SplittableRandom;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;

/**
 * An output-queued switch port: a FIFO, admission against the switch's buffer model (a refused packet
 * goes to the run's {@link OverflowPolicy}: drop-tail unless the run trims), ECN marking on enqueue,
 * and store-and-forward serialization followed by the inter-frame gap.
 * The frame on the wire holds its buffer until its gap ends. The port wakes up only when a frame
 * is waiting for the line; with a private buffer, the end of the last frame is settled lazily at
 * the next enqueue (exactly, as of the time it ended), which saves one event per idle hop.
 * Packets of a kind the network marks as priority ({@link Network#setPriorityKind}) wait in a
 * control queue served first, outside the buffer and PFC (ns-3's queue index 0).
 * <p>
 * Where nothing needs the dequeue instant (lossy, private buffer, no egress stage, no rate change
 * or failure during the run, link delay longer than the gap), {@link Network#handOnAtEnqueue} turns
 * the port into a {@link Departures#atEnqueue}: a FIFO's departure is known at enqueue, so the frame
 * goes to the link at once and the queue settles lazily; see {@link AtEnqueue}.
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
    /** What a packet the buffer refuses becomes (dropped by default); asked only on overflow. */
    private OverflowPolicy overflow = OverflowPolicy.DROP_TAIL;
    /** Which queue sends next when both could; asked only when the control queue holds a frame and the data FIFO may send. */
    private DequeueStrategy dequeue = DequeueStrategy.STRICT_PRIORITY;
    /** Bytes waiting in {@link #controlQueue} (not the frame on the wire). */
    private long priorityBytes;
    /** Exact (a wake-up per queued frame) unless {@link #handOnAtEnqueue()} chose the lazy one at build time. */
    private Departures departures = new Exact();

    // The lazy path's state (AtEnqueue's), kept in the port rather than in the AtEnqueue object, so that
    // an enqueue touches the port and the ring, not a third object (at k = 24 the first touch
    // of that object was 6 % of the run's samples). HotSpot lays out the longs in declaration order,
    // first: the ones every enqueue touches are declared before the PFC and drop counters.
    /**
     * Frames still holding buffer: slot i holds the frame's end of gap at {@code 2i} and its size (with
     * {@link AtEnqueue#WAITED}) at {@code 2i + 1}, one array so that an enqueue touches one line of it.
     */
    private long[] ring;
    /**
     * {@code departures} is an {@link AtEnqueue}: the enqueue path tests this flag instead of dispatching
     * on {@code departures}, whose type check would read that object's header (a cache miss per hop).
     */
    private boolean handsOn;
    /** Slots in the ring, a power of two. */
    private int ringSlots;
    private int ringHead;
    private int ringCount;
    /** End of the gap of the last frame admitted (the exact path's busyUntilPs once the queue has drained). */
    private long lastEndPs;
    /** Time of the last enqueue: a frame starting then started in that event, before any later reader. */
    private long lastEnqueuePs = -1;
    /**
     * The lazy path's admission: its buffer is private, so admitting is this comparison and charging the buffer
     * nothing ({@link Admission.ByBuffer}, {@link BufferModel#admit}); an enqueue then reads neither object.
     */
    private long handOnLimitBytes;

    private long queueBytes;
    private int inServiceBytes;
    private int inServiceIngress;
    /** The frame on the wire came from the control queue: its end frees no buffer. */
    private boolean inServiceControl;
    /** The buffer alone, or PFC's per-ingress accounting of the owning switch. */
    private final Admission admission;
    private boolean wakePending;
    private boolean paused;
    /** Release a finished frame's buffer lazily (no wake-up) unless other ports share the memory. */
    private final boolean lazyRelease;

    // statistics
    private long maxQueueBytes;
    private long queueAreaBytePs;
    private long lastChangePs;
    private long txPackets;
    private long txBytes;
    private long drops;
    private long ecnMarks;
    private long ambiguousCount;
    // the exact path and PFC
    private long busyUntilPs;
    private long pausedSincePs;
    private long pausedTotalPs;
    private long pauseEvents;

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
        sim.place(handlerId, network.topology().portOwner(port));
    }

    public int port() {
        return port;
    }

    /** Bytes queued here now, including the frame on the wire (which holds its buffer until its gap ends). */
    public long queueBytes() {
        departures.settle(sim.nowPs());
        return queueBytes;
    }

    /** Packets waiting (control queue included), not counting the one on the wire. */
    public int queuePackets() {
        return departures.waiting(sim.nowPs()) + controlQueue.size();
    }

    /** Packets waiting here that are not yet in the link's FIFO (on a lazy port every admitted frame is already there). */
    int waitingOffLink() {
        return departures.waitingOffLink() + controlQueue.size();
    }

    public Link link() {
        return link;
    }

    /** ECN marks on dequeue (true) or on enqueue (false, the default). */
    void setMarkAtDequeue(boolean on) {
        this.markAtDequeue = on;
    }

    /** The link goes down: a lazy port would lose frames at enqueue instead of as they start, so go back to the exact path (before the run only). */
    void linkGoesDown() {
        backToExact("a link taken down after the port chose to hand frames on at enqueue");
    }

    /** Something that needs the dequeue instant was set up after the port chose to hand frames on at enqueue (before the run only). */
    void backToExact(String why) {
        if (departures instanceof AtEnqueue lazy) {
            lazy.requireIdle(why);
            departures = new Exact();
            handsOn = false;
        }
    }

    void setStage(EgressStage stage) {
        if (stage != EgressStage.NONE && departures instanceof AtEnqueue lazy) {
            lazy.requireIdle("an egress stage installed after the port chose to hand frames on at enqueue");
            departures = new Exact(); // a stage needs the dequeue instant
            handsOn = false;
        }
        this.stage = stage;
    }

    void enqueue(Packet p) {
        enqueue(p, false);
    }

    /** Sets what a packet the buffer refuses becomes (before the run); a policy that reorders keeps the port exact. */
    void setOverflowPolicy(OverflowPolicy policy) {
        if (policy.reorders()) {
            backToExact("an overflow policy that reorders, set after the port chose to hand frames on at enqueue");
        }
        this.overflow = policy;
    }

    /** Sets which queue sends next when both could (before the run). */
    void setDequeueStrategy(DequeueStrategy strategy) {
        this.dequeue = strategy;
    }

    /**
     * Queues {@code p} in the strict-priority control queue, outside the buffer, PFC and ECN: for an
     * {@link OverflowPolicy} that rewrote a refused packet (a trimmed header). Exact ports only.
     */
    public void enqueuePriority(Packet p) {
        departures.requireExact("a packet queued ahead of the data");
        long now = sim.nowPs();
        departures.settle(now);
        enqueueControl(p, now);
    }

    /** Bytes waiting in the priority queue (trimmed headers, control packets of a priority kind), not counting the frame on the wire. */
    public long priorityQueueBytes() {
        return priorityBytes;
    }

    /** The largest data queue this port's buffer admits (its per-port limit, or the shared pool's size). */
    public long bufferLimitBytes() {
        return buffer.portLimitBytes();
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
        boolean handsOn = this.handsOn;
        if (handsOn) {
            settleHandedOn(now);
        } else {
            departures.settle(now);
        }
        if (priorityKinds[p.kind]) {
            enqueueControl(p, now);
            return;
        }
        if (p.headerOnly) { // a header trimmed upstream: its policy queues it ahead of the data again, or drops it
            overflowed(p);
            return;
        }
        if (!(handsOn ? queueBytes + p.sizeBytes <= handOnLimitBytes
                : released ? admission.admitReleased(p.ingressPort, queueBytes, p.sizeBytes) : admission.admit(p.ingressPort, queueBytes, p.sizeBytes))) {
            overflowed(p);
            return;
        }
        if (!handsOn) {
            admission.onAdmit(p.ingressPort, p.sizeBytes);
        }
        // ECN-capable: data and schemes' own packets (DLBF III-D: a notification can be marked); not ACK / NACK / CNP
        if (!markAtDequeue && (p.kind == Packet.DATA || p.kind >= Packet.FIRST_SCHEME_KIND) && ecn.shouldMark(queueBytes, rng)) {
            if (!p.ecnMarked) {
                ecnMarks++;
            }
            p.ecnMarked = true;
        }
        accountQueue(now);
        queueBytes += p.sizeBytes;
        if (!handsOn) {
            buffer.add(p.sizeBytes);
        }
        if (queueBytes > maxQueueBytes) {
            maxQueueBytes = queueBytes;
        }
        if (handsOn) {
            addHandedOn(p, now);
        } else {
            departures.add(p, now);
        }
    }

    /** The buffer refused {@code p} (or it is a header trimmed upstream): the overflow policy takes it, or it is dropped and counted. */
    private void overflowed(Packet p) {
        if (!overflow.onOverflow(this, p)) {
            drops++;
            network.dropAtPort(p, port);
        }
    }

    /** ns-3 admits queue-0 packets without buffer or PFC accounting and marks no ECN on them (switch-node.cc:298-330, :336). */
    private void enqueueControl(Packet p, long now) {
        controlQueue.add(p);
        priorityBytes += p.sizeBytes;
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
        // PFC pauses the data queue only (ns-3 pauses per priority; queue 0 never, broadcom-egress-queue.cc:101-104)
        boolean control = !controlQueue.isEmpty() && (paused || queue.isEmpty() || dequeue.priorityNext(port));
        Packet p = control ? controlQueue.poll() : paused ? null : queue.poll();
        if (p == null) {
            return;
        }
        if (control) {
            priorityBytes -= p.sizeBytes;
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
        departures.onWake(sim.nowPs());
    }

    /** Frees the buffer of a frame whose gap has ended, as of the moment it ended. */
    private void settleInService(long now) {
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
        departures.requireExact("a link failure during the run");
        long now = sim.nowPs();
        settleInService(now);
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
        priorityBytes = 0;
        return n;
    }

    /** Frames that start after now are serialized at {@code mbps} (a degraded or restored link). */
    void setRateMbps(long mbps) {
        departures.requireExact("a rate change during the run");
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
        departures.requireExact("PFC");
        this.paused = paused;
        if (paused) {
            pauseEvents++;
            pausedSincePs = sim.nowPs();
        } else {
            pausedTotalPs += sim.nowPs() - pausedSincePs;
        }
        if (!paused) {
            long now = sim.nowPs();
            settleInService(now);
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
        departures.settle(endPs);
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

    /** Frames that have started leaving by now. */
    public long txPackets() {
        long unsettled = departures.startedUnsettled(sim.nowPs(), false); // settles a lazy port first
        return txPackets + unsettled;
    }

    /** Bytes of the frames that have started leaving by now. */
    public long txBytes() {
        long unsettled = departures.startedUnsettled(sim.nowPs(), true);
        return txBytes + unsettled;
    }

    /**
     * Lets this port hand frames on at enqueue if nothing needs the dequeue instant: a lossy port with
     * a private buffer, no egress stage, a link that is up and whose delay exceeds the gap (so a queued
     * frame, started at the end of its predecessor's gap, always finds that predecessor still on the
     * link and its arrival is scheduled by the same event as on the exact path). Call once, before the run.
     * Returns whether it did.
     */
    boolean handOnAtEnqueue() {
        if (!lazyRelease || buffer.isShared() || !(admission instanceof Admission.ByBuffer) || stage != EgressStage.NONE
                || link.isDown() || link.delayPs() <= gapPs || !(departures instanceof Exact) || queueBytes != 0
                || markAtDequeue || network.hasPriorityKinds() || overflow.reorders()) { // both need the dequeue instant: the mark, the control queue's overtaking
            return false;
        }
        departures = new AtEnqueue();
        handsOn = true;
        handOnLimitBytes = buffer.portLimitBytes();
        return true;
    }

    /** Whether this port hands frames on at enqueue (see {@link #handOnAtEnqueue()}). */
    public boolean handsOnAtEnqueue() {
        return departures instanceof AtEnqueue;
    }

    /**
     * Reads of {@link #txPackets()} / {@link #txBytes()} at the very instant a queued frame starts,
     * with no enqueue at this port earlier in that instant: on the exact path the answer depends on
     * whether the port's wake-up ran before the reader, which a lazy port cannot know; it counts the
     * frame as started. Always 0 on an exact port.
     */
    public long ambiguousCounterReads() {
        return departures.ambiguousReads();
    }

    /** The lazy path's settle ({@link AtEnqueue}): releases every frame whose gap has ended by {@code now}, each as of its own end. */
    private void settleHandedOn(long now) {
        while (ringCount > 0 && ring[2 * ringHead] <= now) {
            long end = ring[2 * ringHead];
            int size = (int) ring[2 * ringHead + 1] & ~AtEnqueue.WAITED;
            accountQueue(end);
            queueBytes -= size;
            txPackets++;
            txBytes += size;
            ringHead = (ringHead + 1) & (ringSlots - 1);
            ringCount--;
            if (queueBytes < 0) {
                throw new IllegalStateException("negative queue at port " + port);
            }
        }
    }

    /** The lazy path's add ({@link AtEnqueue}): the frame starts at max(now, the previous frame's end of gap) and goes to the link at once. */
    private void addHandedOn(Packet p, long now) {
        stage.onEnqueue(p, port, queueBytes);
        long serPs = Time.serializationPs(p.sizeBytes, rateMbps, psPerByte);
        long start = Math.max(now, lastEndPs);
        long end = start + serPs + gapPs;
        lastEndPs = end;
        lastEnqueuePs = now;
        if (ringCount == ringSlots) {
            growRing();
        }
        int i = (ringHead + ringCount) & (ringSlots - 1);
        ring[2 * i] = end;
        ring[2 * i + 1] = start > now ? p.sizeBytes | AtEnqueue.WAITED : p.sizeBytes;
        ringCount++;
        link.transmit(p, start + serPs);
    }

    private void growRing() {
        int n = ringSlots;
        long[] r = new long[4 * n];
        for (int k = 0; k < ringCount; k++) {
            int from = (ringHead + k) & (n - 1);
            r[2 * k] = ring[2 * from];
            r[2 * k + 1] = ring[2 * from + 1];
        }
        ring = r;
        ringSlots = 2 * n;
        ringHead = 0;
    }

    /** When admitted frames leave, and how the queue they occupy is settled. */
    private interface Departures {
        /** Releases the buffer of every frame whose gap has ended by {@code now}. */
        void settle(long now);

        /** {@code p} was admitted at {@code now} (queue bytes, buffer and ECN done). */
        void add(Packet p, long now);

        void onWake(long now);

        /** Frames waiting for the line at {@code now}. */
        int waiting(long now);

        int waitingOffLink();

        /** Frames (or their bytes) that started by {@code now} but are not counted in txPackets / txBytes yet (a lazy port settles first). */
        long startedUnsettled(long now, boolean bytes);

        long ambiguousReads();

        void requireExact(String why);
    }

    /** A wake-up at the end of each frame's gap while frames wait: every dequeue happens at its instant. */
    private final class Exact implements Departures {
        @Override
        public void settle(long now) {
            settleInService(now);
        }

        @Override
        public void add(Packet p, long now) {
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

        @Override
        public void onWake(long now) {
            wakePending = false;
            settleInService(now);
            if (inServiceBytes == 0 && (!paused || !controlQueue.isEmpty())) {
                startNext(now);
            }
        }

        @Override
        public int waiting(long now) {
            return queue.size();
        }

        @Override
        public int waitingOffLink() {
            return queue.size();
        }

        @Override
        public long startedUnsettled(long now, boolean bytes) {
            return 0;
        }

        @Override
        public long ambiguousReads() {
            return 0;
        }

        @Override
        public void requireExact(String why) {
        }
    }

    /**
     * One event per hop: on a FIFO port that nothing pauses, a frame admitted at t starts at
     * max(t, end of the previous frame's gap), exactly when the exact path's wake-up would start it, so
     * it is handed to the link at once with its final last-bit time. The frames still holding buffer
     * (admitted, gap not yet over) are kept as (end of gap, size) in a small ring and released lazily at
     * the next read, each as of its own end: queue bytes, the time integral, drops and ECN decisions at
     * later enqueues come out as on the exact path, whose queue bytes at an instant do not depend on
     * the order of same-instant events (the frame on the wire and the waiting ones count alike).
     */
    private final class AtEnqueue implements Departures {
        /** Marks a frame that waited for the line (started at its predecessor's end, not at its own enqueue). */
        static final int WAITED = 1 << 31;

        AtEnqueue() {
            ring = new long[2 * 4];
            ringSlots = 4;
        }

        @Override
        public void settle(long now) {
            settleHandedOn(now);
        }

        @Override
        public void add(Packet p, long now) {
            addHandedOn(p, now);
        }

        private int sizeAt(int i) {
            return (int) ring[2 * i + 1] & ~WAITED;
        }

        private long startPs(int i) {
            return ring[2 * i] - gapPs - Time.serializationPs(sizeAt(i), rateMbps, psPerByte);
        }

        @Override
        public void onWake(long now) {
            throw new IllegalStateException("port " + port + " hands frames on at enqueue and schedules no wake-up");
        }

        @Override
        public int waiting(long now) {
            settle(now);
            int n = 0;
            for (int k = ringCount - 1; k >= 0; k--) {
                if (startPs((ringHead + k) & (ringSlots - 1)) <= now) {
                    break;
                }
                n++;
            }
            return n;
        }

        @Override
        public int waitingOffLink() {
            return 0;
        }

        /** After {@link #settle}, only the ring's first frame can have started without having ended its gap. */
        @Override
        public long startedUnsettled(long now, boolean bytes) {
            settle(now);
            if (ringCount == 0) {
                return 0;
            }
            long start = startPs(ringHead);
            if (start > now) {
                return 0;
            }
            if (start == now && ((int) ring[2 * ringHead + 1] & WAITED) != 0 && lastEnqueuePs != now) {
                ambiguousCount++;
            }
            return bytes ? sizeAt(ringHead) : 1;
        }

        @Override
        public long ambiguousReads() {
            return ambiguousCount;
        }

        @Override
        public void requireExact(String why) {
            throw new IllegalStateException("port " + port + " hands frames on at enqueue; " + why + " needs the exact path");
        }

        /** Going back to the exact path is possible only while nothing has been admitted (before the run). */
        void requireIdle(String why) {
            if (lastEndPs != 0 || ringCount != 0) {
                requireExact(why);
            }
        }
    }
}
