package org.lbsim.lb.dlbf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.lbsim.lb.dlbf.DlbfTestKinds.NOTIFY;
import static org.lbsim.lb.dlbf.DlbfTestKinds.SACK;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.LossRecovery;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.SenderQp;
import org.lbsim.testing.Packets;

/**
 * DLBF's sender on its own, over two paths with hand-set one-way delays: the congestion signals it
 * counts, Algorithm 1's runs, what a switch injects (Eq. 3's selective duplicates, or a notification
 * when something is in flight) and the Case 2 resends of Eq. 3 from the SACK's map.
 */
class DlbfSenderTest {
    private static final long AVAIL_PS = 50_000_000;
    private static final long UNAVAIL_PS = 100_000_000;

    private final PacketPool pool = new PacketPool();
    private final Simulator sim = new Simulator();
    private final PathStates paths = new PathStates(1000, 2, AVAIL_PS, UNAVAIL_PS);
    private final List<Packet> injected = new ArrayList<>();
    private final DlbfSender sender;

    DlbfSenderTest() {
        sender = new DlbfSender(paths, new SplittableRandom(3), sim, DlbfTestKinds.run(), true, 0, 0, 10);
        sender.attach(new InjectingSender());
        // a far-off event keeps the clock movable: run(t) then stops at t
        sim.schedule(sim.register((kind, tag) -> { }), Long.MAX_VALUE / 2, 0, 0);
    }

    /** The extras the sender makes, recorded as injected. */
    private final class InjectingSender implements SenderQp {
        @Override
        public Packet newDuplicate(int psn) {
            Packet p = pool.acquire();
            p.kind = Packet.DATA;
            p.psn = psn;
            return p;
        }

        @Override
        public Packet newControl(byte kind) {
            Packet p = pool.acquire();
            p.kind = kind;
            return p;
        }

        @Override
        public void inject(Packet p) {
            injected.add(p);
        }

        @Override
        public int entropyOf(int psn) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int qp() {
            return 0;
        }

        @Override
        public long startPs() {
            return 0;
        }

        @Override
        public long completedPs() {
            return -1;
        }

        @Override
        public long sentPackets() {
            return 0;
        }

        @Override
        public long duplicatesSent() {
            return 0;
        }

        @Override
        public long notificationsSent() {
            return 0;
        }

        @Override
        public int extrasQueued() {
            return injected.size();
        }

        @Override
        public QpContext context() {
            throw new UnsupportedOperationException();
        }

        @Override
        public EntropyPolicy entropyPolicy() {
            return sender;
        }

        @Override
        public LossRecovery recovery() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CongestionControl congestionControl() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void onSchemePacket(Packet p, long nowPs) {
            sender.onSchemePacket(this, p, nowPs);
        }
    }

    /** Data PSNs {@code 0 .. n - 1} leave 1000 ps apart from time 0; returns the port of the first. */
    private int send(int n) {
        int port = -1;
        for (int psn = 0; psn < n; psn++) {
            sim.run(psn * 1_000L);
            int p = sender.entropyFor(psn, false);
            port = psn == 0 ? p : port;
        }
        return port;
    }

    /** An ACK on {@code path} with the data's NIC timestamps t1 (sent) and t2 (received), and the receiver's cumulative ack. */
    private Packet ack(int path, int cumAck, long t1, long t2, boolean ecnEcho) {
        Packet a = Packets.ack(pool, 0, cumAck);
        a.entropy = paths.port(path);
        a.echoSentPs = t1;
        a.echoNicRxPs = t2;
        a.ecnEcho = ecnEcho;
        return a;
    }

    private List<Integer> injectedPsns() {
        return injected.stream().map(p -> p.psn).toList();
    }

    /**
     * An ECN echo about the current path counts as one on it and moves the flow; a later echo about
     * the path it left counts but runs Algorithm 1 only to reuse the new path.
     */
    @Test
    void congestionEchoesAreCountedByPathAndEachRunsAlgorithm1() {
        send(3);
        int first = sender.currentPath();
        sender.onAck(ack(first, 1, 0, 5_000, true), 5_000);
        int second = sender.currentPath();
        assertEquals(1 - first, second);
        sender.onAck(ack(first, 2, 1_000, 6_000, true), 6_000);
        assertEquals(second, sender.currentPath());
        sender.onAck(ack(second, 3, 2_000, 7_000, false), 7_000);
        assertEquals(2, sender.congestionEchoes);
        assertEquals(1, sender.congestionEchoesOnCurrent);
        assertEquals(1, sender.pathSwitches);
        // the first packet and the first echo explore an unprobed path (line 5); the second echo reuses (line 1)
        assertArrayEquals(new long[] {1, 0, 2, 0}, sender.algorithm1);
    }

    /**
     * Eq. 3 with Delta = 4000 - 1000 = 3000 ps: of the unacknowledged PSNs 2 and 3, sent 3000 and 2000 ps
     * before the switch, only PSN 3 spent less than Delta on the old path, so only it is duplicated, on the new one.
     */
    @Test
    void onlyPacketsInFlightForLessThanDeltaAreDuplicatedOnTheNewPath() {
        paths.onEcho(0, false, 0); // path 0 available: the flow starts on it
        send(4);
        assertEquals(0, sender.currentPath());
        sender.onAck(ack(1, 1, 500, 1_500, false), 4_000); // path 1 measured at 1000 ps and available
        sender.onAck(ack(0, 2, 1_000, 5_000, true), 5_000); // path 0: 4000 ps, congested
        assertEquals(1, sender.currentPath());
        assertEquals(PathStates.RANDOM_AVAILABLE, paths.lastChoice());
        assertEquals(List.of(3), injectedPsns());
        assertEquals(paths.port(1), injected.get(0).entropy);
        assertEquals(1, sender.selectiveDuplicates);
    }

    /** PSN 2, the highest sent, is still unacknowledged when the receiver's cumulative ack is 2: the switch notifies its range. */
    @Test
    void aSwitchWithTheLastPacketStillUnacknowledgedNotifiesItsRange() {
        paths.onEcho(0, false, 0);
        send(3);
        sender.onAck(ack(0, 2, 1_000, 5_000, true), 5_000);
        assertEquals(1, sender.currentPath());
        assertEquals(1, injected.size());
        Packet n = injected.get(0);
        assertEquals(NOTIFY, n.kind);
        assertEquals(paths.port(1), n.entropy);
        assertEquals(2, n.psn);
        assertEquals(2, n.schemeBits);
        assertEquals(1, sender.notifications);
    }

    @Test
    void aSwitchWithEverythingAcknowledgedInjectsNothing() {
        paths.onEcho(0, false, 0);
        send(3);
        sender.onAck(ack(0, 3, 2_000, 6_000, true), 6_000);
        assertEquals(1, sender.currentPath());
        assertEquals(1, sender.pathSwitches);
        assertEquals(List.of(), injected);
    }

    /**
     * Case 2, the flow starting on either path: PSNs 0-7 leave 1000 ps apart, an ECN echo at 7500 ps moves
     * the flow (old path: 6000 ps one way) to the unprobed path with a notification of [2, 7]; the
     * SACK at 9000 ps measures the new path at 2000 ps (Delta = 4000 ps), makes it available and says PSNs
     * 3 and 6 are in. Of the missing 2, 4, 5, 7 only PSN 7 (2000 ps on the old path) is below Delta; PSN 5
     * (exactly Delta) is not; PSN 6 (3000 ps) is in. PSN 7 goes again, on the new path.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void theCase2SackResendsOnlyTheMissingPacketsBelowDelta(int firstPath) {
        int next = 1 - firstPath;
        paths.onEcho(firstPath, false, 0);
        send(8);
        assertEquals(firstPath, sender.currentPath());
        sender.onAck(ack(firstPath, 1, 0, 6_000, false), 7_000);
        sender.onAck(ack(firstPath, 2, 1_000, 7_000, true), 7_500);
        assertEquals(next, sender.currentPath());
        assertEquals(List.of(NOTIFY), injected.stream().map(p -> p.kind).toList());
        injected.clear();
        Packet sack = pool.acquire();
        sack.kind = SACK;
        sack.entropy = paths.port(next);
        sack.cumAck = 2;
        sack.sackBits = (1L << 1) | (1L << 4);
        sack.schemeBits = 7;
        sack.echoSentPs = 7_500;
        sack.echoNicRxPs = 9_500;
        sender.onSchemePacket(null, sack, 9_000);
        assertEquals(PathStates.AVAILABLE, paths.state(next, 9_000));
        assertEquals(2_000, paths.owdPs(next));
        assertEquals(List.of(7), injectedPsns());
        assertEquals(paths.port(next), injected.get(0).entropy);
        assertEquals(1, sender.sackResends);
    }

    @Test
    void aSackWithoutANotificationIsIgnored() {
        paths.onEcho(0, false, 0);
        send(4);
        Packet sack = pool.acquire();
        sack.kind = SACK;
        sack.entropy = paths.port(1);
        sack.cumAck = 0;
        sender.onSchemePacket(null, sack, 9_000);
        assertEquals(List.of(), injected);
        assertEquals(PathStates.UNPROBED, paths.state(1, 9_000), "nothing was notified on path 1");
    }

    @Test
    void aPacketKindTheSenderDoesNotKnowIsRefused() {
        Packet p = pool.acquire();
        p.kind = (byte) (Packet.FIRST_SCHEME_KIND + 9);
        assertThrows(IllegalStateException.class, () -> sender.onSchemePacket(new InjectingSender(), p, 0));
    }
}
