package org.lbsim.transport;

import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PacketQueue;
import org.lbsim.spi.AckPolicy;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * The receiving half of a queue pair. It does what every RNIC does with arriving data: tracks the
 * expected PSN (everything below it has arrived) and a bitmap of the PSNs held, counts duplicates
 * (spurious retransmissions, otherwise ignored as RNICs do), keeps out-of-order statistics and, as
 * a DCQCN notification point, sends at most one CNP per interval when ECN-marked data arrives.
 * What it keeps beyond the expected PSN and how it answers (ACK, SACK map, NACK, a scheme's own
 * packet, now or from a timer) is decided by its {@link ReceiverPolicy}, through the public methods
 * here. Answers go to the host's control queue and are labelled by the load balancer's {@link AckPolicy}.
 */
public final class ReceiverQueuePair implements ReceiverQp {
    private final int qp;
    private final int host;
    private final int peer;
    private final long messageBytes;
    private final int ackBytes;
    private final byte trafficClass;
    private final ReceiverPolicy policy;
    private final long cnpIntervalPs;
    /** PSNs held ({@link Bits}). */
    private long[] received;
    private final AckPolicy ackPolicy;
    private final OutOfOrderStats ooo;
    private final PacketPool pool;
    private final HostStack stack;
    private final PacketQueue out;
    private final Simulator sim;
    private int expected;
    private int heldOutOfOrder;
    private long distinctBytes;
    private long receivedPackets;
    private long duplicates;
    private long discarded;
    private long nacks;
    private long cnps;
    private long lastCnpPs = Long.MIN_VALUE / 2;
    private long completedPs = -1;
    /** PSNs NACKed for their trimmed header whose ePSN NACK is still to be skipped ({@link Bits}); null until a header arrives. */
    private long[] trimNacked;
    private long trimmedHeaders;
    // the latest data packet, which answers refer to
    private int lastPsn;
    private int lastEntropy;
    private long lastSentPs;
    private long lastNicRxPs;
    private boolean lastEcn;
    // the policy's timer: the transport's receiver-timer handler, by queue pair; stale wake-ups told apart by generation
    private final int handlerId;
    private long timerGeneration;
    private long timerPs = Long.MAX_VALUE;

    ReceiverQueuePair(int qp, int host, int peer, long messageBytes, int packets, int ackBytes, int trafficClass, AckPolicy ackPolicy,
               ReceiverPolicy policy, long cnpIntervalPs, OutOfOrderStats ooo, HostStack stack, PacketPool pool, Simulator sim) {
        this.qp = qp;
        this.host = host;
        this.peer = peer;
        this.messageBytes = messageBytes;
        this.ackBytes = ackBytes;
        this.trafficClass = (byte) trafficClass;
        this.ackPolicy = ackPolicy;
        this.policy = policy;
        this.cnpIntervalPs = cnpIntervalPs;
        this.ooo = ooo;
        this.stack = stack;
        this.out = stack.controlQueue();
        this.pool = pool;
        this.sim = sim;
        this.received = Bits.words(packets + 64);
        this.handlerId = stack.queuePairs().receiverTimerHandler();
    }

    /**
     * The next message of a persistent queue pair: the notification point's CNP pacing goes on from
     * the previous message's receiver (one CNP per interval per queue pair, not per message).
     */
    void continueFrom(ReceiverQueuePair previous) {
        lastCnpPs = previous.lastCnpPs;
    }

    AckPolicy ackPolicy() {
        return ackPolicy;
    }

    /** Consumes a data packet; the answers (ACK, NACK, CNP) go to the host's control queue. */
    void onData(Packet data, long nowPs) {
        int psn = data.psn;
        lastPsn = psn;
        lastEntropy = data.entropy;
        lastSentPs = data.sentPs;
        lastNicRxPs = data.nicRxPs;
        lastEcn = data.ecnMarked;
        if (data.headerOnly) {
            trimmedHeaders++;
            policy.onTrimmed(this, data, nowPs);
            return;
        }
        receivedPackets++;
        if (cnpIntervalPs > 0 && data.ecnMarked && nowPs - lastCnpPs >= cnpIntervalPs) {
            lastCnpPs = nowPs;
            cnps++;
            Packet cnp = header(Packet.CNP);
            cnp.psn = psn;
            out.add(cnp);
        }
        if (psn < expected || Bits.get(received, psn)) {
            duplicates++;
            policy.onDuplicate(this, data, nowPs);
            return;
        }
        if (psn > expected) {
            ooo.record(psn - expected, heldOutOfOrder);
            policy.onOutOfOrder(this, data, nowPs);
            return;
        }
        ooo.record(0, heldOutOfOrder);
        accept(data, nowPs);
        int next = Bits.nextClear(received, expected);
        heldOutOfOrder -= next - expected - 1;
        ooo.held(-(next - expected - 1), trafficClass);
        expected = next;
        policy.onInOrder(this, data, nowPs);
    }

    @Override
    public void onSchemePacket(Packet p, long nowPs) {
        policy.onSchemePacket(this, p, nowPs);
    }

    private void accept(Packet data, long nowPs) {
        received = Bits.set(received, data.psn);
        distinctBytes += data.payloadBytes;
        if (completedPs < 0 && distinctBytes >= messageBytes) {
            completedPs = nowPs;
        }
    }

    @Override
    public void keep(Packet data) {
        accept(data, sim.nowPs());
        heldOutOfOrder++;
        ooo.held(1, trafficClass);
    }

    @Override
    public void discard() {
        discarded++;
    }

    @Override
    public void ack() {
        out.add(answer(Packet.ACK, lastPsn, 0));
    }

    @Override
    public void sack() {
        out.add(answer(Packet.ACK, lastPsn, Bits.window(received, expected + 1)));
    }

    @Override
    public void nack() {
        if (trimNacked != null && Bits.get(trimNacked, expected)) {
            Bits.clear(trimNacked, expected); // the trimmed header's NACK asked for this PSN already
            return;
        }
        nacks++;
        out.add(answer(Packet.NACK, expected, 0));
    }

    @Override
    public void nackTrimmed(int psn) {
        if (trimNacked == null) {
            trimNacked = new long[received.length];
        }
        trimNacked = Bits.set(trimNacked, psn);
        nacks++;
        out.add(answer(Packet.NACK, psn, 0));
    }

    /** Headers of trimmed data packets that reached this receiver. */
    public long trimmedHeaders() {
        return trimmedHeaders;
    }

    @Override
    public Packet newControl(byte kind) {
        return answer(kind, lastPsn, 0);
    }

    @Override
    public void send(Packet p) {
        out.add(p);
    }

    private Packet header(byte kind) {
        Packet p = pool.acquire();
        stack.queuePairs().made(qp);
        p.kind = kind;
        p.flow = qp;
        p.src = host;
        p.dst = peer;
        p.sizeBytes = ackBytes;
        p.trafficClass = trafficClass;
        p.entropy = lastEntropy;
        p.echoSentPs = lastSentPs;
        p.echoNicRxPs = lastNicRxPs;
        return p;
    }

    private Packet answer(byte kind, int psn, long sackBits) {
        Packet ack = header(kind);
        ack.psn = psn;
        ack.cumAck = expected;
        ack.sackBits = sackBits;
        ack.ecnEcho = lastEcn;
        ack.receiverComplete = completedPs >= 0;
        ack.receivedBytes = distinctBytes;
        ackPolicy.stampAck(ack, lastEntropy);
        return ack;
    }

    @Override
    public void setTimer(long atPs) {
        if (timerPs == Long.MAX_VALUE) {
            stack.timerArmed(atPs);
        } else {
            stack.timerMoved(atPs);
        }
        timerPs = atPs;
        sim.schedule(handlerId, atPs, qp, ++timerGeneration);
    }

    @Override
    public void cancelTimer() {
        if (timerPs != Long.MAX_VALUE) {
            stack.timerGone();
        }
        timerPs = Long.MAX_VALUE;
        timerGeneration++;
    }

    @Override
    public long timerPs() {
        return timerPs;
    }

    /** The timer set with generation {@code tag} fired (stale unless it is the latest). */
    void onTimer(long tag) {
        if (tag != timerGeneration) {
            return;
        }
        timerPs = Long.MAX_VALUE;
        stack.timerGone();
        policy.onTimer(this, sim.nowPs());
        stack.kickIfControlWaiting();
    }

    @Override
    public boolean holds(int psn) {
        return psn < expected || Bits.get(received, psn);
    }

    @Override
    public int qp() {
        return qp;
    }

    @Override
    public ReceiverPolicy policy() {
        return policy;
    }

    @Override
    public long completedPs() {
        return completedPs;
    }

    @Override
    public long receivedPackets() {
        return receivedPackets;
    }

    @Override
    public long duplicates() {
        return duplicates;
    }

    @Override
    public long discarded() {
        return discarded;
    }

    @Override
    public long nacks() {
        return nacks;
    }

    @Override
    public int heldOutOfOrder() {
        return heldOutOfOrder;
    }

    @Override
    public long cnps() {
        return cnps;
    }

    @Override
    public int expectedPsn() {
        return expected;
    }
}
