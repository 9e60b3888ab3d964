package org.lbsim.lb.conweave;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.lb.tor.TorView;
import org.lbsim.net.Packet;
import org.lbsim.sim.PreparedRun;
import org.lbsim.testing.TorBench;

/**
 * One ToR's ConWeave program driven packet by packet (conweave-routing.cc RouteInput), on a 2-leaf,
 * 2-spine fabric with 1 us links (h0-h3 under l0, h4-h7 under l1; base RTT between the leaves 4 us).
 * The program is built on the run's switch with a random stream the test mirrors, so each path it
 * draws (two per data packet at the source ToR) is known; the run's own traffic starts only after
 * everything here.
 */
class ConWeaveTorTest {
    static final long US = 1_000_000;
    static final long SEED = 7;
    static final int FRAME_BYTES = 1062;
    /** ConWeave's defaults: base RTT 4 us + 4 us for the RTT_REPLY, 300 us of idleness ends an epoch, a NOTIFY pauses a path 16 us. */
    static final long REPLY_DEADLINE_PS = 8 * US;
    static final long EXPIRY_PS = 300 * US;
    static final long PAUSE_PS = 16 * US;

    @TempDir
    Path dir;

    ConWeave cw;
    PreparedRun run;
    TorBench bench;

    @BeforeEach
    void fabric() throws Exception {
        prepare(new ConWeave(ConWeave.Params.defaults()));
    }

    /** The fabric with ConWeave {@code conWeave} on it. */
    private void prepare(ConWeave conWeave) throws Exception {
        cw = conWeave;
        run = Lbsim.scenario().leafSpine(4, 2, 2).linkRateGbps(100).linkDelayNs(1000).trace(TorBench.lateTrace(dir, 0, 4)).seed(1).prepare(cw);
        bench = new TorBench(run);
    }

    private ConWeaveTor tor(String leaf) {
        int node = bench.t.nodeByName(leaf);
        return new ConWeaveTor(cw, new TorView(bench.t), bench.context(node, SEED), run.network().switchAt(node));
    }

    /** The stream the program draws its paths from. */
    private static SplittableRandom mirror() {
        return new SplittableRandom(SEED).split();
    }

    private void advanceTo(long ps) {
        bench.advanceTo(ps);
    }

    private Packet data(int flow, int src, int dst, int psn) {
        return bench.data(flow, src, dst, psn, FRAME_BYTES);
    }

    /** A data packet from host {@code src} as it reaches its own ToR. */
    private Packet fromHost(int flow, int src, int dst, int psn) {
        Packet p = data(flow, src, dst, psn);
        p.ingressPort = bench.downPort(src);
        return p;
    }

    /** A data packet as it reaches the destination ToR from s0, with the source ToR's header. */
    private Packet fromSpine(int flow, int src, int dst, int psn, int epoch, boolean phase1, int flag) {
        Packet p = data(flow, src, dst, psn);
        p.ingressPort = bench.port("l1", "s0");
        p.pathId = 0;
        p.switchBits = header(epoch, phase1, flag);
        return p;
    }

    private Packet control(byte kind, int flow, int src, int dst, int bits) {
        Packet p = data(flow, src, dst, 0);
        p.kind = kind;
        p.sizeBytes = 64;
        p.switchBits = bits;
        p.ingressPort = bench.port("l0", "s0");
        return p;
    }

    private static int header(int epoch, boolean phase1, int flag) {
        return epoch | (phase1 ? ConWeaveTor.PHASE_BIT : 0) | flag << ConWeaveTor.FLAG_SHIFT;
    }

    private static int replyInit(int epoch) {
        return epoch | ConWeaveTor.REPLY_INIT << ConWeaveTor.FLAG_SHIFT;
    }

    /** A NOTIFY from l1 for path {@code path}; the source ToR consumes it. */
    private void notifyPath(ConWeaveTor l0, int path) {
        assertThat(l0.onIngress(control(cw.notifyKind, 0, 4, 0, path), 0)).isFalse();
    }

    @Test
    void aNewFlowTakesTheFirstOfItsTwoRandomPathsThatNoNotifyPausedAndTheFirstWhenBothAre() {
        ConWeaveTor l0 = tor("l0");
        SplittableRandom draws = mirror();
        int flow = 0;
        // path 1 paused from 0 to 16 us, path 0 from 16 us to 32 us, both from 40 us to 56 us, none at 56 us
        long[] phasePs = {0, PAUSE_PS, 40 * US, 40 * US + PAUSE_PS};
        for (int phase = 0; phase < phasePs.length; phase++) {
            advanceTo(phasePs[phase]);
            if (phase == 0 || phase == 2) {
                notifyPath(l0, 1);
            }
            if (phase == 1 || phase == 2) {
                notifyPath(l0, 0);
            }
            for (int k = 0; k < 16; k++, flow++) {
                int first = draws.nextInt(2);
                int second = draws.nextInt(2);
                int expected = switch (phase) {
                    case 0 -> first == 0 || second == 0 ? 0 : 1;
                    case 1 -> first == 1 || second == 1 ? 1 : 0;
                    default -> first;
                };
                Packet p = fromHost(flow, flow % 4, 4 + flow % 4, 0);
                assertThat(l0.onIngress(p, p.ingressPort)).isTrue();
                assertThat(p.pathId).as("phase %d, flow %d, draws %d, %d", phase, flow, first, second).isEqualTo(expected);
                assertThat(p.switchBits).as("a new flow's first packet is epoch 1's RTT_REQUEST").isEqualTo(header(1, false, ConWeaveTor.INIT));
            }
        }
        assertThat(cw.stats().notifies()).as("counted where they are made, at the destination ToR").isZero();
        assertThat(cw.stats().reroutes()).as("a new flow's path is no reroute").isZero();
        assertThat(cw.stats().epochs()).isEqualTo(64);
    }

    @Test
    void aPacketExactlyAtTheReplyDeadlineIsDataTheNextOneIsTheTailAndThePacketsAfterItArePhase1OnTheNewPath() {
        ConWeaveTor l0 = tor("l0");
        SplittableRandom draws = mirror();
        Packet init = fromHost(3, 0, 4, 0);
        l0.onIngress(init, init.ingressPort);
        int oldPath = draws.nextInt(2);
        draws.nextInt(2);
        assertThat(init.pathId).isEqualTo(oldPath);

        advanceTo(REPLY_DEADLINE_PS);
        Packet onTime = fromHost(3, 0, 4, 1);
        l0.onIngress(onTime, onTime.ingressPort);
        draws.nextInt(2);
        draws.nextInt(2);
        assertThat(onTime.switchBits).as("at the deadline the reply is not yet late").isEqualTo(header(1, false, ConWeaveTor.DATA));
        assertThat(onTime.pathId).isEqualTo(oldPath);

        advanceTo(REPLY_DEADLINE_PS + 1);
        Packet tail = fromHost(3, 0, 4, 2);
        l0.onIngress(tail, tail.ingressPort);
        int newPath = draws.nextInt(2);
        draws.nextInt(2);
        assertThat(tail.switchBits).isEqualTo(header(1, false, ConWeaveTor.TAIL));
        assertThat(tail.pathId).as("the TAIL is the old path's last packet").isEqualTo(oldPath);
        assertThat(tail.switchStampPs).isEqualTo(REPLY_DEADLINE_PS + 1);

        advanceTo(REPLY_DEADLINE_PS + 2);
        Packet after = fromHost(3, 0, 4, 3);
        l0.onIngress(after, after.ingressPort);
        assertThat(after.switchBits).isEqualTo(header(1, true, ConWeaveTor.DATA));
        assertThat(after.pathId).isEqualTo(newPath);
        assertThat(after.switchTailStampPs).as("the TAIL's TX time").isEqualTo(REPLY_DEADLINE_PS + 1);
        assertThat(cw.stats().tails()).isEqualTo(1);
        assertThat(cw.stats().reroutes()).isEqualTo(1);
    }

    @Test
    void aReplyBeforeItsDeadlineStartsTheNextEpochAndOneExactlyAtItIsLate() {
        ConWeaveTor l0 = tor("l0");
        for (int flow = 0; flow < 2; flow++) {
            Packet init = fromHost(flow, flow, 4 + flow, 0);
            l0.onIngress(init, init.ingressPort);
        }
        advanceTo(REPLY_DEADLINE_PS - 1);
        assertThat(l0.onIngress(control(cw.replyKind, 0, 4, 0, replyInit(1)), 0)).as("consumed at the source ToR").isFalse();
        advanceTo(REPLY_DEADLINE_PS);
        assertThat(l0.onIngress(control(cw.replyKind, 1, 5, 1, replyInit(1)), 0)).isFalse();
        assertThat(cw.stats().repliesInTime()).isEqualTo(1);

        Packet inTime = fromHost(0, 0, 4, 1);
        l0.onIngress(inTime, inTime.ingressPort);
        assertThat(inTime.switchBits).as("stable: a new epoch asks again").isEqualTo(header(2, false, ConWeaveTor.INIT));
        Packet late = fromHost(1, 1, 5, 1);
        l0.onIngress(late, late.ingressPort);
        assertThat(late.switchBits).as("the late reply changed nothing").isEqualTo(header(1, false, ConWeaveTor.DATA));

        // replies for queue pairs this ToR never sent are ignored, also past the end of its flow table (64 entries)
        assertThat(l0.onIngress(control(cw.replyKind, 5, 4, 0, replyInit(1)), 0)).isFalse();
        assertThat(l0.onIngress(control(cw.replyKind, 64, 4, 0, replyInit(1)), 0)).isFalse();
        assertThat(cw.stats().repliesInTime()).isEqualTo(1);
    }

    @Test
    void aFlowIdleForExactlyTheExpiryStaysInItsEpochAndOneIdleLongerStartsANewEpochOnAFreshPath() {
        ConWeaveTor l0 = tor("l0");
        SplittableRandom draws = mirror();
        int flow = 70; // beyond the first 64 entries of the ToR's flow table
        Packet init = fromHost(flow, 2, 6, 0);
        l0.onIngress(init, init.ingressPort);
        int path = draws.nextInt(2);
        draws.nextInt(2);
        assertThat(init.pathId).isEqualTo(path);

        advanceTo(EXPIRY_PS);
        Packet tail = fromHost(flow, 2, 6, 1);
        l0.onIngress(tail, tail.ingressPort);
        assertThat(tail.switchBits).as("not idle longer than the expiry: the reply is late, so this is the TAIL")
                .isEqualTo(header(1, false, ConWeaveTor.TAIL));
        assertThat(tail.pathId).isEqualTo(path);
        draws.nextInt(2);
        draws.nextInt(2);

        long now = EXPIRY_PS;
        List<Integer> paths = new ArrayList<>();
        for (int epoch = 2; epoch <= 12; epoch++) {
            now += EXPIRY_PS + 1;
            advanceTo(now);
            Packet p = fromHost(flow, 2, 6, epoch);
            l0.onIngress(p, p.ingressPort);
            int fresh = draws.nextInt(2);
            draws.nextInt(2);
            assertThat(p.switchBits).isEqualTo(header(epoch, false, ConWeaveTor.INIT));
            assertThat(p.pathId).as("epoch %d after %s", epoch, paths).isEqualTo(fresh);
            assertThat(p.switchTailStampPs).isZero();
            paths.add(fresh);
        }
        assertThat(paths).as("the draws move the flow both ways").containsSequence(1, 0).containsSequence(0, 1);
        assertThat(cw.stats().reroutes()).as("one at the TAIL, one per expiry").isEqualTo(1 + 11);
        assertThat(cw.stats().epochs()).isEqualTo(12);
        assertThat(cw.stats().rttRequests()).isEqualTo(12);
    }

    @Test
    void trafficWithinARackAndDataWithoutAPathIdPassUntouched() {
        ConWeaveTor l0 = tor("l0");
        Packet local = fromHost(0, 0, 1, 0);
        assertThat(l0.onIngress(local, local.ingressPort)).isTrue();
        assertThat(local.pathId).isEqualTo(-1);
        assertThat(local.switchBits).isZero();
        ConWeaveTor l1 = tor("l1");
        Packet unrouted = data(1, 0, 4, 0);
        assertThat(l1.onIngress(unrouted, 0)).as("not from a ConWeave source ToR").isTrue();
        Packet reply = control(cw.replyKind, 1, 0, 4, replyInit(1));
        assertThat(l0.onIngress(reply, 0)).as("a control packet for another ToR goes on").isTrue();
        assertThat(cw.stats().epochs()).isZero();
        assertThat(cw.stats().packetsHeld()).isZero();
    }

    /**
     * Nine flows (more than the eight reorder queues a ToR starts with) each send two phase-1 packets
     * ahead of their TAIL and one at the TAIL's instant; each flow's three wait in its own queue and go
     * 1 ns after the TAIL. A second epoch does it again at 100 ns, in the queues the first freed.
     */
    @Test
    void phase1PacketsAheadOfTheTailWaitInOneQueuePerFlowUntil1NsAfterTheTailAndTheQueuesAreReused() {
        ConWeaveTor l1 = tor("l1");
        int flows = 9;
        long[] roundPs = {0, 100_000};
        for (int round = 0; round < 2; round++) {
            int epoch = round + 1;
            advanceTo(roundPs[round]);
            for (int f = 0; f < flows; f++) {
                int src = f % 4;
                int dst = 4 + f % 4;
                Packet early = fromSpine(f, src, dst, 2, epoch, true, ConWeaveTor.DATA);
                assertThat(l1.onIngress(early, early.ingressPort)).as("flow %d, round %d", f, round).isFalse();
                Packet marked = fromSpine(f, src, dst, 3, epoch, true, ConWeaveTor.DATA);
                marked.ecnMarked = true;
                assertThat(l1.onIngress(marked, marked.ingressPort)).isFalse();
                Packet tail = fromSpine(f, src, dst, 1, epoch, false, ConWeaveTor.TAIL);
                assertThat(l1.onIngress(tail, tail.ingressPort)).as("the TAIL goes first").isTrue();
                Packet behind = fromSpine(f, src, dst, 4, epoch, true, ConWeaveTor.DATA);
                assertThat(l1.onIngress(behind, behind.ingressPort)).as("the queue is still there at the TAIL's instant").isFalse();
            }
            assertThat(run.network().held()).isEqualTo(3L * flows);
            advanceTo(roundPs[round] + 999);
            assertThat(run.network().held()).isEqualTo(3L * flows);
            advanceTo(roundPs[round] + 1_000);
            assertThat(run.network().held()).isZero();
            ConWeave.Stats s = cw.stats();
            int rounds = round + 1;
            assertThat(s.packetsHeld()).isEqualTo(3L * flows * rounds);
            assertThat(s.releasedByTail()).isEqualTo(3L * flows * rounds);
            assertThat(s.queuesFlushedByTail()).isEqualTo((long) flows * rounds);
            assertThat(s.queuesFlushedByTimeout()).isZero();
            assertThat(s.queuesExhausted()).isZero();
            assertThat(s.clears()).isEqualTo((long) flows * rounds);
            assertThat(s.notifies()).as("one NOTIFY per ECN-marked packet").isEqualTo((long) flows * rounds);
            assertThat(s.queuePacketsMax()).isEqualTo(3);
            assertThat(s.queuesInUseMax()).as("flows 0, 4 and 8 to h4").isEqualTo(3);
            assertThat(s.heldBytesMax()).as("every queue at once, never more").isEqualTo(3L * flows * FRAME_BYTES);
        }
    }

    /**
     * Without a TAIL the queue goes at its predicted deadline (:777-825): with no phase-0 packet of
     * the epoch seen, 200 us + 16 us after the packet that opened it; with one, at that packet's
     * arrival + (TAIL_TSTAMP - its TX_TSTAMP) + 16 us = 199 us + 0.5 us + 16 us.
     */
    @Test
    void withoutItsTailAQueueGoesAtTheDeadlinePredictedFromTheLastPhase0PacketOrAfterTheDefaultWait() {
        ConWeaveTor l1 = tor("l1");
        // queue pairs 70 and 71, beyond the first 64 entries of the destination's flow table
        assertThat(l1.onIngress(fromSpine(70, 0, 4, 2, 1, true, ConWeaveTor.DATA), 0)).as("no phase-0 packet seen").isFalse();
        advanceTo(199 * US);
        Packet phase0 = fromSpine(71, 1, 5, 0, 1, false, ConWeaveTor.DATA);
        phase0.switchStampPs = 198 * US;
        assertThat(l1.onIngress(phase0, 0)).isTrue();
        advanceTo(200 * US);
        Packet phase1 = fromSpine(71, 1, 5, 2, 1, true, ConWeaveTor.DATA);
        phase1.switchStampPs = 199 * US;
        phase1.switchTailStampPs = 198 * US + 500_000;
        assertThat(l1.onIngress(phase1, 0)).isFalse();
        advanceTo(215 * US + 499_999);
        assertThat(run.network().held()).isEqualTo(2);
        advanceTo(215 * US + 500_000);
        assertThat(run.network().held()).isEqualTo(1);
        advanceTo(216 * US - 1);
        assertThat(run.network().held()).isEqualTo(1);
        advanceTo(216 * US);
        assertThat(run.network().held()).isZero();
        assertThat(cw.stats().queuesFlushedByTimeout()).isEqualTo(2);
        assertThat(cw.stats().releasedByTimeout()).isEqualTo(2);
    }

    @Test
    void withOneReorderQueuePerPortASecondFlowToTheSameHostIsNotHeldUntilTheFirstQueueIsFlushed() throws Exception {
        ConWeave.Params d = ConWeave.Params.defaults();
        prepare(new ConWeave(new ConWeave.Params(d.replyDeadlineExtraUs(), d.pathPauseUs(), d.txExpiryUs(), d.reorderFlushExtraUs(),
                d.defaultReorderWaitUs(), 1, d.controlBytes(), d.controlPriority())));
        ConWeaveTor l1 = tor("l1");
        assertThat(l1.onIngress(fromSpine(0, 0, 4, 2, 1, true, ConWeaveTor.DATA), 0)).isFalse();
        assertThat(l1.onIngress(fromSpine(1, 1, 4, 2, 1, true, ConWeaveTor.DATA), 0)).as("h4's one queue is taken").isTrue();
        assertThat(cw.stats().queuesExhausted()).isEqualTo(1);
        assertThat(l1.onIngress(fromSpine(0, 0, 4, 1, 1, false, ConWeaveTor.TAIL), 0)).isTrue();
        advanceTo(1_000);
        assertThat(run.network().held()).isZero();
        assertThat(l1.onIngress(fromSpine(2, 2, 4, 2, 1, true, ConWeaveTor.DATA), 0)).as("the flushed queue is free again").isFalse();
        assertThat(cw.stats().queuesInUseMax()).isEqualTo(1);
        assertThat(cw.stats().queuesExhausted()).isEqualTo(1);
    }
}
