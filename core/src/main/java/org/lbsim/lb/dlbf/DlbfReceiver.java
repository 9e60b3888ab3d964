package org.lbsim.lb.dlbf;

import org.lbsim.net.Packet;
import org.lbsim.spi.ReceiverPolicy;
import org.lbsim.spi.ReceiverQp;

/**
 * The DLBF receiver of one queue pair: a commodity RNIC's selective repeat (keep out-of-order data
 * in the bitmap, one NACK per expected PSN carrying only it; data below the expected PSN is a
 * duplicate, dropped and ACKed, DLBF III-C) plus the notification handling of III-D. A notification
 * names the PSN range sent on the old path. Marked (Case 1): record the range and, for up to theta,
 * hold later data without NACKing while the range is incomplete; a hole left at theta is a loss.
 * Unmarked (Case 2): answer at once with a SACK naming the range's missing PSNs and echoing the
 * notification's timestamps, so the sender resends on the new path only those Eq. 3 calls
 * reordering-prone; the range then pends in the same way (the SACK already asked for it). Above the buffer threshold the receiver tells the sender to send full duplicates instead
 * of notifications; at half of it, a recovery notice lets it use notifications again. Keeps the
 * time integral of its out-of-order buffer for the per-queue-pair time average.
 */
final class DlbfReceiver implements ReceiverPolicy {
    private final DlbfRun run;
    private final long thetaPs;
    private final int thresholdPackets;
    private int nackedFor = -1;
    /** Last PSN of the pending old-path range, or -1 when no range is pending. */
    private int pendingUpTo = -1;
    private boolean bufferHigh;
    // time integral of the out-of-order buffer, from the first data packet to the last event
    private long firstPs = -1;
    private long lastPs;
    private int lastHeld;
    double heldPacketPs;
    int maxHeld;
    long case1Waits;
    long case1Losses;
    long case2Sacks;
    long notificationsReceived;
    long notificationsLate;

    DlbfReceiver(DlbfRun run, long thetaPs, int thresholdPackets) {
        this.run = run;
        this.thetaPs = thetaPs;
        this.thresholdPackets = thresholdPackets;
    }

    @Override
    public void onOutOfOrder(ReceiverQp rx, Packet data, long nowPs) {
        integrate(nowPs);
        rx.keep(data);
        // III-D Case 1: while the old path's range is incomplete, later PSNs are expected, not a loss
        boolean waiting = pendingUpTo >= rx.expectedPsn();
        if (!waiting && nackedFor != rx.expectedPsn()) {
            nackedFor = rx.expectedPsn();
            rx.nack();
        } else if (data.ecnMarked) {
            rx.ack(); // III-B: CE marks are echoed per path, also for data held out of order (a cumulative ACK teaches nic-sr nothing new)
        }
        if (!bufferHigh && rx.heldOutOfOrder() > thresholdPackets) {
            bufferHigh = true; // III-D: stop notifications, send full duplicates
            rx.send(rx.newControl(run.bufferHighKind));
        }
        settle(rx, nowPs);
    }

    @Override
    public void onInOrder(ReceiverQp rx, Packet data, long nowPs) {
        integrate(nowPs);
        rx.ack();
        if (pendingUpTo >= 0 && rx.expectedPsn() > pendingUpTo) {
            pendingUpTo = -1; // the range arrived in full within theta
            rx.cancelTimer();
        }
        if (bufferHigh && rx.heldOutOfOrder() <= thresholdPackets / 2) {
            bufferHigh = false; // III-D: buffer pressure relieved, notifications again
            rx.send(rx.newControl(run.bufferOkKind));
        }
        settle(rx, nowPs);
    }

    @Override
    public void onTimer(ReceiverQp rx, long nowPs) {
        if (pendingUpTo >= rx.expectedPsn()) {
            case1Losses++; // III-D: still missing at theta, so a loss: selective repeat's NACK
            if (nackedFor != rx.expectedPsn()) {
                nackedFor = rx.expectedPsn();
                rx.nack();
            }
        }
        pendingUpTo = -1;
    }

    @Override
    public void onSchemePacket(ReceiverQp rx, Packet p, long nowPs) {
        if (p.kind != run.notifyKind) {
            ReceiverPolicy.super.onSchemePacket(rx, p, nowPs);
            return;
        }
        notificationsReceived++;
        int upTo = p.schemeBits;
        if (rx.expectedPsn() > upTo) {
            notificationsLate++;
            return; // everything sent on the old path is already here
        }
        if (!p.ecnMarked) {
            // Case 2: the new path is not congested; SACK the range's holes so only those are resent
            Packet sack = rx.newControl(run.sackKind);
            int from = rx.expectedPsn();
            long bits = 0;
            for (int j = 1; j < 64 && from + j <= upTo; j++) {
                if (rx.holds(from + j)) {
                    bits |= 1L << j;
                }
            }
            sack.cumAck = from;
            sack.sackBits = bits;
            sack.schemeBits = upTo;
            sack.entropy = p.entropy; // the new path's port, whose t1 / t2 the SACK echoes
            sack.echoSentPs = p.sentPs;
            sack.echoNicRxPs = p.nicRxPs;
            sack.ecnEcho = false;
            rx.send(sack);
            case2Sacks++;
        } else {
            case1Waits++;
        }
        pendingUpTo = Math.max(pendingUpTo, upTo);
        rx.setTimer(nowPs + thetaPs);
    }

    private void integrate(long nowPs) {
        if (firstPs < 0) {
            firstPs = nowPs;
            lastPs = nowPs;
        }
        heldPacketPs += (double) lastHeld * (nowPs - lastPs);
        lastPs = nowPs;
    }

    private void settle(ReceiverQp rx, long nowPs) {
        lastHeld = rx.heldOutOfOrder();
        maxHeld = Math.max(maxHeld, lastHeld);
    }

    /** Picoseconds from the first data packet to the last one this receiver handled. */
    long activePs() {
        return firstPs < 0 ? 0 : lastPs - firstPs;
    }

    /** Whether a notified old-path range is pending (Case 1 / Case 2 wait). */
    boolean waiting() {
        return pendingUpTo >= 0;
    }

    boolean bufferHigh() {
        return bufferHigh;
    }
}
