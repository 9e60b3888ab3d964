package org.lbsim.transport;

import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PacketQueue;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QpParts;
import org.lbsim.spi.SenderHooks;
import org.lbsim.spi.SenderQp;

/**
 * The sending half of a queue pair: builds data packets on the NIC's request, combining the three
 * decoupled layers (congestion control says when, loss recovery says which PSN, the entropy
 * policy says which path label). Owns one timer wake-up for its loss recovery. A scheme's
 * {@link SenderHooks} may inject extra packets (duplicates, notifications, probes): they go out
 * before the next data packet, within the congestion control's pacing, and are counted as what
 * they are, never as data sent or retransmissions.
 */
public final class SenderQueuePair implements SenderQp {
    final QpContext ctx;
    // the context's fields the packet path reads, copied so that a packet touches no other object for them
    private final int qpId;
    private final int src;
    private final int dst;
    private final int packets;
    private final int mtuBytes;
    private final long messageBytes;
    private final HostStack host;
    private final Simulator sim;
    private final PacketPool pool;
    private final CongestionControl cc;
    private final LossRecovery recovery;
    private final EntropyPolicy entropy;
    private final SenderHooks hooks;
    private final PacketQueue extras = new PacketQueue();
    /** How many packets {@link #extras} holds, kept here so that a poll without extras reads no other object. */
    private int extrasQueued;
    /** {@link EntropyPolicy#fixedLabel} of the entropy policy, and that label. */
    private final boolean fixedLabel;
    private final int label;
    /** {@link CongestionControl#hearsAcks} of the congestion control. */
    private final boolean ccHearsAcks;
    /** {@link CongestionControl#unpacedUntilRhoMaxChange} of the congestion control, read again after each such change. */
    private boolean ccUnpaced;
    private final int headerBytes;
    private final byte trafficClass;
    private final QueuePairLifecycle queuePairs;
    private final int handlerId;
    private final long startPs;
    private long timerPs = Long.MAX_VALUE;
    private long timerGeneration;
    /** Whether the host counts this queue pair's pending timer as one that may wake it (not once complete). */
    private boolean timerCounted;
    private long completedPs = -1;
    private long sentPackets;
    private long duplicatesSent;
    private long notificationsSent;
    /**
     * Entropy each PSN last went out with, so a timeout can tell the entropy policy which labels failed; 0 for
     * a PSN not sent. Null while the policy has a fixed label and every PSN sent so far was an earlier one or
     * the next: PSNs 0 .. {@code labelledPsns - 1} then went out with {@link #label}, the others not at all,
     * and the array would have {@code entropyLength} slots (a million queue pairs would keep a million of
     * them, and write a cold line per packet).
     */
    private int[] entropyByPsn;
    private int labelledPsns;
    private int entropyLength;
    private final java.util.function.IntConsumer reportLoss;
    /** The parts its scheme made for it; the next message of a persistent queue pair is made from them. */
    QpParts parts;

    // membership in the host's round-robin ring of queue pairs with something to send
    boolean active;
    /** Earliest send time found by the last look, when pacing held it back. */
    long eligiblePs;
    /** {@link CongestionControl#pacingIgnoresFeedback} of its congestion control, kept here so the host's ring walk reads no other object. */
    final boolean pacingIgnoresFeedback;

    SenderQueuePair(QpContext ctx, HostStack host, Simulator sim, PacketPool pool, CongestionControl cc, LossRecovery recovery,
             EntropyPolicy entropy, long startPs) {
        this(ctx, host, sim, pool, cc, recovery, entropy, SenderHooks.NONE, startPs);
    }

    SenderQueuePair(QpContext ctx, HostStack host, Simulator sim, PacketPool pool, CongestionControl cc, LossRecovery recovery,
             EntropyPolicy entropy, SenderHooks hooks, long startPs) {
        this.ctx = ctx;
        this.qpId = ctx.qp();
        this.src = ctx.src();
        this.dst = ctx.dst();
        this.packets = ctx.packets();
        this.mtuBytes = ctx.mtuBytes();
        this.messageBytes = ctx.messageBytes();
        this.host = host;
        this.sim = sim;
        this.pool = pool;
        this.cc = cc;
        this.pacingIgnoresFeedback = cc.pacingIgnoresFeedback();
        this.recovery = recovery;
        this.entropy = entropy;
        this.fixedLabel = entropy.fixedLabel();
        this.label = fixedLabel ? entropy.entropyFor(0, false) : 0;
        this.ccHearsAcks = cc.hearsAcks();
        this.ccUnpaced = cc.unpacedUntilRhoMaxChange();
        this.hooks = hooks;
        this.headerBytes = ctx.headerBytes();
        this.trafficClass = (byte) ctx.trafficClass();
        this.startPs = startPs;
        this.queuePairs = host.queuePairs();
        this.handlerId = queuePairs.senderTimerHandler();
        this.entropyLength = ctx.packets();
        this.entropyByPsn = fixedLabel ? null : new int[entropyLength];
        this.reportLoss = psn -> {
            if (psn < (entropyByPsn != null ? entropyByPsn.length : entropyLength)) {
                entropy.onLoss(labelOf(psn));
            }
        };
        hooks.attach(this);
    }

    /**
     * The next data packet if this queue pair may send now; null otherwise. Sets
     * {@link #eligiblePs} to a future time when only pacing holds it back, or to Long.MAX_VALUE
     * when it must wait for an ACK or its timer.
     */
    Packet poll(long nowPs) {
        if (completedPs >= 0) {
            eligiblePs = Long.MAX_VALUE;
            return null;
        }
        long t = ccUnpaced ? nowPs : cc.earliestSendPs(nowPs, recovery.inflightBytes());
        if (t > nowPs) {
            eligiblePs = t;
            if (pacingIgnoresFeedback) {
                host.held(this, t);
            }
            return null;
        }
        if (pacingIgnoresFeedback) {
            host.notHeld(this); // only such pacing leaves a record to clear
        }
        if (extrasQueued > 0) {
            return sendExtra(nowPs);
        }
        int psn = recovery.nextPsn(nowPs);
        if (psn < 0) {
            eligiblePs = Long.MAX_VALUE;
            // A recovery may start waiting here (the erasure sender's end of message); for every
            // other one the deadline has not moved since the last arming, so this is a no-op.
            armTimer();
            return null;
        }
        Packet p = dataPacket(psn);
        p.retransmission = recovery.isRetransmission(psn);
        if (fixedLabel) {
            p.entropy = label;
        } else {
            entropy.stamp(p);
        }
        recordLabel(psn, p.entropy);
        recovery.onSent(psn, nowPs);
        if (!ccUnpaced) {
            cc.onSent(p.sizeBytes, nowPs);
        }
        sentPackets++;
        armTimer();
        return p;
    }

    /** Notes that PSN {@code psn} went out with label {@code e}. */
    private void recordLabel(int psn, int e) {
        if (entropyByPsn == null) {
            if (e == label && psn <= labelledPsns) {
                if (psn == labelledPsns) {
                    if (psn >= entropyLength) {
                        entropyLength = Math.max(psn + 1, entropyLength * 2); // as the array would grow
                    }
                    labelledPsns++;
                }
                return;
            }
            // another label or a PSN skipped (no loss recovery sends so): one slot per PSN from now on
            int[] a = new int[entropyLength];
            java.util.Arrays.fill(a, 0, labelledPsns, label);
            entropyByPsn = a;
        }
        if (psn >= entropyByPsn.length) {
            entropyByPsn = java.util.Arrays.copyOf(entropyByPsn, Math.max(psn + 1, entropyByPsn.length * 2));
        }
        entropyByPsn[psn] = e;
    }

    /** The label PSN {@code psn} last went out with (0 if never sent). */
    private int labelOf(int psn) {
        if (entropyByPsn != null) {
            return psn < entropyByPsn.length ? entropyByPsn[psn] : 0;
        }
        return psn < labelledPsns ? label : 0;
    }

    private Packet sendExtra(long nowPs) {
        Packet p = extras.poll();
        extrasQueued--;
        if (p.kind == Packet.DATA) {
            duplicatesSent++;
        } else {
            notificationsSent++;
        }
        cc.onSent(p.sizeBytes, nowPs);
        return p;
    }

    @Override
    public Packet newDuplicate(int psn) {
        Packet p = dataPacket(psn);
        p.entropy = labelOf(psn);
        return p;
    }

    /** A data packet of this queue pair carrying {@code psn}'s payload, before any load-balancing field. */
    private Packet dataPacket(int psn) {
        int payload = QpContext.payloadOf(psn, packets, mtuBytes, messageBytes);
        Packet p = pool.acquire();
        queuePairs.made(qpId);
        p.kind = Packet.DATA;
        p.flow = qpId;
        p.src = src;
        p.dst = dst;
        p.psn = psn;
        p.payloadBytes = payload;
        p.sizeBytes = payload + headerBytes;
        p.trafficClass = trafficClass;
        return p;
    }

    @Override
    public Packet newControl(byte kind) {
        Packet p = pool.acquire();
        queuePairs.made(qpId);
        p.kind = kind;
        p.flow = qpId;
        p.src = src;
        p.dst = dst;
        p.sizeBytes = headerBytes;
        p.trafficClass = trafficClass;
        return p;
    }

    @Override
    public void inject(Packet p) {
        if (completedPs >= 0) {
            queuePairs.gone(qpId);
            pool.release(p);
            return;
        }
        extras.add(p);
        extrasQueued++;
        host.activate(this);
    }

    @Override
    public int entropyOf(int psn) {
        return labelOf(psn);
    }

    /** The fabric's rho_max is now {@code mbps}: tells the congestion control ({@link CongestionControl#onRhoMaxChange}). */
    void onRhoMaxChange(long mbps, long nowPs) {
        cc.onRhoMaxChange(mbps, nowPs);
        ccUnpaced = cc.unpacedUntilRhoMaxChange();
    }

    @Override
    public void onSchemePacket(Packet p, long nowPs) {
        hooks.onSchemePacket(this, p, nowPs);
    }

    void onNack(Packet nack, long nowPs) {
        cc.onNack(nowPs);
        recovery.onNack(nack, nowPs);
        afterFeedback(nowPs);
    }

    void onCnp(long nowPs) {
        cc.onCnp(nowPs);
        host.activate(this); // the new rate changes when it may send
    }

    void onAck(Packet ack, long nowPs) {
        if (!fixedLabel) {
            entropy.onAck(ack, nowPs);
        }
        if (ccHearsAcks) {
            cc.onAck(ack, nowPs);
        }
        recovery.onAck(ack, nowPs);
        afterFeedback(nowPs);
    }

    private void afterFeedback(long nowPs) {
        if (recovery.complete()) {
            if (completedPs < 0) {
                completedPs = nowPs;
                uncountTimer(); // a complete queue pair's timer wakes nothing, and it may be released before it fires
                while (!extras.isEmpty()) {
                    queuePairs.gone(qpId);
                    pool.release(extras.poll());
                }
                extrasQueued = 0;
                host.onSenderComplete(this);
            }
            return;
        }
        armTimer();
        host.activate(this);
    }

    /**
     * Whether {@link #poll} would now return null, take this queue pair out of the ring and change nothing
     * else: no extra waiting, a congestion control without pacing side effects that lets it send now,
     * a loss recovery that has nothing to send until feedback, and a timer already armed.
     */
    boolean idleUntilFeedback() {
        long now = sim.nowPs();
        return completedPs < 0 && extrasQueued == 0 && cc.earliestSendPsIsPure() && cc.earliestSendPs(now, recovery.inflightBytes()) <= now
                && recovery.idleUntilFeedback() && recovery.timerDeadlinePs() >= timerPs;
    }

    private void uncountTimer() {
        if (timerCounted) {
            timerCounted = false;
            host.timerGone();
        }
    }

    private void armTimer() {
        long deadline = recovery.timerDeadlinePs();
        // Lazy timer: keep the earlier pending wake-up; when it fires we re-check the real deadline.
        if (deadline < timerPs) {
            if (timerCounted) {
                host.timerMoved(deadline);
            } else {
                timerCounted = true;
                host.timerArmed(deadline);
            }
            timerPs = deadline;
            sim.schedule(handlerId, deadline, qpId, ++timerGeneration); // the transport's timer handler, by queue pair
        }
    }

    /** The timer armed with generation {@code tag} fired (stale unless it is the latest). */
    void onTimer(long tag) {
        if (tag != timerGeneration) {
            return;
        }
        timerPs = Long.MAX_VALUE;
        uncountTimer();
        if (completedPs >= 0) {
            return;
        }
        long now = sim.nowPs();
        long deadline = recovery.timerDeadlinePs();
        if (deadline > now) {
            armTimer();
            return;
        }
        if (recovery.timerIsRetransmissionTimeout()) {
            cc.onTimeout(now);
        }
        recovery.onTimer(now, reportLoss);
        armTimer();
        host.activate(this);
    }

    @Override
    public int qp() {
        return qpId;
    }

    @Override
    public long startPs() {
        return startPs;
    }

    @Override
    public long completedPs() {
        return completedPs;
    }

    @Override
    public long sentPackets() {
        return sentPackets;
    }

    @Override
    public long duplicatesSent() {
        return duplicatesSent;
    }

    @Override
    public long notificationsSent() {
        return notificationsSent;
    }

    @Override
    public int extrasQueued() {
        return extrasQueued;
    }

    @Override
    public QpContext context() {
        return ctx;
    }

    @Override
    public EntropyPolicy entropyPolicy() {
        return entropy;
    }

    @Override
    public LossRecovery recovery() {
        return recovery;
    }

    @Override
    public CongestionControl congestionControl() {
        return cc;
    }
}
