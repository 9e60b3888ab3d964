package org.lbsim.transport;

import org.lbsim.lb.AckPolicy;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PacketQueue;

/**
 * The receiving half of a queue pair. It tracks the expected PSN (everything below it has arrived)
 * and, depending on its {@link ReceiveRule}, keeps or discards out-of-order data and answers with
 * ACKs (PSN, cumulative ack, 64-bit selective-ack map, ECN echo) or NACKs. Duplicates are counted
 * (spurious retransmissions) and otherwise ignored, as RNICs do. As a DCQCN notification point it
 * sends at most one CNP per interval when ECN-marked data arrives.
 */
public final class ReceiverQp {
    private final int qp;
    private final int host;
    private final int peer;
    private final long messageBytes;
    private final int ackBytes;
    private final ReceiveRule rule;
    private final long cnpIntervalPs;
    private final BitSet64 received;
    private final AckPolicy ackPolicy;
    private final Transport.OutOfOrderStats ooo;
    private int expected;
    private int nackedFor = -1;
    private int heldOutOfOrder;
    private long distinctBytes;
    private long receivedPackets;
    private long duplicates;
    private long discarded;
    private long nacks;
    private long cnps;
    private long lastCnpPs = Long.MIN_VALUE / 2;
    private long completedPs = -1;

    ReceiverQp(int qp, int host, int peer, long messageBytes, int packets, int ackBytes, AckPolicy ackPolicy, ReceiveRule rule,
               long cnpIntervalPs, Transport.OutOfOrderStats ooo) {
        this.qp = qp;
        this.host = host;
        this.peer = peer;
        this.messageBytes = messageBytes;
        this.ackBytes = ackBytes;
        this.ackPolicy = ackPolicy;
        this.rule = rule;
        this.cnpIntervalPs = cnpIntervalPs;
        this.ooo = ooo;
        this.received = new BitSet64(packets + 64);
    }

    /** Consumes a data packet; queues the answers (ACK, NACK, CNP) on {@code out}. */
    void onData(Packet data, PacketPool pool, long nowPs, PacketQueue out) {
        receivedPackets++;
        int psn = data.psn;
        if (cnpIntervalPs > 0 && data.ecnMarked && nowPs - lastCnpPs >= cnpIntervalPs) {
            lastCnpPs = nowPs;
            cnps++;
            Packet cnp = control(pool, Packet.CNP, data);
            cnp.psn = psn;
            out.add(cnp);
        }
        if (psn < expected || received.get(psn)) {
            duplicates++;
            out.add(ack(pool, Packet.ACK, data));
            return;
        }
        if (psn > expected) {
            ooo.record(psn - expected, heldOutOfOrder);
            if (rule == ReceiveRule.IN_ORDER_ONLY) {
                discarded++;
                if (nackedFor != expected) {
                    nackedFor = expected;
                    nacks++;
                    out.add(ack(pool, Packet.NACK, data));
                }
                return;
            }
            accept(data, nowPs);
            heldOutOfOrder++;
            ooo.held(1);
            if (rule == ReceiveRule.NIC_SELECTIVE_REPEAT) {
                if (nackedFor != expected) {
                    nackedFor = expected;
                    nacks++;
                    out.add(ack(pool, Packet.NACK, data));
                }
                return;
            }
            out.add(ack(pool, Packet.ACK, data));
            return;
        }
        ooo.record(0, heldOutOfOrder);
        accept(data, nowPs);
        int next = received.nextClear(expected);
        heldOutOfOrder -= next - expected - 1;
        ooo.held(-(next - expected - 1));
        expected = next;
        out.add(ack(pool, Packet.ACK, data));
    }

    private void accept(Packet data, long nowPs) {
        received.set(data.psn);
        distinctBytes += data.payloadBytes;
        if (completedPs < 0 && distinctBytes >= messageBytes) {
            completedPs = nowPs;
        }
    }

    private Packet control(PacketPool pool, byte kind, Packet data) {
        Packet p = pool.acquire();
        p.kind = kind;
        p.flow = qp;
        p.src = host;
        p.dst = peer;
        p.sizeBytes = ackBytes;
        p.entropy = data.entropy;
        p.echoSentPs = data.sentPs;
        return p;
    }

    private Packet ack(PacketPool pool, byte kind, Packet data) {
        Packet ack = control(pool, kind, data);
        ack.psn = kind == Packet.NACK ? expected : data.psn;
        ack.cumAck = expected;
        ack.sackBits = rule == ReceiveRule.ACCEPT_ALL ? received.window(expected + 1) : 0;
        ack.ecnEcho = data.ecnMarked;
        ack.receiverComplete = completedPs >= 0;
        ack.receivedBytes = distinctBytes;
        ackPolicy.stampAck(ack, data);
        return ack;
    }

    /** When the receiver first held the whole message, or -1. */
    public long completedPs() {
        return completedPs;
    }

    public long receivedPackets() {
        return receivedPackets;
    }

    /** Data packets that arrived although the receiver already had them. */
    public long duplicates() {
        return duplicates;
    }

    /** Out-of-order data thrown away (go-back-N). */
    public long discarded() {
        return discarded;
    }

    public long nacks() {
        return nacks;
    }

    /** Out-of-order packets this receiver holds now (its reorder buffer). */
    public int heldOutOfOrder() {
        return heldOutOfOrder;
    }

    public long cnps() {
        return cnps;
    }

    /** The next PSN the receiver expects. */
    public int expectedPsn() {
        return expected;
    }
}
