package org.lbsim.lb.conweave;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.EgressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.Switch;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/**
 * ConWeave on a 2-leaf, 2-spine fabric (h0-h3 under l0, h4-h7 under l1), 100 Gb/s, 1 us links,
 * DCQCN with ECN, PFC and go-back-N: reroutes under congestion, held packets reach the NIC in
 * order, a lost TAIL releases on the timeout, the reorder-queue limit holds. Every run is checked
 * for packet conservation (held packets included).
 */
class ConWeaveTest {
    @TempDir
    Path dir;

    private ScenarioBuilder fabric(String trace) throws Exception {
        Path file = dir.resolve("flows-" + trace.hashCode() + ".csv");
        Files.writeString(file, "src,dst,bytes,start_ns\n" + trace);
        return Lbsim.scenario().leafSpine(4, 2, 2).linkRateGbps(100).linkDelayNs(1000).trace(file.toString()).seed(1)
                .set("packets.mtuBytes", 1000).congestionControl("dcqcn").lossRecovery("go-back-n")
                .set("switches.ecn.enabled", true).set("switches.ecn.kminBytes", 100_000).set("switches.ecn.kmaxBytes", 400_000)
                .set("switches.ecn.pmax", 0.2).set("switches.pfc.enabled", true)
                .set("switches.buffer.bytesPerPort", 16_000_000).set("switches.pfc.xoffBytes", 500_000).set("switches.pfc.xonBytes", 450_000)
                .set("switches.pfc.headroomBytes", 4_000_000);
    }

    /** Four senders under l0 to four receivers under l1: twice what one uplink carries, so paths congest. */
    private static final String CROSSING = "0,4,3000000,0\n1,5,3000000,0\n2,6,3000000,0\n3,7,3000000,0\n";

    private static PreparedRun run(ScenarioBuilder b, ConWeave scheme) {
        PreparedRun run = b.prepare(scheme);
        run.run();
        Invariants.check(run);
        return run;
    }

    /** Records, per flow, the PSNs of data leaving l1 towards its hosts. */
    static final class DownPsns implements EgressStage {
        final Map<Integer, List<Integer>> psns = new HashMap<>();
        final Topology t;
        final int leaf;

        DownPsns(Topology t, int leaf) {
            this.t = t;
            this.leaf = leaf;
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
            if (p.kind == Packet.DATA && t.isHost(t.peerNode(port))) {
                psns.computeIfAbsent(p.flow, f -> new ArrayList<>()).add(p.psn);
            }
        }
    }

    @Test
    void aLoneFlowOnAnIdleFabricGetsEveryRttReplyInTimeAndNeverReroutes() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        PreparedRun run = run(fabric("0,4,2000000,0\n"), cw);
        ConWeave.Stats s = cw.stats();
        assertThat(run.network().held()).isZero();
        assertThat(s.rttRequests()).as("the first packet asks").isGreaterThanOrEqualTo(1);
        assertThat(s.repliesInTime()).as("every request but possibly the last is answered in time").isGreaterThanOrEqualTo(s.rttRequests() - 1);
        assertThat(s.epochs()).as("a timely reply starts the next epoch").isGreaterThan(1);
        assertThat(s.reroutes()).isZero();
        assertThat(s.tails()).isZero();
        assertThat(s.packetsHeld()).isZero();
    }

    @Test
    void congestedPathsMakeConWeaveRerouteAndHeldPacketsReachTheNicInOrder() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        DownPsns[] down = new DownPsns[1];
        ScenarioBuilder b = fabric(CROSSING);
        PreparedRun run = b.prepare(cw);
        Topology t = run.topology();
        int l1 = t.nodeByName("l1");
        down[0] = new DownPsns(t, l1);
        run.network().switchAt(l1).setEgressStage(down[0]);
        RunResult result = run.run();
        Invariants.check(run);
        ConWeave.Stats s = cw.stats();
        assertThat(result.flowsFinished()).isEqualTo(4);
        assertThat(s.tails()).as("late RTT replies mark TAILs").isGreaterThan(0);
        assertThat(s.reroutes()).as("and move flows to another path").isGreaterThan(0);
        assertThat(s.clears()).as("every TAIL that arrives is answered with a CLEAR").isGreaterThan(0);
        assertThat(s.packetsHeld()).as("phase-1 packets overtook their TAIL and were held").isGreaterThan(0);
        assertThat(s.releasedByTail() + s.releasedByTimeout()).isEqualTo(s.packetsHeld());
        assertThat(run.network().held()).isZero();
        assertThat(result.outOfOrder().arrivals()).as("nothing reached a NIC out of order").isZero();
        for (Map.Entry<Integer, List<Integer>> e : down[0].psns.entrySet()) {
            assertThat(e.getValue()).as("flow %d leaves l1 in PSN order", e.getKey()).isSorted();
        }
        for (FlowResult f : result.flowResults()) {
            assertThat(f.retransmissions()).isZero();
        }
    }

    /** Drops, at the spines, every TAIL data packet of the run (a test stage; ConWeave does not program spines). */
    @Test
    void aLostTailLeavesItsHeldPacketsToTheTimeoutWhichStillReleasesThemInOrder() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        PreparedRun run = fabric(CROSSING).prepare(cw);
        Topology t = run.topology();
        long[] dropped = new long[1];
        for (String spine : new String[] {"s0", "s1"}) {
            Switch sw = run.network().switchAt(t.nodeByName(spine));
            int reason = run.network().consumeReason("test: TAIL lost");
            sw.addIngressStage((p, port) -> {
                if (p.kind == Packet.DATA && p.pathId >= 0 && (p.switchBits >>> ConWeaveTor.FLAG_SHIFT) == ConWeaveTor.TAIL) {
                    dropped[0]++;
                    sw.consume(p, reason);
                    return false;
                }
                return true;
            });
        }
        int l1 = t.nodeByName("l1");
        DownPsns down = new DownPsns(t, l1);
        run.network().switchAt(l1).setEgressStage(down);
        RunResult result = run.run();
        Invariants.check(run);
        ConWeave.Stats s = cw.stats();
        assertThat(dropped[0]).as("TAILs were sent and lost").isGreaterThan(0);
        assertThat(result.flowsFinished()).as("go-back-N recovers the lost TAILs").isEqualTo(4);
        assertThat(s.queuesFlushedByTail()).as("no TAIL ever reached l1").isZero();
        assertThat(s.queuesFlushedByTimeout()).as("so every reorder queue ended on its timeout").isGreaterThan(0);
        assertThat(s.releasedByTimeout()).isEqualTo(s.packetsHeld()).isGreaterThan(0);
        assertThat(s.clears()).as("no TAIL, no CLEAR").isZero();
        assertThat(run.network().held()).isZero();
    }

    @Test
    void aReorderQueueLimitOfOnePerPortIsNeverExceededAndFlowsBeyondItAreNotReordered() throws Exception {
        String fourToTwo = "0,4,3000000,0\n1,4,3000000,0\n2,5,3000000,0\n3,5,3000000,0\n";
        ConWeave.Params d = ConWeave.Params.defaults();
        ConWeave unlimited = new ConWeave(new ConWeave.Params(d.replyDeadlineExtraUs(), d.pathPauseUs(), d.txExpiryUs(),
                d.reorderFlushExtraUs(), d.defaultReorderWaitUs(), 0, d.controlBytes(), d.controlPriority()));
        run(fabric(fourToTwo), unlimited);
        ConWeave one = new ConWeave(new ConWeave.Params(d.replyDeadlineExtraUs(), d.pathPauseUs(), d.txExpiryUs(),
                d.reorderFlushExtraUs(), d.defaultReorderWaitUs(), 1, d.controlBytes(), d.controlPriority()));
        PreparedRun limited = run(fabric(fourToTwo), one);
        assertThat(unlimited.stats().queuesInUseMax()).as("two flows per receiver reorder at once without a limit").isGreaterThan(1);
        assertThat(one.stats().queuesInUseMax()).isEqualTo(1);
        assertThat(one.stats().queuesExhausted()).as("with one queue per port, some reorders find none").isGreaterThan(0);
        assertThat(limited.network().held()).isZero();
    }

    @Test
    void itsTwoKindsAreRegisteredWithTheRunAndSentFromTheControlQueueUnlessTurnedOff() throws Exception {
        ConWeave on = new ConWeave(ConWeave.Params.defaults());
        PreparedRun a = run(fabric(CROSSING), on);
        assertThat(a.transport().kinds().name(on.replyKind)).isEqualTo(ConWeave.REPLY);
        assertThat(a.transport().kinds().name(on.notifyKind)).isEqualTo(ConWeave.NOTIFY);
        assertThat(a.network().isPriorityKind(on.replyKind)).isTrue();
        assertThat(a.network().isPriorityKind(on.notifyKind)).isTrue();
        assertThat(a.network().isPriorityKind(Packet.ACK)).as("ACKs stay in the data FIFO").isFalse();
        ConWeave.Params d = ConWeave.Params.defaults();
        ConWeave off = new ConWeave(new ConWeave.Params(d.replyDeadlineExtraUs(), d.pathPauseUs(), d.txExpiryUs(),
                d.reorderFlushExtraUs(), d.defaultReorderWaitUs(), d.reorderQueuesPerPort(), d.controlBytes(), false));
        PreparedRun b = run(fabric(CROSSING), off);
        assertThat(b.network().isPriorityKind(off.replyKind)).isFalse();
        assertThat(on.stats().rttReplies() + on.stats().clears()).isGreaterThan(0);
        assertThat(off.stats().rttReplies() + off.stats().clears()).isGreaterThan(0);
    }

    /**
     * ns-3 keeps a reorder queue outside the switch's memory accounting and admits its packets when it
     * flushes them (conweave-voq.cc:48-61 sends them through SendToDevContinue, whose admission runs
     * then: switch-node.cc:298-330). Lossy, with 24 KB per port: l1 holds more than a port's buffer
     * without a drop at arrival; a flush enqueues its packets at one instant, and l1's ports to the
     * hosts drop.
     */
    @Test
    void heldPacketsTakeNoBufferUntilTheirReleaseIsAdmittedAndCanOverflowThePort() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        long portBytes = 24_000;
        PreparedRun run = fabric(CROSSING).set("switches.pfc.enabled", false).set("switches.buffer.bytesPerPort", portBytes)
                .prepare(cw);
        Topology t = run.topology();
        int l1 = t.nodeByName("l1");
        long[] burst = new long[3]; // time of the last enqueue at a down port, packets enqueued at that instant, most at one instant
        run.network().switchAt(l1).setEgressStage(new EgressStage() {
            @Override
            public void onEnqueue(Packet p, int port, long queueBytes) {
                long now = run.network().simulator().nowPs();
                if (p.kind == Packet.DATA && t.isHost(t.peerNode(port))) {
                    burst[1] = now == burst[0] ? burst[1] + 1 : 1;
                    burst[0] = now;
                    burst[2] = Math.max(burst[2], burst[1]);
                }
            }

            @Override
            public void onDequeue(Packet p, int port, long queueBytes) {
            }
        });
        RunResult result = run.run();
        Invariants.check(run);
        long downDrops = 0;
        for (int p = t.firstPort(l1); p < t.portEnd(l1); p++) {
            if (t.isHost(t.peerNode(p))) {
                downDrops += run.network().egress(p).drops();
            }
        }
        ConWeave.Stats s = cw.stats();
        assertThat(result.flowsFinished()).isEqualTo(4);
        assertThat(s.heldBytesMax()).as("l1 held more than one port's buffer (held %d packets, largest queue %d)", s.packetsHeld(), s.queuePacketsMax())
                .isGreaterThan(portBytes);
        assertThat(burst[2]).as("a flush enqueues its packets at one instant").isGreaterThan(1);
        assertThat(downDrops).as("admitted then, they can overflow l1's ports to the hosts (largest burst %d)", burst[2]).isGreaterThan(0);
    }

    /**
     * Lossless, with PFC at 50 KB and 30 KB of headroom (the in-flight bytes of two 1 us links at
     * 100 Gb/s fit), and every TAIL lost at the spines, so reorder queues fill until their timeout: a
     * flush lands on its packets' ingress port all at once, far beyond XOFF + headroom. As in ns-3
     * (switch-mmu.cc:134-161) only the shared memory may refuse it; the charge pauses the ingress.
     * Invariants.check fails on any refused frame.
     */
    @Test
    void aFlushBeyondTheIngressHeadroomIsAdmittedAndPausesTheIngressInsteadOfDropping() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        long xoff = 50_000;
        long headroom = 30_000;
        PreparedRun run = fabric(CROSSING).set("switches.pfc.xoffBytes", xoff).set("switches.pfc.xonBytes", 40_000)
                .set("switches.pfc.headroomBytes", headroom).prepare(cw);
        Topology t = run.topology();
        for (String spine : new String[] {"s0", "s1"}) {
            Switch sw = run.network().switchAt(t.nodeByName(spine));
            int reason = run.network().consumeReason("test: TAIL lost");
            sw.addIngressStage((p, port) -> {
                if (p.kind == Packet.DATA && p.pathId >= 0 && (p.switchBits >>> ConWeaveTor.FLAG_SHIFT) == ConWeaveTor.TAIL) {
                    sw.consume(p, reason);
                    return false;
                }
                return true;
            });
        }
        RunResult result = run.run();
        Invariants.check(run);
        org.lbsim.net.PfcIngress l1 = run.network().pfc(t.nodeByName("l1"));
        assertThat(result.flowsFinished()).isEqualTo(4);
        assertThat(cw.stats().queuePacketsMax() * 1062L).as("a reorder queue held more than XOFF + headroom").isGreaterThan(xoff + headroom);
        assertThat(l1.overflowDrops()).as("l1 refused nothing").isZero();
        assertThat(l1.pausesSent()).as("the flushes paused l1's upstream").isGreaterThan(0);
    }

    @Test
    void theRunReportsEveryCounterOfTheStats() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        RunResult r = fabric(CROSSING).prepare(cw).run();
        ConWeave.Stats s = cw.stats();
        assertThat(s.packetsHeld()).as("a run that reroutes and reorders").isPositive();
        Map<String, Long> expected = new java.util.LinkedHashMap<>();
        expected.put("conweave.rttRequests", s.rttRequests());
        expected.put("conweave.rttReplies", s.rttReplies());
        expected.put("conweave.repliesInTime", s.repliesInTime());
        expected.put("conweave.epochs", s.epochs());
        expected.put("conweave.reroutes", s.reroutes());
        expected.put("conweave.tails", s.tails());
        expected.put("conweave.clears", s.clears());
        expected.put("conweave.notifies", s.notifies());
        expected.put("conweave.packetsHeld", s.packetsHeld());
        expected.put("conweave.releasedByTail", s.releasedByTail());
        expected.put("conweave.releasedByTimeout", s.releasedByTimeout());
        expected.put("conweave.queuesFlushedByTail", s.queuesFlushedByTail());
        expected.put("conweave.queuesFlushedByTimeout", s.queuesFlushedByTimeout());
        expected.put("conweave.queuesExhausted", s.queuesExhausted());
        expected.put("conweave.queuesInUseMaxPerPort", s.queuesInUseMax());
        expected.put("conweave.queuePacketsMax", s.queuePacketsMax());
        expected.put("conweave.heldBytesMaxPerTor", s.heldBytesMax());
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            assertThat(r.schemeCounters()).as(e.getKey()).containsKey(e.getKey());
            assertThat(r.schemeCounters().get(e.getKey()).longValue()).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void aPersistentQueuePairCarriesItsSecondMessageThroughTheToRsToo() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        PreparedRun run = fabric("0,4,200000,0\n0,4,200000,0\n").set("nic.queuePairs", "persistent").prepare(cw);
        RunResult r = run.run();
        Invariants.check(run);
        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(cw.stats().rttRequests()).isPositive();
    }

    @Test
    void sameSeedSameResult() throws Exception {
        RunResult a = fabric(CROSSING).prepare(new ConWeave(ConWeave.Params.defaults())).run();
        RunResult b = fabric(CROSSING).prepare(new ConWeave(ConWeave.Params.defaults())).run();
        assertThat(a.flowResults()).isEqualTo(b.flowResults());
        assertThat(a.cctPs()).isEqualTo(b.cctPs());
    }
}
