package org.lbsim.spi;

import org.lbsim.net.Packet;

/**
 * The sending half of one queue pair as its scheme's {@link SenderHooks} see it: the extra packets
 * (duplicates, notifications, probes) it makes and injects, and what it has sent so far.
 */
public interface SenderQp {
    /**
     * A copy of data packet {@code psn} (same payload, labelled with the entropy that PSN last went
     * out with, not marked as a retransmission) for {@link #inject}; set its entropy or path first
     * to send it another way (DLBF III-C: selective duplicate transmission on the new path).
     */
    Packet newDuplicate(int psn);

    /**
     * A payload-free packet of a scheme's registered {@code kind}, headers only (DLBF III-D: a
     * notification), for {@link #inject}; fill in its entropy and what it carries first.
     */
    Packet newControl(byte kind);

    /**
     * Queues an extra packet made by {@link #newDuplicate} or {@link #newControl}: it goes out
     * before the next data packet. A data copy counts as a duplicate, anything else as a
     * notification; neither counts as data sent nor as a retransmission, and loss recovery never
     * hears of it. Extras still queued when the queue pair completes are dropped.
     */
    void inject(Packet p);

    /** The entropy data PSN {@code psn} last went out with (0 if never sent). */
    int entropyOf(int psn);

    int qp();

    long startPs();

    /** When the last byte was acknowledged, or -1. */
    long completedPs();

    /** Data packets sent (first transmissions and retransmissions; not extras). */
    long sentPackets();

    /** Data copies injected by the scheme and sent (DLBF's selective duplicates); never retransmissions. */
    long duplicatesSent();

    /** Payload-free packets of a scheme's own kinds injected and sent (notifications, probes). */
    long notificationsSent();

    /** Extra packets injected and not yet sent. */
    int extrasQueued();

    QpContext context();

    EntropyPolicy entropyPolicy();

    LossRecovery recovery();

    CongestionControl congestionControl();

    /** A packet of a scheme's own kind came back to this sender ({@link PacketKinds#TO_SENDER}): its hooks handle it; the stack releases it. */
    void onSchemePacket(Packet p, long nowPs);
}
