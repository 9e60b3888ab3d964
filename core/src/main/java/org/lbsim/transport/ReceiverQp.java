package org.lbsim.transport;

import org.lbsim.lb.AckPolicy;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;

/**
 * The receiving half of a queue pair, as an RNIC that accepts out-of-order data: it records each
 * PSN, counts duplicates (spurious retransmissions) without other effect, and answers every data
 * packet with one ACK carrying the PSN, the cumulative ack, a 64-bit selective-ack map and the
 * ECN echo.
 */
public final class ReceiverQp {
    private final int qp;
    private final int host;
    private final int peer;
    private final long messageBytes;
    private final int ackBytes;
    private final BitSet64 received;
    private final AckPolicy ackPolicy;
    private int cumAck;
    private long distinctBytes;
    private long receivedPackets;
    private long duplicates;
    private long completedPs = -1;

    ReceiverQp(int qp, int host, int peer, long messageBytes, int packets, int ackBytes, AckPolicy ackPolicy) {
        this.ackPolicy = ackPolicy;
        this.qp = qp;
        this.host = host;
        this.peer = peer;
        this.messageBytes = messageBytes;
        this.ackBytes = ackBytes;
        this.received = new BitSet64(packets + 64);
    }

    /** Consumes a data packet and returns the ACK to send back. */
    Packet onData(Packet data, PacketPool pool, long nowPs) {
        receivedPackets++;
        int psn = data.psn;
        if (received.get(psn)) {
            duplicates++;
        } else {
            received.set(psn);
            distinctBytes += data.payloadBytes;
            if (psn == cumAck) {
                cumAck = received.nextClear(cumAck);
            }
            if (completedPs < 0 && distinctBytes >= messageBytes) {
                completedPs = nowPs;
            }
        }
        Packet ack = pool.acquire();
        ack.kind = Packet.ACK;
        ack.flow = qp;
        ack.src = host;
        ack.dst = peer;
        ack.sizeBytes = ackBytes;
        ack.psn = psn;
        ack.cumAck = cumAck;
        ack.sackBits = received.window(cumAck + 1);
        ack.ecnEcho = data.ecnMarked;
        ackPolicy.stampAck(ack, data);
        ack.echoSentPs = data.sentPs;
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
}
