package org.lbsim.lb.pro;

import java.util.function.IntPredicate;
import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * PRO III-B and III-C at the receiving RNIC, Algorithm 2. Out-of-order data is placed directly
 * (a bit in the bitmap; the RNIC buffers nothing), every arrival is answered with a cumulative ACK.
 * head is the smallest PSN not arrived ({@link ReceiverQp#expectedPsn}), tail the largest arrived;
 * missing PSNs older than tail - wnd are taken as lost and NACKed one by one (each at most once),
 * the rest as merely out of order. The window starts at BDP / MTU, grows by one per repeated
 * arrival (PKT_REPEAT: a NACK was premature) and halves on QP_TIMEOUT (no head progress for the
 * RTO while a hole is open), which also re-checks for NACKs.
 */
final class ProReceiver implements ReceiverPolicy {
    private final long timeoutPs;
    private final ProCounters counters;
    private final OooWindow window;
    private final IntPredicate arrived;
    private ReceiverQp rx;
    private int lastHead;
    private long headMovedPs;

    ProReceiver(int initialWindow, long timeoutPs, ProCounters counters) {
        this.window = new OooWindow(initialWindow);
        this.arrived = psn -> rx.holds(psn);
        this.timeoutPs = timeoutPs;
        this.counters = counters;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        rx.keep(data); // PRO III-C: placed directly in application memory
        accepted(rx, data.psn, nowPs);
    }

    @Override
    public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
        accepted(rx, data.psn, nowPs);
    }

    /** Alg. 2 lines 5-6, PKT_REPEAT: the packet was NACKed too early, widen the window. */
    @Override
    public void onDuplicate(ReceiverQp rx, Packet data, long nowPs) {
        window.repeated();
        counters.repeats++;
        rx.ack();
    }

    /** PKT_ACCEPT (Alg. 2 line 3); III-B: "each out-of-order packet outside the OOO window should trigger NACK". */
    private void accepted(ReceiverQp rx, int psn, long nowPs) {
        window.accepted(psn);
        int head = rx.expectedPsn();
        if (head != lastHead) {
            lastHead = head;
            headMovedPs = nowPs;
        }
        checkAndSendNack(rx);
        rx.ack();
        if (head > window.tail()) {
            rx.cancelTimer(); // no hole: nothing can time out
        } else if (rx.timerPs() == Long.MAX_VALUE) {
            // no timer pending while a hole is open: the hole has just opened, its clock starts now
            headMovedPs = nowPs;
            rx.setTimer(nowPs + timeoutPs);
        }
    }

    /** Alg. 2 lines 7-9, QP_TIMEOUT: the head has not moved for the RTO while a hole is open. */
    @Override
    public void onTimer(ReceiverQp rx, long nowPs) {
        int head = rx.expectedPsn();
        if (head > window.tail()) {
            return;
        }
        if (nowPs - headMovedPs < timeoutPs) {
            rx.setTimer(headMovedPs + timeoutPs);
            return;
        }
        window.timedOut();
        counters.timeouts++;
        headMovedPs = nowPs;
        checkAndSendNack(rx);
        rx.setTimer(nowPs + timeoutPs);
    }

    /** Alg. 2 lines 10-14: NACK each missing PSN older than tail - wnd, once. */
    private void checkAndSendNack(ReceiverQp rx) {
        this.rx = rx;
        for (int psn = window.nextNack(rx.expectedPsn(), arrived); psn >= 0; psn = window.nextNack(rx.expectedPsn(), arrived)) {
            Packet nack = rx.newControl(Packet.NACK);
            nack.psn = psn; // the sender resends exactly this PSN
            rx.send(nack);
            counters.nacks++;
        }
    }

    int window() {
        return window.window();
    }
}
