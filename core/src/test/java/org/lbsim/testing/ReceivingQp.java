package org.lbsim.testing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * Test helper: a receiving queue pair as the transport keeps it (expected PSN, PSNs held, one timer) that hands
 * each arrival to a receiver policy and records what the policy answers: ACKs, the expected PSN of every
 * {@link #nack()}, the control packets it sends, discards, timer cancellations.
 */
public final class ReceivingQp implements ReceiverQp {
    public final PacketPool pool = new PacketPool();
    public final ReceiverPolicy policy;
    /** Every PSN held: all below {@link #expected} and those kept out of order above it. */
    private final BitSet received = new BitSet();
    /** The expected PSN at each {@link #nack()}. */
    public final List<Integer> expectedNacks = new ArrayList<>();
    /** The packets the policy made with {@link #newControl} and sent, in order. */
    public final List<Packet> sent = new ArrayList<>();
    public int expected;
    public int acks;
    public int discards;
    public int cancels;
    public long timer = Long.MAX_VALUE;

    public ReceivingQp(ReceiverPolicy policy) {
        this.policy = policy;
    }

    /** Data {@code psn} arrives at {@code nowPs}: a duplicate, out of order, or in order (then the expected PSN moves first). */
    public void arrive(int psn, long nowPs) {
        arrive(psn, false, nowPs);
    }

    /** As {@link #arrive(int, long)}, the data CE-marked when {@code ecnMarked}. */
    public void arrive(int psn, boolean ecnMarked, long nowPs) {
        Packet data = pool.acquire();
        data.kind = Packet.DATA;
        data.psn = psn;
        data.ecnMarked = ecnMarked;
        if (psn < expected || received.get(psn)) {
            policy.onDuplicate(this, data, nowPs);
        } else if (psn > expected) {
            policy.onOutOfOrder(this, data, nowPs);
        } else {
            received.set(psn);
            expected = received.nextClearBit(expected);
            policy.onInOrder(this, data, nowPs);
        }
        pool.release(data);
    }

    /** The timer fires at its deadline. */
    public void fire() {
        long at = timer;
        timer = Long.MAX_VALUE;
        policy.onTimer(this, at);
    }

    /** The PSN of every packet sent, in order. */
    public List<Integer> sentPsns() {
        return sent.stream().map(p -> p.psn).toList();
    }

    /** The kind of every packet sent, in order. */
    public List<Byte> sentKinds() {
        return sent.stream().map(p -> p.kind).toList();
    }

    @Override
    public void keep(Packet data) {
        received.set(data.psn);
    }

    @Override
    public void ack() {
        acks++;
    }

    @Override
    public Packet newControl(byte kind) {
        Packet p = pool.acquire();
        p.kind = kind;
        return p;
    }

    @Override
    public void send(Packet p) {
        sent.add(p);
    }

    @Override
    public void setTimer(long atPs) {
        timer = atPs;
    }

    @Override
    public void cancelTimer() {
        cancels++;
        timer = Long.MAX_VALUE;
    }

    @Override
    public long timerPs() {
        return timer;
    }

    @Override
    public boolean holds(int psn) {
        return received.get(psn);
    }

    @Override
    public int expectedPsn() {
        return expected;
    }

    @Override
    public ReceiverPolicy policy() {
        return policy;
    }

    @Override
    public void discard() {
        discards++;
    }

    @Override
    public void sack() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void nack() {
        expectedNacks.add(expected);
    }

    @Override
    public void nackTrimmed(int psn) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int qp() {
        return 0;
    }

    @Override
    public long completedPs() {
        return -1;
    }

    @Override
    public long receivedPackets() {
        return received.cardinality();
    }

    @Override
    public long duplicates() {
        return 0;
    }

    @Override
    public long discarded() {
        return discards;
    }

    @Override
    public long nacks() {
        return expectedNacks.size() + sent.stream().filter(p -> p.kind == Packet.NACK).count();
    }

    @Override
    public int heldOutOfOrder() {
        return received.cardinality() - expected;
    }

    @Override
    public long cnps() {
        return 0;
    }

    @Override
    public void onSchemePacket(Packet p, long nowPs) {
        policy.onSchemePacket(this, p, nowPs);
    }
}
