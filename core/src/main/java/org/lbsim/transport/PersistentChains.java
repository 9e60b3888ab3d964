package org.lbsim.transport;

import java.util.Arrays;

/**
 * Persistent queue pairs ({@code nic.queuePairs: persistent}): the messages that follow each other on
 * one queue pair. A message starts only once the previous one is fully acknowledged, and is built
 * from the sender and receiver that one leaves, held here from its completion until then.
 */
final class PersistentChains {
    /** The previous message on each queue pair's persistent queue pair, -1 for the first. */
    private final int[] previousOnQp;
    private final int[] nextOnQp;
    /** The sender and receiver of a queue pair's previous message, held from its completion until this one is built. */
    private final SenderQueuePair[] carriedSender;
    private final ReceiverQueuePair[] carriedReceiver;
    private final boolean[] qpDone;
    /** Ready to start, but waiting for the previous message on its queue pair. */
    private final boolean[] waitingForQp;

    /**
     * @param previousOnQp for each queue pair, the queue pair of the previous message on the same persistent
     *                     queue pair, or -1; each queue pair has at most one successor
     */
    PersistentChains(int[] previousOnQp) {
        int n = previousOnQp.length;
        this.previousOnQp = previousOnQp.clone();
        nextOnQp = new int[n];
        Arrays.fill(nextOnQp, -1);
        for (int i = 0; i < n; i++) {
            int prev = previousOnQp[i];
            if (prev == i || prev >= n || (prev >= 0 && nextOnQp[prev] >= 0)) {
                throw new IllegalArgumentException("queue pair " + i + " cannot follow queue pair " + prev + " on a persistent queue pair");
            }
            if (prev >= 0) {
                nextOnQp[prev] = i;
            }
        }
        carriedSender = new SenderQueuePair[n];
        carriedReceiver = new ReceiverQueuePair[n];
        qpDone = new boolean[n];
        waitingForQp = new boolean[n];
    }

    /** Whether queue pair {@code q} carries a later message of a persistent queue pair. */
    boolean continues(int q) {
        return previousOnQp[q] >= 0;
    }

    int previous(int q) {
        return previousOnQp[q];
    }

    /** Whether queue pair {@code q} must wait for its previous message; if so it is marked as waiting. */
    boolean holdsBack(int q) {
        if (continues(q) && !qpDone[previousOnQp[q]]) {
            waitingForQp[q] = true;
            return true;
        }
        return false;
    }

    /**
     * Queue pair {@code q} completed: its successor inherits its sender and receiver. Returns the
     * successor if it was waiting for this completion (to be started now), else -1.
     */
    int onComplete(int q, SenderQueuePair sender, ReceiverQueuePair receiver) {
        qpDone[q] = true;
        int following = nextOnQp[q];
        if (following < 0) {
            return -1;
        }
        carriedSender[following] = sender;
        carriedReceiver[following] = receiver;
        if (!waitingForQp[following]) {
            return -1;
        }
        waitingForQp[following] = false;
        return following;
    }

    /** The sender of queue pair {@code q}'s previous message while it is held for {@code q}, else null. */
    SenderQueuePair carriedSender(int q) {
        return carriedSender[q];
    }

    ReceiverQueuePair carriedReceiver(int q) {
        return carriedReceiver[q];
    }

    /** Queue pair {@code q} was built from what its previous message left: nothing is held for it any more. */
    void handedOver(int q) {
        carriedSender[q] = null;
        carriedReceiver[q] = null;
    }
}
