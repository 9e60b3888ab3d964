package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.QpContext;
import org.lbsim.testing.Packets;
import org.lbsim.topology.Topology;

/**
 * MP-RDMA's ACK-clocked window ({@code mprdmaWindow: ack-clocked}, {@link MprdmaWindow}): +1/cwnd per
 * ACK, -1/2 per ACK with ECN echo, a late ACK (more than Delta below snd_ooh) prunes its path and costs a
 * packet of window, and each released packet goes on the path of the ACK that released it.
 */
class MprdmaWindowTest {
    private static final long RTT = Time.us(8);
    private static final int PATHS = 8;
    private static final QpContext QP = new QpContext(0, 0, 1, 200 * 1000L, 200, 1000, 62, 20, 200_000, RTT, 200_000);
    private final ProCounters counters = new ProCounters();
    private final SplittableRandom rng = new SplittableRandom(3);
    private final PacketPool pool = new PacketPool();
    private final int[] pathIdOfIndex = new int[PATHS];
    private final int[] indexOfPathId = new int[1 << 12];

    MprdmaWindowTest() {
        java.util.Arrays.fill(indexOfPathId, -1);
        for (int i = 0; i < PATHS; i++) {
            pathIdOfIndex[i] = PathIds.ofIndex(i, PATHS);
            indexOfPathId[pathIdOfIndex[i]] = i;
        }
    }

    /** A window of {@code w} packets whose initial window has been sent. */
    private MprdmaWindow sentInitial(int w, double probe) {
        MprdmaWindow win = new MprdmaWindow(w, probe, RTT, counters);
        for (int i = 0; i < w; i++) {
            assertThat(win.take()).as("the initial window goes on paths drawn at random").isEqualTo(MprdmaWindow.RANDOM);
        }
        assertThat(win.released()).isZero();
        return win;
    }

    @Test
    void everyUnmarkedAckGrowsTheWindowByOneOverCwndAboutOnePacketPerRoundTrip() {
        MprdmaWindow win = sentInitial(10, 0);
        win.onAck(false, false, 5, 9, 100, false, 0, rng);
        assertThat(win.cwnd()).isEqualTo(10.1);
        for (int i = 1; i < 10; i++) {
            win.onAck(false, false, 5, 9, 100, false, 0, rng);
            win.take();
        }
        assertThat(win.cwnd()).as("a window of ACKs: about one packet more").isBetween(10.9, 11.0);
    }

    @Test
    void everyAckWithEcnEchoCutsHalfAPacketSoARoundOfMarkedAcksHalvesTheWindow() {
        MprdmaWindow win = sentInitial(10, 0);
        for (int i = 0; i < 10; i++) {
            win.onAck(true, false, 5, 10, 100, false, 0, rng);
        }
        assertThat(win.cwnd()).isEqualTo(5.0);
        assertThat(counters.mprdmaEcnCuts).isEqualTo(10);
        assertThat(win.released()).as("no room: cwnd 5 with 10 in flight").isZero();
        for (int i = 0; i < 20; i++) {
            win.onAck(true, false, 5, 10, 100, false, 0, rng);
        }
        assertThat(win.cwnd()).as("never below one packet").isEqualTo(1.0);
    }

    @Test
    void anAckReleasesAtMostTwoPacketsEachOnTheAcksOwnPath() {
        MprdmaWindow win = sentInitial(10, 0);
        win.onAck(false, false, pathIdOfIndex[6], 5, 100, false, 0, rng);
        assertThat(win.released()).as("awnd = floor(10.1 - 5) = 5, at most 2 per ACK").isEqualTo(2);
        assertThat(win.take()).isEqualTo(pathIdOfIndex[6]);
        assertThat(win.take()).isEqualTo(pathIdOfIndex[6]);
        win.onAck(false, false, pathIdOfIndex[3], 9, 100, false, 0, rng);
        assertThat(win.released()).as("awnd = floor(10.2 - 9) = 1").isEqualTo(1);
        assertThat(win.take()).isEqualTo(pathIdOfIndex[3]);
        win.onAck(false, false, pathIdOfIndex[3], 9, 0, false, 0, rng);
        assertThat(win.released()).as("nothing left to send").isZero();
    }

    @Test
    void packetsReleasedAndNotYetSentCountAgainstTheWindow() {
        MprdmaWindow win = sentInitial(10, 0);
        win.onAck(false, false, pathIdOfIndex[6], 7, 100, false, 0, rng);
        assertThat(win.released()).as("awnd = floor(10.1 - 7) = 3, at most 2").isEqualTo(2);
        win.onAck(false, false, pathIdOfIndex[6], 7, 100, false, 0, rng);
        assertThat(win.released()).as("awnd = floor(10.199 - 7 - 2 released) = 1").isEqualTo(3);
    }

    @Test
    void anAckBeforeTheInitialWindowIsOutReleasesOnTopOfWhatIsLeftOfIt() {
        MprdmaWindow win = new MprdmaWindow(10, 0, RTT, counters);
        win.take();
        win.take();
        win.onAck(false, false, pathIdOfIndex[6], 1, 100, false, 0, rng);
        assertThat(win.released()).as("awnd = floor(10.1 - 1 in flight - 8 unsent of the initial window) = 1").isEqualTo(9);
        assertThat(win.take()).as("the ACK's release first").isEqualTo(pathIdOfIndex[6]);
        assertThat(win.take()).isEqualTo(MprdmaWindow.RANDOM);
    }

    @Test
    void atMostMaxPendingReleasedPacketsWaitToBeSent() {
        MprdmaWindow win = sentInitial(200, 0);
        for (int i = 0; i < 40; i++) {
            win.onAck(false, false, pathIdOfIndex[1], 0, 1000, false, 0, rng);
        }
        assertThat(win.released()).isEqualTo(MprdmaWindow.MAX_PENDING);
    }

    /** Probing off: the queue pair's random stream (which also draws the paths of the initial window) is left alone. */
    @Test
    void withoutProbingAnAckDrawsNothingFromTheRandomStream() {
        SplittableRandom stream = new SplittableRandom(7);
        MprdmaWindow win = sentInitial(10, 0);
        for (int i = 0; i < 5; i++) {
            win.onAck(false, false, pathIdOfIndex[1], 0, 100, false, RTT * i, stream);
        }
        assertThat(win.released()).isPositive();
        assertThat(stream.nextLong()).isEqualTo(new SplittableRandom(7).nextLong());
    }

    @Test
    void aLateAckPrunesItsPathAndCostsOnePacketOfWindow() {
        MprdmaWindow win = sentInitial(10, 0);
        win.onAck(false, true, pathIdOfIndex[2], 0, 100, false, 0, rng);
        assertThat(win.released()).as("the late ACK clocks nothing, however open the window").isZero();
        assertThat(win.cwnd()).isEqualTo(10 + 0.1 - 1);
        assertThat(counters.mprdmaPrunedAcks).isEqualTo(1);
    }

    @Test
    void atMostOncePerBaseRttAReleasedPacketProbesANewPath() {
        MprdmaWindow win = sentInitial(10, 1.0);
        win.onAck(false, false, pathIdOfIndex[4], 0, 100, false, 0, rng);
        assertThat(win.take()).as("probe: a path drawn at random").isEqualTo(MprdmaWindow.RANDOM);
        assertThat(win.take()).as("the same base RTT: no second probe").isEqualTo(pathIdOfIndex[4]);
        win.onAck(false, false, pathIdOfIndex[4], 0, 100, false, RTT, rng);
        assertThat(win.take()).isEqualTo(MprdmaWindow.RANDOM);
    }

    @Test
    void aTimeoutHalvesTheWindowAndReleasesTheResend() {
        MprdmaWindow win = sentInitial(16, 0);
        win.onAck(false, false, pathIdOfIndex[1], 16, 100, false, 0, rng);
        assertThat(win.released()).isZero();
        win.onTimeout();
        assertThat(win.cwnd()).isEqualTo((16 + 1 / 16.0) / 2);
        assertThat(win.take()).as("on the last ACK's path").isEqualTo(pathIdOfIndex[1]);
        win.onAck(false, false, pathIdOfIndex[1], 16, 100, true, 0, rng);
        assertThat(win.released()).as("in recovery every ACK releases a resend").isEqualTo(1);
    }

    private Packet ack(int psn, int cumAck, int pathId, boolean ecn) {
        Packet p = Packets.ack(pool, psn, cumAck);
        p.entropy = pathId;
        p.ecnEcho = ecn;
        return p;
    }

    private List<int[]> drain(MprdmaSender s, MprdmaEntropy e, long nowPs) {
        List<int[]> sent = new ArrayList<>();
        for (int psn = s.nextPsn(nowPs); psn >= 0; psn = s.nextPsn(nowPs)) {
            int pathId = e.entropyFor(psn, s.isRetransmission(psn));
            s.onSent(psn, nowPs);
            sent.add(new int[] {psn, pathId});
        }
        return sent;
    }

    private MprdmaSender sender(int initialWindow, int delta, MprdmaEntropy e) {
        return sender(QP, initialWindow, delta, false, e);
    }

    private MprdmaSender sender(QpContext qp, int initialWindow, int delta, boolean dropBeyondBitmap, MprdmaEntropy e) {
        MprdmaWindow w = new MprdmaWindow(initialWindow, 0, RTT, counters);
        e.clockedBy(w);
        return new MprdmaSender(qp, Time.us(80), true, false, 64, delta, dropBeyondBitmap, e, w, rng, counters);
    }

    private MprdmaEntropy entropy() {
        return new MprdmaEntropy(new PathSet(PATHS, 1, true), pathIdOfIndex, indexOfPathId, rng, counters, true);
    }

    @Test
    void atTheSenderNoPacketLeavesBeforeAnAckReleasesItAndItTakesThatAcksPath() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = sender(4, 8, e);
        List<int[]> first = drain(s, e, 0);
        assertThat(first).extracting(x -> x[0]).containsExactly(0, 1, 2, 3);
        assertThat(drain(s, e, 0)).as("the window holds the fifth").isEmpty();
        s.onAck(ack(0, 1, pathIdOfIndex[5], false), RTT);
        List<int[]> next = drain(s, e, RTT);
        assertThat(next).as("cwnd 4.25 - 3 in flight: one packet").hasSize(1);
        assertThat(next.get(0)).containsExactly(4, pathIdOfIndex[5]);
        s.onAck(ack(1, 2, pathIdOfIndex[6], true), RTT);
        assertThat(drain(s, e, RTT)).as("marked: cwnd 3.75 with 3 in flight, nothing on path 6").isEmpty();
        assertThat(s.window().cwnd()).isEqualTo(3.75);
    }

    @Test
    void anAckMoreThanDeltaBehindTheHighestAcknowledgedPsnIsLateAndWithinDeltaIsNot() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = sender(16, 4, e);
        assertThat(drain(s, e, 0)).hasSize(16);
        s.onAck(ack(12, 0, pathIdOfIndex[1], false), RTT); // snd_ooh = 12
        double before = s.window().cwnd();
        s.onAck(ack(9, 0, pathIdOfIndex[2], false), RTT); // 9 >= 12 - 4: reordered within Delta
        assertThat(s.window().cwnd()).isEqualTo(before + 1 / before);
        assertThat(counters.mprdmaPrunedAcks).isZero();
        s.onAck(ack(7, 0, pathIdOfIndex[3], false), RTT); // 7 < 12 - 4: late
        assertThat(counters.mprdmaPrunedAcks).isEqualTo(1);
        assertThat(drain(s, e, RTT)).extracting(x -> x[1]).as("nothing goes on the late ACK's path 3").doesNotContain(pathIdOfIndex[3]);
    }

    @Test
    void anAckReleasesNoMorePacketsThanTheMessageHasLeftToSend() {
        QpContext five = new QpContext(0, 0, 1, 5 * 1000L, 5, 1000, 62, 20, 200_000, RTT, 200_000);
        MprdmaEntropy e = entropy();
        MprdmaSender s = sender(five, 4, 8, false, e);
        assertThat(drain(s, e, 0)).extracting(x -> x[0]).containsExactly(0, 1, 2, 3);
        s.onAck(ack(2, 3, pathIdOfIndex[5], false), RTT);
        // cwnd 4.25 with 1 in flight: room for 3, at most 2 per ACK, and only PSN 4 is left
        assertThat(drain(s, e, RTT)).extracting(x -> x[0]).containsExactly(4);
        assertThat(s.window().released()).isZero();
    }

    @Test
    void anRtoHalvesTheWindowAndAnAckBeforeTheResendsLeaveStillReleasesOneAsInARecovery() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = sender(4, 8, e);
        assertThat(drain(s, e, 0)).hasSize(4);
        List<Integer> lost = new ArrayList<>();
        assertThat(s.onTimer(Time.us(80), lost::add)).isTrue();
        assertThat(lost).containsExactly(0, 1, 2, 3);
        assertThat(s.window().cwnd()).isEqualTo(2.0);
        assertThat(s.window().released()).as("the RTO releases the first resend").isEqualTo(1);
        // PSN 0 was only late: its ACK comes back before any resend left; cwnd 2.5 with 3 in flight has no room,
        // but the sender is rewinding, so the ACK releases one more
        s.onAck(ack(0, 1, pathIdOfIndex[5], false), Time.us(81));
        assertThat(s.window().cwnd()).isEqualTo(2.5);
        assertThat(s.window().released()).isEqualTo(2);
        List<int[]> resent = drain(s, e, Time.us(81));
        assertThat(resent).extracting(x -> x[0]).containsExactly(1, 2);
        assertThat(resent.get(1)[1]).as("the ACK's release goes on the ACK's path").isEqualTo(pathIdOfIndex[5]);
    }

    /** mprdmaBeyondBitmap 'drop': the receiver's NACK releases the resend it asks for, on the NACK's path. */
    @Test
    void aNackReleasesOneResendOnItsOwnPath() {
        MprdmaEntropy e = entropy();
        MprdmaSender s = sender(QP, 4, 8, true, e);
        assertThat(drain(s, e, 0)).hasSize(4);
        Packet nack = ack(0, 0, pathIdOfIndex[6], false);
        nack.kind = Packet.NACK;
        s.onNack(nack, RTT);
        s.onNack(nack, RTT);
        assertThat(drain(s, e, RTT)).as("one release: the second NACK finds the first's still waiting").containsExactly(new int[] {0, pathIdOfIndex[6]});
    }

    private static Path incast() throws Exception {
        Path f = Files.createTempFile("mprdma-incast", ".csv");
        StringBuilder sb = new StringBuilder("src,dst,bytes,start_ns\n");
        for (int h = 0; h < 4; h++) {
            sb.append(h).append(",4,1000000,0\n");
        }
        Files.writeString(f, sb.toString());
        f.toFile().deleteOnExit();
        return f;
    }

    /** The largest queue of ToR l1's port to host 4, the incast's bottleneck. */
    private static long bottleneckQueue(PreparedRun run) {
        Topology t = run.topology();
        int l1 = t.nodeByName("l1");
        long max = 0;
        for (int p = t.firstPort(l1); p < t.portEnd(l1); p++) {
            if (t.peerNode(p) == 4) {
                max = Math.max(max, run.network().egress(p).maxQueueBytes());
            }
        }
        return max;
    }

    /**
     * A 4-to-1 incast of senders that never slow down by themselves (fixed-rate at line rate, no sender-side
     * bitmap gate): without the window the bottleneck queue grows until PFC pauses them (about 800 KB here);
     * with MP-RDMA's window the ECN echoes (Kmin 100 KB, Kmax 400 KB) cut it back below Kmax.
     */
    @Test
    void inAnIncastTheWindowKeepsTheBottleneckQueueNearTheMarkingThresholds() throws Exception {
        String trace = incast().toString();
        PreparedRun free = ProRunTest.prepare(ProRunTest.fabric(5).congestionControl("fixed-rate").trace(trace)
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBeyondBitmap", "drop")
                .set("loadBalancing.mprdmaBitmapPackets", 4096).set("loadBalancing.mprdmaDeltaPackets", 64), new Pro[1]);
        RunResult a = free.run();
        Pro[] pro = new Pro[1];
        PreparedRun clocked = ProRunTest.prepare(ProRunTest.fabric(5).congestionControl("fixed-rate").trace(trace)
                .set("loadBalancing.recovery", "mprdma").set("loadBalancing.mprdmaBeyondBitmap", "drop")
                .set("loadBalancing.mprdmaBitmapPackets", 4096).set("loadBalancing.mprdmaDeltaPackets", 64)
                .set("loadBalancing.mprdmaWindow", "ack-clocked"), pro);
        RunResult b = clocked.run();
        assertThat(a.flowsFinished()).isEqualTo(4);
        assertThat(b.flowsFinished()).isEqualTo(4);
        assertThat(Invariants.violations(clocked)).isEmpty();
        assertThat(b.schemeCounters().get("pro.mprdmaEcnCuts").longValue()).isPositive();
        long without = bottleneckQueue(free);
        long with = bottleneckQueue(clocked);
        assertThat(with).as("with MP-RDMA's window: below Kmax, where every packet would be marked").isLessThan(400_000);
        assertThat(without).as("without the window the queue grows until PFC holds the senders").isGreaterThan(2 * with);
    }
}
