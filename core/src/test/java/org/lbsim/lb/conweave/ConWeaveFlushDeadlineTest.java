package org.lbsim.lb.conweave;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.EgressStage;
import org.lbsim.net.IngressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.Switch;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/**
 * The destination ToR's reorder-queue deadline, worked by hand as conweave-ns3 computes it
 * (conweave-routing.cc:777-825, :842-899; conweave-voq.cc:75-90).
 *
 * <p>One flow h0 -> h4 on a 2-leaf, 2-spine fabric, 100 Gb/s and 1 us links, 1062 B frames (84.96
 * ns), no inter-frame gap. The NIC sends from t = 0 at line rate, so data packet k reaches l0 at
 * T_k = 1084.96 + 84.96 k ns, which l0 stamps as its TX time, and, unqueued, reaches l1 at
 * T_k + 2169.92 ns. A test stage at the spines drops the RTT_REPLY of the first INIT, so l0's reply
 * deadline T_0 + base RTT 4 us + 4 us = 9084.96 ns passes: packet 95 (T_95 = 9156.16 ns, the first
 * after it) is the TAIL, stamped TAIL_TSTAMP = T_95, and packets 96 on are phase 1. The spines also
 * hold chosen packets for a chosen time (the old path's extra delay), which lets phase-1 packets
 * overtake them whichever uplink l0 moved the flow to.
 */
class ConWeaveFlushDeadlineTest {
    static final long FRAME_PS = 84_960;
    static final long HOP_PS = FRAME_PS + 1_000_000;
    static final long EXTRA_PS = 16_000_000;
    static final int TAIL_PSN = 95;

    @TempDir
    Path dir;

    static long txStampPs(int psn) {
        return HOP_PS + psn * FRAME_PS;
    }

    /** At both spines: drops the first RTT_REPLY and holds the first pass of named packets for a time. */
    static final class OldPathDelay implements IngressStage, EventHandler {
        final ConWeave cw;
        final Switch sw;
        final Simulator sim;
        final int handler;
        final int dropReason;
        final int delayedPsn;
        final long delayedPsnHoldPs;
        final long tailHoldPs;
        final Packet[] held = new Packet[4];
        int heldCount;
        boolean replyDropped;

        OldPathDelay(ConWeave cw, PreparedRun run, Switch sw, int delayedPsn, long delayedPsnHoldPs, long tailHoldPs) {
            this.cw = cw;
            this.sw = sw;
            this.sim = run.simulator();
            this.handler = sim.register(this);
            this.dropReason = run.network().consumeReason("test: RTT_REPLY lost");
            this.delayedPsn = delayedPsn;
            this.delayedPsnHoldPs = delayedPsnHoldPs;
            this.tailHoldPs = tailHoldPs;
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.kind == cw.replyKind && (p.switchBits >>> ConWeaveTor.FLAG_SHIFT) == ConWeaveTor.REPLY_INIT && !replyDropped) {
                replyDropped = true;
                sw.consume(p, dropReason);
                return false;
            }
            if (p.kind != Packet.DATA || p.retransmission) {
                return true;
            }
            long holdPs = p.psn == delayedPsn ? delayedPsnHoldPs : (p.switchBits >>> ConWeaveTor.FLAG_SHIFT) == ConWeaveTor.TAIL ? tailHoldPs : 0;
            if (holdPs == 0) {
                return true;
            }
            held[heldCount] = p;
            sw.hold(p);
            sim.schedule(handler, sim.nowPs() + holdPs, 0, heldCount++);
            return false;
        }

        @Override
        public void onEvent(int kind, long tag) {
            sw.release(held[(int) tag]);
        }
    }

    /** At l1's port towards h4, first passes only: when the TAIL, packet {@code watchedPsn} and the first phase-1 packet leave for the NIC. */
    static final class Downlink implements EgressStage {
        final Topology t;
        final Simulator sim;
        final int watchedPsn;
        long tailPs = -1;
        long tailStampPs = -1;
        long watchedPs = -1;
        long firstPhase1Ps = -1;

        Downlink(Topology t, Simulator sim, int watchedPsn) {
            this.t = t;
            this.sim = sim;
            this.watchedPsn = watchedPsn;
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
            if (p.kind != Packet.DATA || p.retransmission || !t.isHost(t.peerNode(port))) {
                return;
            }
            long now = sim.nowPs();
            if ((p.switchBits >>> ConWeaveTor.FLAG_SHIFT) == ConWeaveTor.TAIL) {
                tailPs = now;
                tailStampPs = p.switchStampPs;
            }
            if (p.psn == watchedPsn) {
                watchedPs = now;
            }
            if ((p.switchBits & ConWeaveTor.PHASE_BIT) != 0 && firstPhase1Ps < 0) {
                firstPhase1Ps = now;
            }
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    }

    /** Runs the flow with the spines delaying {@code delayedPsn} and the TAIL; returns l1's downlink record. */
    private Downlink run(ConWeave cw, int delayedPsn, long delayedPsnHoldPs, long tailHoldPs) throws Exception {
        Path file = dir.resolve("flow.csv");
        Files.writeString(file, "src,dst,bytes,start_ns\n0,4,400000,0\n");
        PreparedRun run = Lbsim.scenario().leafSpine(4, 2, 2).linkRateGbps(100).linkDelayNs(1000).trace(file.toString()).seed(1)
                .set("packets.mtuBytes", 1000).set("packets.interFrameGapBytes", 0).congestionControl("dcqcn").lossRecovery("go-back-n")
                .prepare(cw);
        Topology t = run.topology();
        for (String spine : new String[] {"s0", "s1"}) {
            Switch sw = run.network().switchAt(t.nodeByName(spine));
            sw.addIngressStage(new OldPathDelay(cw, run, sw, delayedPsn, delayedPsnHoldPs, tailHoldPs));
        }
        Downlink down = new Downlink(t, run.simulator(), delayedPsn);
        run.network().switchAt(t.nodeByName("l1")).setEgressStage(down);
        assertThat(run.run().flowsFinished()).isEqualTo(1);
        Invariants.check(run);
        assertThat(cw.stats().tails()).as("one reroute: the dropped reply made packet %d the TAIL", TAIL_PSN).isEqualTo(1);
        assertThat(down.tailStampPs).as("TAIL_TSTAMP = T_95, l0's arrival time of packet 95").isEqualTo(txStampPs(TAIL_PSN)).isEqualTo(9_156_160L);
        return down;
    }

    /**
     * The TAIL is 30 us late on the old path. Packet 96, phase 1, reaches l1 first and opens the
     * queue; the last phase-0 packet seen is 94 (RX T_94 + 2169.92 ns), so the deadline is phase-0 RX
     * + (TAIL_TSTAMP - phase-0 TX) + 16 us (:801-806) = T_95 + 2169.92 ns + 16 us = 27 326 080 ps,
     * measured on l1's clock from l0's stamps, and nothing moves it: the queue is flushed then, by
     * the timeout, before the TAIL (T_95 + 32 169.92 ns).
     */
    @Test
    void aTailLaterThanTheExtraTimeLeavesTheQueueToTheDeadlineComputedFromTheLastPhase0Packet() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        Downlink down = run(cw, -1, 0, 30_000_000);
        assertThat(down.firstPhase1Ps).as("the held packets leave at the deadline").isEqualTo(txStampPs(TAIL_PSN) + 2 * HOP_PS + EXTRA_PS).isEqualTo(27_326_080L);
        assertThat(down.tailPs).as("the TAIL comes after").isEqualTo(txStampPs(TAIL_PSN) + 2 * HOP_PS + 30_000_000);
        assertThat(cw.stats().queuesFlushedByTimeout()).isEqualTo(1);
        assertThat(cw.stats().queuesFlushedByTail()).isZero();
    }

    /**
     * Packet 94 (phase 0) is 10 us late and the TAIL 40 us. The queue opens on packet 93's timing
     * (deadline 27 326 080 ps as above); packet 94 then arrives while the flow is reordering and
     * moves the deadline to its own RX + (TAIL_TSTAMP - T_94) + 16 us (:815-824, :842-856, ns-3
     * cancels and reschedules, conweave-voq.cc:75-90): 10 us later, 37 326 080 ps, give or take the
     * one frame packet 94 may wait for at the spine behind a phase-1 packet.
     */
    @Test
    void aPhase0PacketArrivingDuringTheReorderMovesTheDeadlineToItsOwnPrediction() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        int late = TAIL_PSN - 1;
        Downlink down = run(cw, late, 10_000_000, 40_000_000);
        long nominalPs = txStampPs(late) + 2 * HOP_PS + 10_000_000;
        assertThat(down.watchedPs).as("packet 94 reaches l1 10 us late").isBetween(nominalPs, nominalPs + FRAME_PS);
        assertThat(down.firstPhase1Ps).as("flushed at packet 94's prediction")
                .isEqualTo(down.watchedPs + (txStampPs(TAIL_PSN) - txStampPs(late)) + EXTRA_PS)
                .isBetween(37_326_080L, 37_326_080L + FRAME_PS);
        assertThat(down.tailPs).isGreaterThan(down.firstPhase1Ps);
        assertThat(cw.stats().queuesFlushedByTimeout()).isEqualTo(1);
    }

    /** The TAIL is 10 us late, inside the 16 us: the queue goes 1 ns after the TAIL has been sent on (:817-820). */
    @Test
    void aTailInsideTheExtraTimeReleasesTheQueueOneNanosecondAfterItself() throws Exception {
        ConWeave cw = new ConWeave(ConWeave.Params.defaults());
        Downlink down = run(cw, -1, 0, 10_000_000);
        long nominalPs = txStampPs(TAIL_PSN) + 2 * HOP_PS + 10_000_000;
        assertThat(down.tailPs).isBetween(nominalPs, nominalPs + FRAME_PS);
        assertThat(down.firstPhase1Ps).isEqualTo(down.tailPs + 1_000);
        assertThat(cw.stats().queuesFlushedByTail()).isEqualTo(1);
        assertThat(cw.stats().queuesFlushedByTimeout()).isZero();
    }
}
