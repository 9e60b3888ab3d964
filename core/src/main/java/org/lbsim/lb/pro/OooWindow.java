package org.lbsim.lb.pro;

import java.util.function.IntPredicate;

/**
 * PRO III-B, Fig. 4 and Algorithm 2, as state: the out-of-order window wnd (AIMD: +1 per repeated
 * arrival, halved per QP timeout, never below 1), tail (largest PSN arrived) and the NACK pointer
 * (Algorithm 2's QP.NACK: every PSN below it has been checked). head, the smallest PSN not arrived,
 * and the bitmap belong to the receiving queue pair and are passed in.
 */
final class OooWindow {
    private int wnd;
    private int tail = -1;
    private int nackNext;

    /** @param initialWindow Algorithm 2: BDP / MTU packets */
    OooWindow(int initialWindow) {
        this.wnd = Math.max(1, initialWindow);
    }

    /** PKT_ACCEPT: new data {@code psn} arrived. */
    void accepted(int psn) {
        if (psn > tail) {
            tail = psn;
        }
    }

    /** PKT_REPEAT (Alg. 2 line 6): data arrived twice, a NACK was premature. */
    void repeated() {
        wnd++;
    }

    /** QP_TIMEOUT (Alg. 2 line 8). */
    void timedOut() {
        wnd = Math.max(1, wnd / 2);
    }

    /**
     * CheckAndSendNACK (Alg. 2 lines 10-14): skips PSNs that arrived; returns the next missing PSN
     * older than tail - wnd and moves past it (it is NACKed once), or -1 when there is none.
     */
    int nextNack(int head, IntPredicate arrived) {
        if (nackNext < head) {
            nackNext = head;
        }
        while (tail - wnd > nackNext) {
            int psn = nackNext++;
            if (!arrived.test(psn)) {
                return psn;
            }
        }
        return -1;
    }

    /** Whether {@code psn} (not arrived) lies outside the window, i.e. counts as lost (Fig. 4). */
    boolean lost(int psn) {
        return psn < tail - wnd;
    }

    int window() {
        return wnd;
    }

    int tail() {
        return tail;
    }
}
