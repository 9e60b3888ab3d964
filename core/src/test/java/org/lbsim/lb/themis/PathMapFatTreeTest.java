package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.lb.CrcEcmpSelector;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.testing.Packets;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * Themis-S on a 3-tier fat tree (3.2, Fig. 3): the linear switch hash, the PathMap built from it,
 * Eq. 1 over every end-to-end path, Eq. 4's PathMap term, Themis-D and compensation on the fat
 * tree, and the section 6 fallback when an edge uplink fails mid-run.
 */
class PathMapFatTreeTest {
    @TempDir
    Path dir;

    private static Themis crc() {
        Themis.Params d = Themis.Params.defaults();
        return new Themis(d.with(Themis.Params.CRC32, d.observeDataAt()));
    }

    private static Themis mix64() {
        Themis.Params d = Themis.Params.defaults();
        return new Themis(d.with(Themis.Params.MIX64, d.observeDataAt()));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void theCrcHashMovesBySourcePortMaskTheSameForEveryFlowAndSeed(long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            int s = r.nextInt();
            int tier = 1 + r.nextInt(3);
            int src = r.nextInt(1 << 20);
            int dst = r.nextInt(1 << 20);
            int port = r.nextInt(1 << 16);
            int d = r.nextInt(1 << 16);
            assertThat(CrcEcmpSelector.hash16(s, tier, src, dst, port ^ d))
                    .isEqualTo(CrcEcmpSelector.hash16(s, tier, src, dst, port) ^ CrcEcmpSelector.linearPart(tier, d));
        }
    }

    /** The path (ports taken at every switch from the source ToR up and down to the destination ToR) of a data packet. */
    private static String pathOf(PreparedRun run, int src, int dst, int entropy, int psn) {
        Topology t = run.topology();
        Fib fib = run.network().fib();
        Packet p = Packets.data(run.network().pool(), 0, src, dst, psn, 0);
        p.entropy = entropy;
        int node = t.hostSwitch(src);
        p.ingressPort = t.peerPort(t.hostPort(src));
        StringBuilder path = new StringBuilder();
        while (node != t.hostSwitch(dst)) {
            int g = fib.group(node, dst);
            int count = fib.groupSize(g);
            int port = count == 1 ? fib.port(g, 0) : run.network().switchAt(node).selector().select(p, g, fib.groupPorts(), fib.groupOffset(g), count);
            path.append(t.nodeName(node)).append('>').append(t.nodeName(t.peerNode(port))).append(' ');
            p.ingressPort = t.peerPort(port);
            node = t.peerNode(port);
        }
        run.network().pool().release(p);
        return path.toString();
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void eq1OnTheFatTreeVisitsAllNEndToEndPathsInNConsecutivePsns(long seed) {
        Random r = new Random(seed);
        Themis themis = crc();
        PreparedRun run = Lbsim.scenario().fatTree(8).permutation(4096).seed(seed).prepare(themis);
        Topology t = run.topology();
        for (int f = 0; f < 8; f++) {
            int src = r.nextInt(t.hostCount());
            int dst = r.nextInt(t.hostCount());
            int entropy = r.nextInt(1 << 16);
            int start = r.nextInt(1 << 20);
            int n = themis.tor(t.hostSwitch(src)).pathMap().paths(dst);
            boolean otherPod = t.pod(src) != t.pod(dst);
            boolean otherTor = t.hostSwitch(src) != t.hostSwitch(dst);
            assertThat(n).as("paths from " + src + " to " + dst).isEqualTo(otherPod ? 16 : otherTor ? 4 : 1);
            Set<String> paths = new HashSet<>();
            for (int psn = start; psn < start + n; psn++) {
                String path = pathOf(run, src, dst, entropy, psn);
                paths.add(path);
                // the same PSN class takes the same path: Eq. 2-3's premise
                assertThat(pathOf(run, src, dst, entropy, psn + n)).isEqualTo(path);
            }
            assertThat(paths).as("N = %d consecutive PSNs from %d, %d -> %d", n, start, src, dst).hasSize(n);
        }
    }

    @Test
    void withMix64OnlyTheToRsUplinksAreSprayed() {
        PreparedRun run = Lbsim.scenario().fatTree(8).permutation(4096).seed(3).prepare(mix64());
        Set<String> paths = new HashSet<>();
        for (int psn = 0; psn < 64; psn++) {
            paths.add(pathOf(run, 0, 127, 12345, psn));
        }
        assertThat(paths).as("k/2 = 4 uplinks, the aggregation's choice fixed by the queue pair's entropy").hasSize(4);
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 8, 16})
    void thePathMapHoldsNPathsEntriesOfTwoBytes(int k) {
        Themis themis = crc();
        PreparedRun run = Lbsim.scenario().fatTree(k).permutation(4096).prepare(themis);
        Topology t = run.topology();
        int half = k / 2;
        PathMap map = themis.tor(t.nodeByName("e0")).pathMap();
        assertThat(map.entries()).isEqualTo(half * half);
        assertThat(map.memoryBytes()).isEqualTo(half * half * 2L);
        assertThat(map.stageTiers()).containsExactly(1, 2);
        assertThat(map.stageSizes()).containsExactly(half, half);
        // every entry yields its own relative path, entry 0 leaves the header alone
        assertThat(map.mask(0)).isZero();
        for (int rel = 0; rel < map.entries(); rel++) {
            assertThat(PathMap.relativePath(map.stageTiers(), map.stageSizes(), map.mask(rel))).isEqualTo(rel);
        }
    }

    @Test
    void aLeafSpinesPathMapHasOneEntryPerSpine() {
        Themis themis = crc();
        PreparedRun run = Lbsim.scenario().leafSpine(4, 4, 8).permutation(4096).prepare(themis);
        PathMap map = themis.tor(run.topology().nodeByName("l0")).pathMap();
        assertThat(map.entries()).isEqualTo(8);
        assertThat(map.stageTiers()).containsExactly(1);
    }

    @Test
    void groupsThatAreNotPowersOfTwoAreRefusedWithTheFieldUnlessMix64IsAsked() {
        assertThatThrownBy(() -> Lbsim.scenario().fatTree(6).permutation(4096).prepare(new Themis(Themis.Params.defaults())))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("switchHash").hasMessageContaining("power-of-two").hasMessageContaining("mix64");
        assertThatThrownBy(() -> Lbsim.scenario().fatTree(6).permutation(4096).prepare(crc()))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("switchHash").hasMessageContaining("power-of-two");
        assertThat(Lbsim.scenario().fatTree(6).permutation(4096).prepare(mix64())).isNotNull();
        assertThatThrownBy(() -> new Themis.Params(2, 1.5, 0, 0, true, true, "crc16", Themis.Params.DEPARTURE))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("switchHash");
        assertThatThrownBy(() -> new Themis.Params(2, 1.5, 0, 0, true, true, Themis.Params.AUTO, "egress"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("observeDataAt");
    }

    private static final String[][] CORE_LINKS = {{"a0", "c0"}, {"a0", "c1"}, {"a2", "c0"}, {"a2", "c1"}, {"a4", "c0"}, {"a4", "c1"}, {"a6", "c0"}, {"a6", "c1"},
        {"a1", "c2"}, {"a1", "c3"}, {"a3", "c2"}, {"a3", "c3"}, {"a5", "c2"}, {"a5", "c3"}, {"a7", "c2"}, {"a7", "c3"}};

    /** Directed aggregation-core links (both directions of the 16 links of a k = 4 fat tree) that carried no byte. */
    private static List<String> idleCoreLinks(PreparedRun run) {
        Topology t = run.topology();
        List<String> idle = new java.util.ArrayList<>();
        for (String[] link : CORE_LINKS) {
            int a = t.nodeByName(link[0]);
            int c = t.nodeByName(link[1]);
            if (run.network().txBytes(t.portsBetween(a, c)[0]) == 0) {
                idle.add(link[0] + ">" + link[1]);
            }
            if (run.network().txBytes(t.portsBetween(c, a)[0]) == 0) {
                idle.add(link[1] + ">" + link[0]);
            }
        }
        return idle;
    }

    @Test
    void theDefaultThemisOnAFatTreeSpraysEveryFlowOverEveryCoreSwitch() throws Exception {
        // four cross-pod flows, pod p to pod p + 1: each one's up links leave its pod, its down links enter the next
        Path trace = dir.resolve("pods.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,4,400000,0\n4,8,400000,0\n8,12,400000,0\n12,0,400000,0\n");
        PreparedRun sprayed = Lbsim.scenario().fatTree(4).linkRateGbps(100).trace(trace.toString()).lossRecovery("nic-sr").seed(2)
                .prepare(new Themis(Themis.Params.defaults()));
        RunResult r = checked(sprayed);
        assertThat(r.flowsFinished()).isEqualTo(4);
        Topology t = sprayed.topology();
        assertThat(t.portsBetween(t.nodeByName("a0"), t.nodeByName("c0"))).as("the core links' names").isNotEmpty();
        assertThat(idleCoreLinks(sprayed)).as("3.2: every end-to-end path, so every core link both ways").isEmpty();
        PreparedRun uplinksOnly = Lbsim.scenario().fatTree(4).linkRateGbps(100).trace(trace.toString()).lossRecovery("nic-sr").seed(2).prepare(mix64());
        checked(uplinksOnly);
        assertThat(idleCoreLinks(uplinksOnly)).as("mix64: each aggregation switch hashes a flow's fixed entropy to one core").isNotEmpty();
    }

    @Test
    void theCrcHashIsThemissOwnAnotherTrafficClassKeepsItsSchemesHash() {
        PreparedRun run = Lbsim.scenario().fatTree(4).permutation(4096).seed(4)
                .set("trafficClasses", List.of(Map.of("trafficClass", 1, "loadBalancing", Map.of("type", "ecmp"))))
                .prepare(new Themis(Themis.Params.defaults()));
        Topology t = run.topology();
        for (String name : new String[] {"e0", "a0", "c0"}) {
            var sw = run.network().switchAt(t.nodeByName(name));
            assertThat(sw.selector(1)).as(name + ", class 1 (ecmp)").isInstanceOf(org.lbsim.lb.EcmpHashSelector.class);
        }
        assertThat(run.network().switchAt(t.nodeByName("a0")).selector(0)).as("a0, class 0 (themis)").isInstanceOf(CrcEcmpSelector.class);
        assertThat(run.network().switchAt(t.nodeByName("e0")).selector(0)).as("e0, class 0: the ToR's Themis").isInstanceOf(ThemisTor.class);
    }

    /** Cross-pod ring on a k = 4 fat tree (16 hosts), 100 Gb/s, DCQCN, NIC-SR, PFC: reordering but no loss. */
    private ScenarioBuilder podRing(long bytes) throws Exception {
        Path trace = dir.resolve("ring-" + bytes + ".csv");
        StringBuilder csv = new StringBuilder("src,dst,bytes,start_ns\n");
        for (int h = 0; h < 16; h++) {
            csv.append(h).append(',').append((h + 4) % 16).append(',').append(bytes).append(",0\n");
        }
        Files.writeString(trace, csv);
        return Lbsim.scenario().fatTree(4).linkRateGbps(100).linkDelayNs(1000).trace(trace.toString()).set("packets.mtuBytes", 1000)
                .set("switches.pfc.enabled", true).congestionControl("dcqcn").lossRecovery("nic-sr").seed(7);
    }

    private static RunResult checked(PreparedRun run) {
        RunResult r = run.run();
        Invariants.check(run);
        return r;
    }

    @Test
    void themisDOnTheFatTreeBlocksTheReorderingNacksAndEveryFlowCompletes() throws Exception {
        Themis themis = crc();
        PreparedRun run = podRing(1_000_000).prepare(themis);
        RunResult r = checked(run);
        Map<String, Long> c = themis.counters();
        assertThat(r.flowsFinished()).isEqualTo(16);
        assertThat(r.counters().dropped()).isZero();
        assertThat(c.get("themis.nacksBlocked")).as(c.toString()).isPositive().isEqualTo(c.get("themis.nacksSeen"));
        assertThat(r.counters().spuriousRetransmissions()).isZero();
        // every one of e0's 2 uplinks and a0's 2 core links carries e0's cross-pod data
        Topology t = run.topology();
        for (String[] link : new String[][] {{"e0", "a0"}, {"e0", "a1"}, {"a0", "c0"}, {"a0", "c1"}, {"a1", "c2"}, {"a1", "c3"}}) {
            assertThat(run.network().txBytes(t.portsBetween(t.nodeByName(link[0]), t.nodeByName(link[1]))[0])).as(link[0] + ">" + link[1]).isPositive();
        }
        // Eq. 4 at one ToR: 4 paths x 2 B + (20 B + 38 ring entries) x the 2 cross-rack QPs it delivers
        assertThat(c.get("themis.eq4MemoryBytesMaxTor")).isEqualTo(4 * 2 + (20 + 38) * 2);
    }

    @Test
    void onTheFatTreeARealLossIsRecoveredByTheCompensationNack() throws Exception {
        Path trace = dir.resolve("one.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,12,262144,0\n");
        PreparedRun run = Lbsim.scenario().fatTree(4).linkRateGbps(100).trace(trace.toString()).lossRecovery("nic-sr")
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 20))).prepare(crc());
        RunResult r = checked(run);
        assertThat(r.flowsFinished()).isEqualTo(1);
        // PSN 21 (another path) triggers the NACK for 20: blocked; PSN 36 (20's path, 20 + N with N = 4 x 4) proves the loss
        assertThat(run.network().originated()).as("one compensation NACK").isEqualTo(1);
        assertThat(r.flowResults().get(0).timeouts()).isZero();
        assertThat(r.counters().retransmissions()).isEqualTo(1);
    }

    @Test
    void anEdgeUplinkDownMidRunMakesItsToRFallBackToEcmpAndEveryFlowFinishes() throws Exception {
        Themis themis = crc();
        PreparedRun run = podRing(1_000_000).set("failures.events", List.of(Map.of("atUs", 40, "link", Map.of("a", "e0", "b", "a0"), "action", "down")))
                .set("failures.convergenceDelayNs", 20_000).set("limits.maxTimeUs", 100_000).prepare(themis);
        RunResult r = checked(run);
        Map<String, Long> c = themis.counters();
        assertThat(r.failureEvents()).hasSize(1);
        assertThat(r.flowsFinished()).as("every flow finishes " + c).isEqualTo(16);
        assertThat(themis.tor(run.topology().nodeByName("e0")).spraying()).isFalse();
        assertThat(c.get("themis.torsFallenBackToEcmp")).as("e0 at once, the other ToRs once routing converged").isEqualTo(8);
        assertThat(r.failureEvents().get(0).lostAtEvent() + r.counters().linkLoss()).isPositive();
    }

    @Test
    void sameSeedSameFatTreeRun() throws Exception {
        RunResult a = checked(podRing(300_000).prepare(crc()));
        RunResult b = checked(podRing(300_000).prepare(crc()));
        assertThat(a.cctPs()).isEqualTo(b.cctPs());
        assertThat(a.counters().nacks()).isEqualTo(b.counters().nacks());
    }
}
