package org.lbsim.lb.dlbf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.IngressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.PolicyTable;
import org.lbsim.net.Switch;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.topology.Topology;

/**
 * One DLBF flow h0 -> h1 over a leaf-spine with two spines, whose two paths the test controls: l0
 * sends even UDP source ports to s0 and odd ones to s1 (a DLBF flow with two paths has one of each),
 * and the spines, seen by role (the "first" path is the spine the flow's first packet took), add a
 * fixed extra delay, ECN-mark a chosen PSN, mark notifications, or hold a PSN range back. l1 logs
 * what reaches h1 and counts what h1 answers.
 */
final class TwoPathLab {
    static final int FIRST = 0;
    static final int SECOND = 1;

    int slowRole = -1;
    long slowDelayPs;
    final int[] ecnPsnOnRole = {-1, -1};
    /** Marks the n-th data packet the second path carries (1-based), -1 for none. */
    int ecnNthOnSecond = -1;
    boolean markNotifications;
    int holdFromPsnOnFirst = Integer.MAX_VALUE;
    long holdExtraPs;

    int firstSpine = -1;
    private final boolean[] marked = new boolean[2];
    private int seenOnSecond;
    /** What reached h1: {time ps, psn, role, kind, entropy}. */
    final List<long[]> arrivals = new ArrayList<>();
    final List<Long> nackTimesPs = new ArrayList<>();
    long acks;
    long notifyArrivalPs = -1;

    /** Congestion control of the flow: DCQCN, or a fixed rate in Gb/s when positive (nothing reacts to ECN then but DLBF). */
    double fixedRateGbps;

    PreparedRun run;
    Dlbf dlbf;

    PreparedRun prepare(Path dir, long bytes, Map<String, Object> dlbfParams) throws Exception {
        Path trace = dir.resolve("one-flow.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,1," + bytes + ",0\n");
        ScenarioBuilder b = Lbsim.scenario().leafSpine(1, 2, 2).linkRateGbps(100).linkDelayNs(100).trace(trace.toString())
                .lossRecovery("nic-sr").congestionControl("dcqcn").scheme("dlbf").set("packets.mtuBytes", 1000).seed(1);
        if (fixedRateGbps > 0) {
            b.congestionControl("fixed-rate").set("congestionControl.rateGbps", fixedRateGbps);
        }
        b.set("loadBalancing.paths", 2);
        for (Map.Entry<String, Object> e : dlbfParams.entrySet()) {
            b.set("loadBalancing." + e.getKey(), e.getValue());
        }
        run = Simulation.prepare(b.build(), dir, (lb, recovery) -> {
            dlbf = (Dlbf) lb;
            return dlbf.queuePairScheme(recovery);
        });
        install();
        return run;
    }

    void runAndCheck() {
        run.run();
        Invariants.check(run);
    }

    private void install() {
        Topology t = run.topology();
        Simulator sim = run.simulator();
        int l0 = t.nodeByName("l0");
        int l1 = t.nodeByName("l1");
        int[] spines = {t.nodeByName("s0"), t.nodeByName("s1")};
        int toS0 = t.portsBetween(l0, spines[0])[0];
        int toS1 = t.portsBetween(l0, spines[1])[0];
        run.network().switchAt(l0).setPolicyTable(new PolicyTable(List.of(
                new PolicyTable.Rule(-1, 0, 65535, 1, 0, 1, 1, -1, new int[] {toS0}),
                new PolicyTable.Rule(-1, 0, 65535, 1, 1, 1, 1, -1, new int[] {toS1}))));
        for (int i = 0; i < 2; i++) {
            Switch sw = run.network().switchAt(spines[i]);
            sw.addIngressStage(new SpineStage(sw, sim, i));
        }
        int fromS0 = t.portsBetween(l1, spines[0])[0];
        int fromH1 = t.peerPort(t.hostPort(1));
        run.network().switchAt(l1).addIngressStage((Packet p, int ingressPort) -> {
            if (ingressPort == fromH1) {
                if (p.kind == Packet.ACK) {
                    acks++;
                } else if (p.kind == Packet.NACK) {
                    nackTimesPs.add(sim.nowPs());
                }
            } else if (p.src == 0) {
                int spine = ingressPort == fromS0 ? 0 : 1;
                int role = spine == firstSpine ? FIRST : SECOND;
                arrivals.add(new long[] {sim.nowPs(), p.psn, role, p.kind, p.entropy});
                if (p.kind >= Packet.FIRST_SCHEME_KIND && notifyArrivalPs < 0) {
                    notifyArrivalPs = sim.nowPs();
                }
            }
            return true;
        });
    }

    /** Data arrivals at h1's leaf in order: {psn, role}. */
    List<int[]> dataOrder() {
        List<int[]> out = new ArrayList<>();
        for (long[] a : arrivals) {
            if (a[3] == Packet.DATA) {
                out.add(new int[] {(int) a[1], (int) a[2]});
            }
        }
        return out;
    }

    private final class SpineStage implements IngressStage, EventHandler {
        private final Switch sw;
        private final Simulator sim;
        private final int spine;
        private final int handler;
        private final PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        private final List<Packet> heldPackets = new ArrayList<>();
        private long seq;

        SpineStage(Switch sw, Simulator sim, int spine) {
            this.sw = sw;
            this.sim = sim;
            this.spine = spine;
            this.handler = sim.register(this);
        }

        @Override
        public boolean onIngress(Packet p, int ingressPort) {
            if (p.src != 0 || (p.kind != Packet.DATA && p.kind < Packet.FIRST_SCHEME_KIND)) {
                return true;
            }
            if (firstSpine < 0 && p.kind == Packet.DATA) {
                firstSpine = spine;
            }
            int role = spine == firstSpine ? FIRST : SECOND;
            if (p.kind == Packet.DATA) {
                if (role == SECOND) {
                    seenOnSecond++;
                }
                boolean mark = (p.psn == ecnPsnOnRole[role] && !p.retransmission) || (role == SECOND && seenOnSecond == ecnNthOnSecond);
                if (mark && !marked[role]) {
                    marked[role] = true;
                    p.ecnMarked = true;
                }
            } else if (role == SECOND && markNotifications) {
                p.ecnMarked = true; // III-D Case 1: the notification found the new path congested
            }
            long delay = (role == slowRole ? slowDelayPs : 0)
                    + (role == FIRST && p.kind == Packet.DATA && p.psn >= holdFromPsnOnFirst && !p.retransmission ? holdExtraPs : 0);
            if (delay == 0) {
                return true;
            }
            sw.hold(p);
            long at = sim.nowPs() + delay;
            heldPackets.add(p);
            due.add(new long[] {at, seq, heldPackets.size() - 1});
            sim.schedule(handler, at, 0, seq++);
            return false;
        }

        @Override
        public void onEvent(int kind, long tag) {
            long[] next = due.poll();
            sw.release(heldPackets.get((int) next[2]));
        }
    }
}
