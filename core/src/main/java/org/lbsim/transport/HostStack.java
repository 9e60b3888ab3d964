package org.lbsim.transport;

import org.lbsim.net.Nic;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PacketQueue;
import org.lbsim.net.PacketSource;

/**
 * A host's RDMA stack behind its NIC. When the line is free it hands over the next frame:
 * control packets (ACKs) and data alternate round-robin whenever both are waiting (OFAN App. B), or
 * control goes first and also while PFC pauses the NIC ({@link Nic#controlPriority()}, ns-3's RDMA NIC),
 * and data comes from the queue pairs with something to send, in round-robin order, one packet
 * or a batch of packets per turn.
 */
public final class HostStack implements PacketSource {
    private final int host;
    private final Nic nic;
    private final PacketPool pool;
    private final Transport transport;
    private final QueuePairLifecycle queuePairs;
    private final FlowScheduler starts;
    private final PacketQueue control = new PacketQueue();
    /**
     * The round-robin ring of queue pairs with something to send, in serving order from slot 0 (circular):
     * slots [0, activeCount), {@code cursorSlot} the next to serve. Kept in arrays so that a look walks
     * contiguous memory and joining or leaving touches no other queue pair.
     */
    private SenderQueuePair[] ring = new SenderQueuePair[4];
    /**
     * Per slot: the send time the last look found when pacing that no feedback moves held its queue pair
     * back (a fixed rate), or Long.MIN_VALUE. Until that time, while no pacing changes ({@link
     * #pacingChanged} clears them all) and the queue pair stays in the ring, a look would find the same
     * and change nothing else, so the walk passes it on this answer.
     */
    private long[] ringHeldPs = new long[4];
    private int cursorSlot;
    private int activeCount;
    /** Whether a look is walking the ring (the ring may then change only by the walk's own removals), and the slot it asks. */
    private boolean walking;
    private int walkSlot;
    private boolean lastWasData;
    private long minEligiblePs = Long.MAX_VALUE;
    /**
     * After a look at the whole ring found every queue pair in it held back by pacing that no
     * feedback moves, the earliest of their send times; until then another look finds nothing and changes
     * nothing, unless a queue pair joins or leaves the ring or a pacing changes ({@link #pacingChanged}).
     * Long.MIN_VALUE when no such look stands. (A rho_max sender's all-to-all after a failure kicked
     * the NIC with every ACK and looked at some 80 paced queue pairs each time.)
     */
    private long pacedUntilPs = Long.MIN_VALUE;
    /** Whether the look above may be left out (off on the exact path, for differential tests). */
    private boolean skipPacedLooks;
    private long heldQpsPassed;
    private long pacedLooksSkipped;
    /** Packets a queue pair may send in a row before the scheduler moves on (PRO III-A batches). */
    private final int batchPackets;
    private int sentInBatch;
    /** Local timers (senders' and receivers') pending now, and a time no later than the earliest of them. */
    private int liveTimers;
    private long timerFloorPs = Long.MAX_VALUE;
    private long activationsSkipped;
    /** Data packets that reached this host's receivers (duplicates included), and their payload bytes. */
    private long dataArrivals;
    private long deliveredPayloadBytes;

    long dataArrivals() {
        return dataArrivals;
    }

    long deliveredPayloadBytes() {
        return deliveredPayloadBytes;
    }

    HostStack(int host, Nic nic, PacketPool pool, Transport transport, QueuePairLifecycle queuePairs, FlowScheduler starts, int batchPackets) {
        this.batchPackets = batchPackets;
        this.host = host;
        this.nic = nic;
        this.pool = pool;
        this.transport = transport;
        this.queuePairs = queuePairs;
        this.starts = starts;
        nic.attach(this);
    }

    public int host() {
        return host;
    }

    QueuePairLifecycle queuePairs() {
        return queuePairs;
    }

    @Override
    public Packet poll(long nowPs) {
        if (!control.isEmpty() && (lastWasData || nic.controlPriority())) {
            lastWasData = false;
            return control.poll();
        }
        Packet data = pollData(nowPs);
        if (data != null) {
            lastWasData = true;
            return data;
        }
        if (!control.isEmpty()) {
            lastWasData = false;
            return control.poll();
        }
        return null;
    }

    @Override
    public Packet pollUnpaused(long nowPs) {
        if (!nic.controlPriority() || control.isEmpty()) {
            return null;
        }
        lastWasData = false;
        return control.poll();
    }

    private Packet pollData(long nowPs) {
        if (nowPs < pacedUntilPs) {
            pacedLooksSkipped++;
            return null; // what the look would give: nothing, the same earliest time, the cursor where it is
        }
        minEligiblePs = Long.MAX_VALUE;
        int n = activeCount;
        int slot = cursorSlot;
        boolean feedbackMovesNone = true;
        walking = true;
        try {
            for (int i = 0; i < n && activeCount > 0; i++) {
                long held = ringHeldPs[slot];
                if (held > nowPs && skipPacedLooks) {
                    // what its poll would find: nothing, the same send time (its eligiblePs already), without asking it
                    heldQpsPassed++;
                    sentInBatch = 0;
                    if (held < minEligiblePs) {
                        minEligiblePs = held;
                    }
                    slot = slot + 1 == activeCount ? 0 : slot + 1;
                    continue;
                }
                SenderQueuePair qp = ring[slot];
                walkSlot = slot;
                Packet p = qp.poll(nowPs);
                if (p != null) {
                    if (++sentInBatch >= batchPackets) {
                        sentInBatch = 0;
                        cursorSlot = slot + 1 == activeCount ? 0 : slot + 1;
                    } else {
                        cursorSlot = slot;
                    }
                    return p;
                }
                sentInBatch = 0;
                if (qp.eligiblePs == Long.MAX_VALUE) {
                    deactivate(qp); // the next queue pair moves into this slot
                    if (slot == activeCount) {
                        slot = 0;
                    }
                } else {
                    feedbackMovesNone &= qp.pacingIgnoresFeedback;
                    if (qp.eligiblePs < minEligiblePs) {
                        minEligiblePs = qp.eligiblePs;
                    }
                    slot = slot + 1 == activeCount ? 0 : slot + 1;
                }
            }
        } finally {
            walking = false;
        }
        cursorSlot = activeCount == 0 ? 0 : slot;
        // an empty ring costs no look: only a ring of paced queue pairs is worth remembering
        pacedUntilPs = skipPacedLooks && feedbackMovesNone && minEligiblePs != Long.MAX_VALUE ? minEligiblePs : Long.MIN_VALUE;
        return null;
    }

    /** The look asking {@code qp} found it held back until {@code tPs} by pacing that no feedback moves. */
    void held(SenderQueuePair qp, long tPs) {
        if (walking && ring[walkSlot] == qp) {
            ringHeldPs[walkSlot] = tPs;
        }
    }

    /** The look asking {@code qp} found it not held back by pacing. */
    void notHeld(SenderQueuePair qp) {
        if (walking && ring[walkSlot] == qp) {
            ringHeldPs[walkSlot] = Long.MIN_VALUE;
        }
    }

    /** A queue pair's pacing may have moved without feedback (a start, a new rho_max): look at the ring again. */
    void pacingChanged() {
        pacedUntilPs = Long.MIN_VALUE;
        java.util.Arrays.fill(ringHeldPs, 0, activeCount, Long.MIN_VALUE);
    }

    /** Queue pairs a look passed on what their last look found, without asking them. */
    public long heldQpsPassed() {
        return heldQpsPassed;
    }

    void skipPacedLooks() {
        skipPacedLooks = true;
    }

    /** Looks at the ring left out because every queue pair in it was still held back by pacing. */
    public long pacedLooksSkipped() {
        return pacedLooksSkipped;
    }

    @Override
    public long nextReadyPs(long nowPs) {
        return minEligiblePs;
    }

    /**
     * Nothing queued, no queue pair in the ring, and nothing local due by {@code tPs} (no timer of
     * this host, no start), so a poll up to then finds nothing and changes nothing unless a packet arrives.
     */
    @Override
    public boolean idleThrough(long tPs) {
        return activeCount == 0 && control.isEmpty() && quietThrough(tPs);
    }

    /** No timer of this host and no start of any queue pair is due at or before {@code tPs}, nor can one be made due by others. */
    private boolean quietThrough(long tPs) {
        return timerFloorPs > tPs && starts.noStartThrough(host, tPs);
    }

    /** A timer of this host went from none to {@code atPs}. */
    void timerArmed(long atPs) {
        liveTimers++;
        timerFloorPs = Math.min(timerFloorPs, atPs);
    }

    /** A pending timer of this host moved to {@code atPs}. */
    void timerMoved(long atPs) {
        timerFloorPs = Math.min(timerFloorPs, atPs);
    }

    /** A pending timer of this host fired or was cancelled; the floor stays (a lower bound) until none is left. */
    void timerGone() {
        if (--liveTimers == 0) {
            timerFloorPs = Long.MAX_VALUE;
        }
    }

    @Override
    public void deliver(Packet p) {
        long now = transport.simulator().nowPs();
        if (p.kind == Packet.DATA) {
            queuePairs.receiver(p.flow).onData(p, now);
            dataArrivals++;
            deliveredPayloadBytes += p.payloadBytes;
            queuePairs.gone(p.flow);
            pool.release(p);
            if (!control.isEmpty()) {
                nic.kick();
            }
            return;
        }
        SenderQueuePair qp = queuePairs.sender(p.flow);
        switch (p.kind) {
            case Packet.ACK -> qp.onAck(p, now);
            case Packet.NACK -> qp.onNack(p, now);
            case Packet.CNP -> qp.onCnp(now);
            default -> {
                transport.kinds().deliver(p, transport, now);
                kickIfControlWaiting(); // a receiver may have answered
            }
        }
        queuePairs.gone(p.flow);
        pool.release(p);
    }

    /** The queue receivers put their answers in. */
    PacketQueue controlQueue() {
        return control;
    }

    /** Wakes the NIC when control packets wait (after a receiver answered outside the data path). */
    void kickIfControlWaiting() {
        if (!control.isEmpty()) {
            nic.kick();
        }
    }

    /** The queue pair may have something to send: put it in the ring and wake the NIC. */
    void activate(SenderQueuePair qp) {
        if (!qp.active && activeCount == 0 && control.isEmpty() && nic.idleNow() && quietAtNow() && qp.idleUntilFeedback()) {
            // The NIC would wake now, after the events already due now (none of them concerns this
            // host), poll only this queue pair, find nothing and drop it from the ring again. Do what that
            // wake-up would have done, without it.
            sentInBatch = 0;
            minEligiblePs = Long.MAX_VALUE;
            qp.eligiblePs = Long.MAX_VALUE;
            activationsSkipped++;
            nic.wakeSkipped();
            return;
        }
        if (!qp.active) {
            if (walking) {
                throw new IllegalStateException("a queue pair joined the ring during a look at it");
            }
            qp.active = true;
            pacedUntilPs = Long.MIN_VALUE;
            if (activeCount == ring.length) {
                ring = java.util.Arrays.copyOf(ring, 2 * activeCount);
                ringHeldPs = java.util.Arrays.copyOf(ringHeldPs, 2 * activeCount);
            }
            // insert just before the cursor, i.e. at the end of the round
            int at = cursorSlot;
            System.arraycopy(ring, at, ring, at + 1, activeCount - at);
            System.arraycopy(ringHeldPs, at, ringHeldPs, at + 1, activeCount - at);
            ring[at] = qp;
            ringHeldPs[at] = Long.MIN_VALUE;
            activeCount++;
            if (activeCount > 1) {
                cursorSlot = at + 1;
            }
        }
        nic.kick();
    }

    private void deactivate(SenderQueuePair qp) {
        if (!qp.active) {
            return;
        }
        qp.active = false;
        pacedUntilPs = Long.MIN_VALUE;
        int at = walking && ring[walkSlot] == qp ? walkSlot : slotOf(qp);
        activeCount--;
        System.arraycopy(ring, at + 1, ring, at, activeCount - at);
        System.arraycopy(ringHeldPs, at + 1, ringHeldPs, at, activeCount - at);
        ring[activeCount] = null;
        if (at < cursorSlot) {
            cursorSlot--;
        }
        if (cursorSlot >= activeCount) {
            cursorSlot = 0; // the cursor was the last slot: the round goes on at the first
        }
    }

    private int slotOf(SenderQueuePair qp) {
        for (int k = 0; k < activeCount; k++) {
            if (ring[k] == qp) {
                return k;
            }
        }
        throw new IllegalStateException("an active queue pair is not in its host's ring");
    }

    void onSenderComplete(SenderQueuePair qp) {
        deactivate(qp);
        transport.onFlowComplete(qp);
    }

    private boolean quietAtNow() {
        long now = transport.simulator().nowPs();
        return timerFloorPs > now && starts.noStartPendingThrough(host, now);
    }

    /** Activations that needed no wake-up of the NIC. */
    public long activationsSkipped() {
        return activationsSkipped;
    }

    /** Control packets waiting to be sent. */
    public int controlBacklog() {
        return control.size();
    }
}
