package org.lbsim.transport;

import java.util.Arrays;
import org.lbsim.spi.LossRecovery;

/**
 * What the results need of queue pairs released during the run, in primitive arrays by queue pair
 * (empty when no queue pair is ever released), so that memory follows the queue pairs in progress.
 */
final class RetiredQueuePairs {
    private final long[] sent;
    private final long[] retransmissions;
    private final long[] timeouts;
    private final long[] duplicatesReceived;
    private final long[] duplicatesSent;
    private final long[] receiverDonePs;
    private long nacks;
    private long cnps;
    private long duplicatesSentTotal;
    private long notifications;

    /** @param qps the number of queue pairs, or 0 when none is ever released */
    RetiredQueuePairs(int qps) {
        sent = new long[qps];
        retransmissions = new long[qps];
        timeouts = new long[qps];
        duplicatesReceived = new long[qps];
        duplicatesSent = new long[qps];
        receiverDonePs = new long[qps];
        Arrays.fill(receiverDonePs, -1);
    }

    /** Keeps what the results need of queue pair {@code q}, about to be released. */
    void retire(int q, SenderQueuePair s, ReceiverQueuePair r) {
        LossRecovery rec = s.recovery();
        sent[q] = s.sentPackets();
        retransmissions[q] = rec.retransmissions();
        timeouts[q] = rec.timeouts();
        duplicatesSent[q] = s.duplicatesSent();
        duplicatesReceived[q] = r.duplicates();
        receiverDonePs[q] = r.completedPs();
        nacks += r.nacks();
        cnps += r.cnps();
        duplicatesSentTotal += s.duplicatesSent();
        notifications += s.notificationsSent();
    }

    /** Queue pair {@code q} was left out of its connection's data: its receiver had nothing to receive. */
    void leftOut(int q, long nowPs) {
        receiverDonePs[q] = nowPs;
    }

    long sent(int q) {
        return valueOr(sent, q, 0);
    }

    long retransmissions(int q) {
        return valueOr(retransmissions, q, 0);
    }

    long timeouts(int q) {
        return valueOr(timeouts, q, 0);
    }

    long duplicatesSent(int q) {
        return valueOr(duplicatesSent, q, 0);
    }

    long duplicatesReceived(int q) {
        return valueOr(duplicatesReceived, q, 0);
    }

    long receiverDonePs(int q) {
        return valueOr(receiverDonePs, q, -1);
    }

    long nacks() {
        return nacks;
    }

    long cnps() {
        return cnps;
    }

    long duplicatesSentTotal() {
        return duplicatesSentTotal;
    }

    long notifications() {
        return notifications;
    }

    private static long valueOr(long[] values, int q, long none) {
        return q < values.length ? values[q] : none;
    }
}
