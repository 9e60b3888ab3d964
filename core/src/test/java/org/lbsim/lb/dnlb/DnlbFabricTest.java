package org.lbsim.lb.dnlb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.EgressStage;
import org.lbsim.net.Packet;
import org.lbsim.net.Switch;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.QpContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * DNLB on CTCCL's testbed fabric in miniature (rail-leaf-spine: 4 servers x 2 NICs, 2 rail leaves,
 * each with 4 links to each of 2 spines = 8 uplinks): the leaf ACL + PBR, the spine VRFs, Eq. 4's
 * report and fault avoidance.
 */
class DnlbFabricTest {
    static final int DSCP = 26;

    @TempDir
    Path dir;

    private ScenarioBuilder fabric(String trace, int qps) throws Exception {
        Files.writeString(dir.resolve("t.csv"), "src,dst,bytes,start_ns,class\n" + trace);
        return Lbsim.scenario().baseDir(dir).seed(5)
                .override("topology.type=rail-leaf-spine", "topology.serversPerGroup=4", "nic.qpsPerConnection=" + qps)
                .trace("t.csv");
    }

    private static RunResult runChecked(PreparedRun run) {
        RunResult r = run.run();
        Invariants.check(run);
        return r;
    }

    /** Data packets leaving one switch: port, source port, class, queue pair, time. */
    static final class Departures implements EgressStage {
        final List<long[]> rows = new ArrayList<>();
        final Switch sw;

        Departures(Switch sw) {
            this.sw = sw;
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
            if (p.kind == Packet.DATA) {
                Fib fib = sw.network().fib();
                int group = fib.group(sw.node(), p.dst);
                long ecmpChoice = fib.groupSize(group) == 1 ? fib.port(group, 0)
                        : sw.selector(p.trafficClass).select(p, group, fib.groupPorts(), fib.groupOffset(group), fib.groupSize(group));
                rows.add(new long[] {port, p.entropy & 0xFFFF, p.trafficClass, p.flow, sw.network().simulator().nowPs(), p.ingressPort,
                        ecmpChoice, p.src, p.dst, p.payloadBytes});
            }
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    }

    /**
     * The PBR rule sends each source-port segment of the DNLB class to its uplink, so the 8 QPs of a
     * connection use the 8 uplinks once each; another class's packets go where ECMP's hash sends them;
     * traffic for the leaf's own NICs stays on the leaf.
     */
    @Test
    void pbrSteersEachSegmentToItsUplinkAndOtherClassesToEcmp() throws Exception {
        // h0, h2 on l0 (NIC 0 of servers 0, 1); h1, h3 on l1
        PreparedRun run = fabric("0,1,262144,0," + DSCP + "\n2,3,262144,0,0\n0,2,262144,0," + DSCP + "\n", 8)
                .override("loadBalancing.type=dnlb", "loadBalancing.dscp=" + DSCP).prepare();
        Topology t = run.topology();
        LeafPlan plan = new LeafPlan(t);
        int l0 = t.nodeByName("l0");
        Departures out = new Departures(run.network().switchAt(l0));
        run.network().switchAt(l0).setEgressStage(out);
        RunResult r = runChecked(run);
        assertThat(r.flowsFinished()).isEqualTo(3);
        int leaf = plan.leafOfNode(l0);
        int[] uplinks = plan.uplinks(leaf);
        assertThat(uplinks).hasSize(8);
        Map<Long, Set<Long>> uplinksOfQp = new HashMap<>();
        int dnlbUp = 0;
        int otherUp = 0;
        for (long[] row : out.rows) {
            int port = (int) row[0];
            int sport = (int) row[1];
            boolean up = java.util.Arrays.stream(uplinks).anyMatch(u -> u == port);
            if (row[2] == DSCP && row[8] == 2) {
                assertThat(up).as("DNLB traffic for the leaf's own NIC stays on the leaf").isFalse();
            } else if (row[2] == DSCP) {
                assertThat(port).isEqualTo(uplinks[PortSegments.segmentOf(sport, 8)]);
                uplinksOfQp.computeIfAbsent(row[3], k -> new TreeSet<>()).add((long) port);
                assertThat(sport).isEqualTo(PortSegments.sourcePort(plan.nicIndex(0), 8, (int) row[3], 8)); // QPs 0-7 are flow 0's
                dnlbUp++;
            } else {
                assertThat(port).as("class 0 goes where the ECMP hash sends it").isEqualTo((int) row[6]);
                otherUp++;
            }
        }
        assertThat(dnlbUp).isGreaterThan(0);
        assertThat(otherUp).isGreaterThan(0);
        assertThat(uplinksOfQp).hasSize(8);
        Set<Long> all = new TreeSet<>();
        uplinksOfQp.values().forEach(s -> {
            assertThat(s).hasSize(1);
            all.addAll(s);
        });
        assertThat(all).hasSize(8);
    }

    /** Fig. 5b: a packet that came up link k of a spine's parallel links goes down link k to the destination's leaf. */
    @Test
    void spineVrfKeepsEachPacketInItsVirtualSpine() throws Exception {
        PreparedRun run = fabric("0,1,262144,0,0\n1,0,262144,0,0\n2,5,262144,0,0\n7,4,262144,0,0\n", 8)
                .override("loadBalancing.type=dnlb").prepare();
        Topology t = run.topology();
        List<Departures> spines = new ArrayList<>();
        for (String name : List.of("s0", "s1")) {
            Departures d = new Departures(run.network().switchAt(t.nodeByName(name)));
            run.network().switchAt(t.nodeByName(name)).setEgressStage(d);
            spines.add(d);
        }
        RunResult r = runChecked(run);
        assertThat(r.schemeCounters().get("dnlb.vrf.steered").longValue()).isPositive();
        assertThat(r.schemeCounters()).containsEntry("dnlb.vrf.fallbacks", 0L);
        int checked = 0;
        for (Departures d : spines) {
            for (long[] row : d.rows) {
                int in = (int) row[5];
                int outPort = (int) row[0];
                int[] upPorts = t.portsBetween(t.portOwner(in), t.peerNode(in));
                int[] downPorts = t.portsBetween(t.portOwner(outPort), t.peerNode(outPort));
                assertThat(java.util.Arrays.binarySearch(downPorts, outPort)).isEqualTo(java.util.Arrays.binarySearch(upPorts, in));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(0);
    }

    /** Eq. 4 reported: 2 NICs per leaf x 1 QP < 8 uplinks leaves 2 of 8 uplinks in use; 2 x 4 = 8 meets it with one QP per uplink. */
    @Test
    void eq4IsCheckedAndTheReducedBalanceReported() throws Exception {
        String ring = "0,1,65536,0,0\n1,2,65536,0,0\n2,3,65536,0,0\n3,0,65536,0,0\n"; // h0, h2 on l0; h1, h3 on l1
        Dnlb one = new Dnlb(new Dnlb.Params(-1, true, true));
        RunResult r = runChecked(fabric(ring, 1).prepare(one));
        assertThat(r.schemeCounters()).containsEntry("dnlb.uplinksUsedFraction", 0.25).containsEntry("dnlb.eq4.unmet", 2L);
        assertThat(one.counters()).containsEntry("dnlb.eq4.leaves", 2L).containsEntry("dnlb.eq4.unmet", 2L)
                .containsEntry("dnlb.eq4.minNicsTimesQps", 2L).containsEntry("dnlb.uplinksUsedFraction", 0.25)
                .containsEntry("dnlb.qpsPerUplink.min", 0L).containsEntry("dnlb.qpsPerUplink.max", 1L);
        Dnlb four = new Dnlb(new Dnlb.Params(-1, true, true));
        runChecked(fabric(ring, 4).prepare(four));
        assertThat(four.counters()).containsEntry("dnlb.eq4.unmet", 0L).containsEntry("dnlb.eq4.minNicsTimesQps", 8L)
                .containsEntry("dnlb.uplinksUsedFraction", 1.0).containsEntry("dnlb.qpsPerUplink.min", 1L)
                .containsEntry("dnlb.qpsPerUplink.max", 1L);
    }

    /**
     * CTCCL 3.3: l0's uplink 0 (l0-s0 #0, virtual spine 0) fails at 20 us. Once routing has converged
     * (detection 1 us + 1 us), the QPs whose path uses virtual spine 0 (QP 0 of each of the 3 connections:
     * leaving l0 on uplink 0, or coming down to l0 on its link of virtual spine 0) send the rest of their
     * data with one working sibling's port, a different sibling for each NIC of a leaf; every other QP
     * keeps its port.
     * Without fault avoidance the affected QPs keep their ports too.
     */
    @Test
    void faultAvoidanceMovesOnlyTheAffectedQueuePairs() throws Exception {
        for (boolean avoid : new boolean[] {true, false}) {
            Dnlb dnlb = new Dnlb(new Dnlb.Params(-1, avoid, true));
            PreparedRun run = fabric("0,1,8388608,0,0\n1,0,8388608,0,0\n2,3,8388608,0,0\n", 8)
                    .set("failures.events", List.of(Map.of("atUs", 20, "link", Map.of("a", "l0", "b", "s0", "index", 0), "action", "down")))
                    .set("failures.detectionDelayNs", 1000).set("failures.convergenceDelayNs", 1000).prepare(dnlb);
            Topology t = run.topology();
            LeafPlan plan = new LeafPlan(t);
            List<Departures> leaves = new ArrayList<>();
            for (String name : List.of("l0", "l1")) {
                Departures d = new Departures(run.network().switchAt(t.nodeByName(name)));
                run.network().switchAt(t.nodeByName(name)).setEgressStage(d);
                leaves.add(d);
            }
            RunResult r = runChecked(run);
            assertThat(r.flowsFinished()).isEqualTo(3);
            long detectedPs = 22_000_000L;
            Map<Integer, Set<Integer>> portsAfter = new HashMap<>();
            for (Departures d : leaves) {
                for (long[] row : d.rows) {
                    int qp = (int) row[3];
                    int src = (int) row[7];
                    if (!t.isHost(t.portOwner((int) row[5])) && t.isHost(t.peerNode((int) row[5]))) {
                        int q = qp % 8;
                        int own = PortSegments.sourcePort(plan.nicIndex(src), 8, q, 8);
                        boolean affected = PortSegments.segmentOf(own, 8) == 0; // with 8 QPs and 8 uplinks: QP 0 of every NIC
                        if (!affected || !avoid || row[4] < detectedPs - 2_000_000L) {
                            assertThat((int) row[1]).as("qp %d keeps its port", qp).isEqualTo(own);
                        } else if (row[4] > detectedPs + 2_000_000L) {
                            assertThat((int) row[1]).as("qp %d moved off its port", qp).isNotEqualTo(own);
                            portsAfter.computeIfAbsent(qp, k -> new TreeSet<>()).add((int) row[1]);
                        }
                    }
                }
            }
            Map<String, Number> c = dnlb.counters();
            assertThat(c.get("dnlb.pbr.hits").longValue()).isPositive();
            assertThat(c.get("dnlb.vrf.steered").longValue()).isPositive();
            if (!avoid) {
                // the affected queue pairs keep their ports: l0's PBR rule meets the failed uplink, s0's VRF the failed link down to l0
                assertThat(c.get("dnlb.pbr.fallbacks").longValue()).isPositive();
                assertThat(c.get("dnlb.vrf.fallbacks").longValue()).isPositive();
            }
            if (avoid) {
                assertThat(dnlb.counters()).containsEntry("dnlb.faultAvoidance.movedQueuePairs", 3L).containsEntry("dnlb.faultAvoidance.uplinkChanges", 1L);
                assertThat(portsAfter).hasSize(3);
                for (Set<Integer> ports : portsAfter.values()) {
                    assertThat(ports).hasSize(1).doesNotContain(0xC000); // one working sibling, never segment 0
                }
                // h0 (NIC 0 of l0) and h2 (NIC 1 of l0) move to different siblings: QP 8 of flow 2 is h2's QP 0
                assertThat(portsAfter.get(0)).doesNotContainAnyElementsOf(portsAfter.get(16));
            } else {
                assertThat(dnlb.counters()).doesNotContainKey("dnlb.faultAvoidance.movedQueuePairs");
            }
        }
    }

    /**
     * CTCCL 3.3 under the two readings of "redistributes the collective communication data to the
     * functioning QPs", on a ring AllReduce over the 8 NICs (4 per leaf, 8 QPs per connection, so QP q of
     * every NIC uses uplink q): l0's uplink 0 fails at 30 us, hosts know it 1 us later. Every transfer
     * (ring step) leaving l0 that starts after that is measured on l0's uplinks. With
     * {@code moveDataTo: working-qps} its data is split over the 7 working queue pairs: uplink 0 carries
     * none of it, the other 7 carry the same bytes (to one packet per transfer) and every one of them
     * carries one queue pair of each such transfer. With {@code one-sibling} queue pair 0 of each NIC
     * follows one sibling, so the 4 moved queue pairs load 4 of the 7 uplinks with a fifth share where
     * the other 3 carry four: 5 : 4 between the busiest and the lightest (on the testbed, 10 : 9). Every run finishes and conserves packets.
     */
    @Test
    void faultAvoidanceSplitsNewTransfersEvenlyOverTheWorkingUplinks() throws Exception {
        for (String reading : List.of(Dnlb.WORKING_QPS, Dnlb.ONE_SIBLING)) {
            Dnlb dnlb = new Dnlb(new Dnlb.Params(DSCP, true, true, reading));
            PreparedRun run = Lbsim.scenario().baseDir(dir).seed(5)
                    .override("topology.type=rail-leaf-spine", "topology.serversPerGroup=4", "nic.qpsPerConnection=8",
                            "workload.type=collective", "workload.op=all-reduce", "workload.algorithm=ring", "workload.bytes=8388608",
                            "workload.placement=packed", "workload.trafficClass=" + DSCP, "lossRecovery.type=go-back-n",
                            "switches.pfc.enabled=true")
                    .set("failures.events", List.of(Map.of("atUs", 30, "link", Map.of("a", "l0", "b", "s0", "index", 0), "action", "down")))
                    .set("failures.detectionDelayNs", 1000).set("failures.convergenceDelayNs", 0).prepare(dnlb);
            Topology t = run.topology();
            LeafPlan plan = new LeafPlan(t);
            int l0 = t.nodeByName("l0");
            Departures out = new Departures(run.network().switchAt(l0));
            run.network().switchAt(l0).setEgressStage(out);
            RunResult r = runChecked(run);
            assertThat(r.flowsFinished()).isEqualTo(r.flows());
            long knownPs = 31_000_000L;
            int[] uplinks = plan.uplinks(plan.leafOfNode(l0));
            long[] bytesOn = new long[uplinks.length];
            Map<Integer, Set<Integer>> qpsOn = new HashMap<>();
            Set<Integer> transfers = new TreeSet<>();
            var transport = run.transport();
            for (long[] row : out.rows) {
                int qp = (int) row[3];
                int c = transport.connectionOf(qp);
                int n = java.util.Arrays.binarySearch(uplinks, (int) row[0]);
                if (n < 0 || transport.connectionStartedPs(c) <= knownPs) {
                    continue; // not an uplink, or a transfer under way when the failure became known
                }
                bytesOn[n] += row[9];
                qpsOn.computeIfAbsent(n, k -> new TreeSet<>()).add(qp);
                transfers.add(c);
            }
            assertThat(transfers).as("ring steps leaving l0 after the failure is known").hasSizeGreaterThan(8);
            assertThat(bytesOn[0]).as("the failed uplink").isZero();
            long[] working = java.util.Arrays.copyOfRange(bytesOn, 1, bytesOn.length);
            long min = java.util.Arrays.stream(working).min().orElseThrow();
            long max = java.util.Arrays.stream(working).max().orElseThrow();
            if (reading.equals(Dnlb.WORKING_QPS)) {
                assertThat(max - min).as("bytes per working uplink, %s", java.util.Arrays.toString(working))
                        .isLessThanOrEqualTo((long) transfers.size() * 1024); // a 1 KB packet of rounding per transfer
                for (int n = 1; n < uplinks.length; n++) {
                    assertThat(qpsOn.get(n)).as("one queue pair of each transfer on uplink %d", n).hasSize(transfers.size());
                }
                // l0's transfers, and l1's into l0 over virtual spine 0 (its link down into l0)
                assertThat((long) dnlb.counters().get("dnlb.faultAvoidance.queuePairsWithoutData")).isGreaterThanOrEqualTo(transfers.size());
            } else {
                // 4 NICs' shares on each working uplink, and on 4 of them a moved fifth: 5 : 4 (the testbed's 8 NICs: 10 : 9)
                assertThat((double) max / min).as("bytes per working uplink, %s", java.util.Arrays.toString(working))
                        .isCloseTo(1.25, org.assertj.core.api.Assertions.within(0.01));
                assertThat(java.util.Arrays.stream(working).filter(b -> b == max).count()).isEqualTo(4);
                assertThat(dnlb.counters()).containsEntry("dnlb.faultAvoidance.queuePairsWithoutData", 0L);
            }
        }
    }

    private static QpContext qp(int src, int dst, int trafficClass, int q, int qpsPerConnection) {
        return new QpContext(0, src, dst, 65536, 64, 1024, 64, 0, 400_000, 10_000_000, 400_000, 0, 0, trafficClass, q, qpsPerConnection);
    }

    /** Routes converged with l0's uplink 0 (l0-s0 #0, virtual spine 0) down. */
    private static Fib withoutL0Uplink0(PreparedRun run) {
        Topology t = run.topology();
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(t.nodeByName("l0"), t.nodeByName("s0"))[0])] = true;
        return Routing.compute(t, down);
    }

    /**
     * CTCCL 3.3 with {@code working-qps}, once the library knows l0's uplink 0 is down: of the DNLB class's
     * queue pairs, only those whose path uses virtual spine 0 (QP 0 of h0 -> h1 leaving on it, QP 0 of
     * h1 -> h0 coming down it into l0) and that have a working sibling are left without data; another
     * class, traffic within a leaf and a connection with no working queue pair keep their split.
     * Without VRFs uplink n is no virtual spine, so only the source leaf's uplink counts.
     */
    @Test
    void onlyQueuePairsOfAFailedVirtualSpineWithAWorkingSiblingAreLeftWithoutData() throws Exception {
        Dnlb before = new Dnlb(new Dnlb.Params(DSCP, true, true));
        assertThat(before.counters()).isEmpty();
        assertThat(before.plan()).isNull();
        assertThat(before.carriesData(qp(0, 1, DSCP, 0, 8))).as("nothing known of the fabric yet").isTrue();
        for (boolean vrf : new boolean[] {true, false}) {
            Dnlb dnlb = new Dnlb(new Dnlb.Params(DSCP, true, vrf));
            PreparedRun run = fabric("0,1,65536,0," + DSCP + "\n", 8).prepare(dnlb);
            assertThat(dnlb.plan().leafCount()).isEqualTo(2);
            dnlb.onRoutingChange(withoutL0Uplink0(run));
            // h0 is NIC 0 of l0, h1 NIC 0 of l1, h2 NIC 1 of l0; with 8 QPs on 8 uplinks QP q uses uplink q
            assertThat(dnlb.carriesData(qp(0, 1, DSCP, 0, 8))).isFalse();
            assertThat(dnlb.carriesData(qp(0, 1, DSCP, 1, 8))).isTrue();
            assertThat(dnlb.carriesData(qp(1, 0, DSCP, 0, 8))).as("into l0 over virtual spine 0").isEqualTo(!vrf);
            assertThat(dnlb.carriesData(qp(1, 0, DSCP, 1, 8))).isTrue();
            assertThat(dnlb.carriesData(qp(0, 1, 0, 0, 8))).as("another class").isTrue();
            assertThat(dnlb.carriesData(qp(0, 2, DSCP, 0, 8))).as("within l0").isTrue();
            assertThat(dnlb.carriesData(qp(0, 1, DSCP, 0, 1))).as("no working sibling").isTrue();
            assertThat(dnlb.counters()).containsEntry("dnlb.faultAvoidance.queuePairsWithoutData", vrf ? 2L : 1L)
                    .containsEntry("dnlb.faultAvoidance.uplinkChanges", 1L);
        }
        Dnlb oneSibling = new Dnlb(new Dnlb.Params(DSCP, true, true, Dnlb.ONE_SIBLING));
        PreparedRun run = fabric("0,1,65536,0," + DSCP + "\n", 8).prepare(oneSibling);
        oneSibling.onRoutingChange(withoutL0Uplink0(run));
        assertThat(oneSibling.carriesData(qp(0, 1, DSCP, 0, 8))).as("one-sibling moves packets, not shares").isTrue();
    }

    /**
     * DSCP 0 is a class like any other, not "every class": class-26 traffic is no DNLB traffic then, so
     * no leaf has DNLB senders to check Eq. 4 for and fault avoidance leaves its queue pairs alone.
     */
    @Test
    void withDscpZeroOtherClassesAreNoDnlbTraffic() throws Exception {
        Dnlb dnlb = new Dnlb(new Dnlb.Params(0, true, true));
        PreparedRun run = fabric("0,1,65536,0," + DSCP + "\n", 8).prepare(dnlb);
        runChecked(run);
        assertThat(dnlb.counters()).containsEntry("dnlb.eq4.leaves", 0L).doesNotContainKey("dnlb.uplinks").doesNotContainKey("dnlb.eq4.unmet");
        dnlb.onRoutingChange(withoutL0Uplink0(run));
        assertThat(dnlb.carriesData(qp(0, 1, DSCP, 0, 8))).isTrue();
        assertThat(dnlb.carriesData(qp(0, 1, 0, 0, 8))).isFalse();
    }

    /**
     * With one link from each leaf to each spine there is nothing for VRFs to split, and on a custom fabric
     * (every switch one tier) no leaf has uplinks: no VRFs, no PBR tables, nothing hit.
     */
    @Test
    void vrfsOnlySplitParallelLinksAndPbrOnlyRunsOnLeavesWithUplinks() throws Exception {
        Files.writeString(dir.resolve("t.csv"), "src,dst,bytes,start_ns\n0,1,65536,0\n1,0,65536,0\n");
        Dnlb single = new Dnlb(new Dnlb.Params(-1, true, true));
        RunResult r = runChecked(Lbsim.scenario().baseDir(dir).seed(5).leafSpine(1, 2, 2).trace("t.csv").prepare(single));
        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(single.counters()).doesNotContainKey("dnlb.vrf.steered");
        assertThat(single.counters().get("dnlb.pbr.hits").longValue()).isPositive();
        Dnlb custom = new Dnlb(new Dnlb.Params(-1, true, true));
        RunResult rc = runChecked(Lbsim.scenario().baseDir(dir).seed(5).trace("t.csv")
                .set("topology", Map.of("type", "custom", "hosts", 2, "switches", List.of("l0", "l1", "s0"),
                        "links", List.of("h0 l0", "h1 l1", "l0 s0", "l1 s0"), "linkRateGbps", 100, "linkDelayNs", 100, "routes", List.of()))
                .prepare(custom));
        assertThat(rc.flowsFinished()).isEqualTo(2);
        assertThat(custom.counters()).doesNotContainKey("dnlb.vrf.steered").containsEntry("dnlb.pbr.hits", 0L)
                .containsEntry("dnlb.eq4.leaves", 0L);
    }
}
