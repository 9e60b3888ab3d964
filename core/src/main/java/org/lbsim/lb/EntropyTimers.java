package org.lbsim.lb;

import java.util.Arrays;

/**
 * For each entropy a queue pair has sent on and not heard back from, the time of the oldest such
 * send: REPS's per-entropy timers as the OFAN authors' htsim keeps them (an ACK on the entropy
 * clears its timer; a send starts one only if none is running). Open addressing with linear
 * probing on the entropy's low bits: entropies are random, so they need no hashing, and the
 * table only grows (no allocation per packet once it fits the entropies in flight and lost).
 */
final class EntropyTimers {
    private static final int EMPTY = -1;
    private int[] keys;
    private long[] sincePs;
    private int mask;
    private int count;

    EntropyTimers() {
        keys = new int[16];
        sincePs = new long[16];
        mask = 15;
        Arrays.fill(keys, EMPTY);
    }

    /** The oldest unanswered send on {@code entropy}, or -1 if none is running. */
    long sincePs(int entropy) {
        int i = slotOf(entropy);
        return keys[i] == entropy ? sincePs[i] : -1;
    }

    /**
     * The start of {@code entropy}'s running timer; if none runs, starts one at {@code nowPs} and
     * returns {@code nowPs}. One probe for the check and the start.
     */
    long sinceOrStart(int entropy, long nowPs) {
        int i = slotOf(entropy);
        if (keys[i] == entropy) {
            return sincePs[i];
        }
        insertAt(i, entropy, nowPs);
        return nowPs;
    }

    private void insertAt(int i, int entropy, long nowPs) {
        keys[i] = entropy;
        sincePs[i] = nowPs;
        if (++count * 2 > keys.length) {
            grow();
        }
    }

    /** Clears the timer of {@code entropy}, if any (backward-shift deletion keeps probes short). */
    void clear(int entropy) {
        int i = slotOf(entropy);
        if (keys[i] != entropy) {
            return;
        }
        count--;
        for (int j = (i + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = keys[j] & mask;
            // the entry at j may fill the hole at i only if its home slot is not in (i, j] cyclically
            boolean stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays) {
                keys[i] = keys[j];
                sincePs[i] = sincePs[j];
                i = j;
            }
        }
        keys[i] = EMPTY;
    }

    /** The slot holding {@code entropy}, or the empty slot where it would go. */
    private int slotOf(int entropy) {
        int i = entropy & mask;
        while (keys[i] != entropy && keys[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        return i;
    }

    int size() {
        return count;
    }

    private void grow() {
        int[] oldKeys = keys;
        long[] oldSince = sincePs;
        keys = new int[oldKeys.length * 2];
        sincePs = new long[oldKeys.length * 2];
        mask = keys.length - 1;
        Arrays.fill(keys, EMPTY);
        count = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                insertAt(slotOf(oldKeys[i]), oldKeys[i], oldSince[i]);
            }
        }
    }
}
