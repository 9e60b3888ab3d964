package org.lbsim.lb.pro;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * Test helper: a receiving queue pair as the transport keeps it (expected PSN, PSNs held, one timer) that hands
 * each arrival to a receiver policy and records what the policy answers: ACKs, the PSNs its own NACKs name,
 * NACKs of the expected PSN, discards.
 */
final class ReceivingQp implements ReceiverQp {
    final PacketPool pool = new PacketPool();
    final BitSet received = new BitSet();
    final List<Integer> nacked = new ArrayList<>();
    final ReceiverPolicy policy;
    int discards;
    int expectedNacks;
    int expected;
    int acks;
    long timer = Long.MAX_VALUE;

    ReceivingQp(ReceiverPolicy policy) {
        this.policy = policy;
    }

    /** Data {@code psn} arrives at {@code nowPs}: a duplicate, out of order, or in order (then the expected PSN moves first). */
    void arrive(int psn, long nowPs) {
        Packet data = pool.acquire();
        data.kind = Packet.DATA;
        data.psn = psn;
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
    void fire() {
        long at = timer;
        timer = Long.MAX_VALUE;
        policy.onTimer(this, at);
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
        nacked.add(p.psn);
        pool.release(p);
    }

    @Override
    public void setTimer(long atPs) {
        timer = atPs;
    }

    @Override
    public void cancelTimer() {
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
        expectedNacks++;
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
        return nacked.size() + expectedNacks;
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
        throw new UnsupportedOperationException();
    }
}
