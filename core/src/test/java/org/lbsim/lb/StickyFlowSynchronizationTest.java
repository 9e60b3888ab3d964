package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Packet;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * OFAN App. C (Theorem 1): with identical line-rate senders, SIMPLE RR and JSQ make every sender
 * "stick" to one uplink and hence one core, and two sticky flows that meet on a downlink grow its
 * queue linearly with the message size; random spraying (RSQ, HOST PKT) does not stick, and OFAN
 * keeps queues bounded.
 */
class StickyFlowSynchronizationTest {
    private static final int K = 4;
    private static final int HOSTS = K * K * K / 4;
    private static final int FRAME = 4096 + 62;

    @TempDir
    Path dir;

    /**
     * Host (pod p, edge j, host i) sends to (pod p + 1 + j, edge i, host j): every flow leaves its
     * pod, every edge switch sends to two different edge switches, and the two flows into each
     * edge switch come from two different pods, so whether they share a downlink depends only on
     * the uplinks they took. Host h starts at 5 h ns so that no two packets reach a switch at once.
     */
    private static List<long[]> crossPodPermutation(long bytes) {
        List<long[]> rows = new ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
            int p = h / 4;
            int j = (h / 2) % 2;
            int i = h % 2;
            int dst = ((p + 1 + j) % 4) * 4 + i * 2 + j;
            rows.add(new long[] {h, dst, bytes, 5L * h});
        }
        return rows;
    }

    /** What one run measured: per sender, the share of its data packets through its most used core; the largest queue. */
    private record Measured(String scheme, int packets, double meanStickiness, double minStickiness, long maxQueueBytes, int flowsFinished) {
        double maxQueuePackets() {
            return maxQueueBytes / (double) FRAME;
        }

        @Override
        public String toString() {
            return String.format("%s m=%d: sticky core share mean %.3f min %.3f, max queue %.1f frames", scheme, packets, meanStickiness,
                    minStickiness, maxQueuePackets());
        }
    }

    private Measured run(String scheme, int packets, long seed) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(K), scheme,
                trace(dir, "sync.csv", crossPodPermutation((long) packets * 4096)), seed);
        // buffers large enough that no queue overflows: the queue growth is the measurement
        s = ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(64_000_000), EcnSpec.defaults()));
        long[][] viaCore = new long[HOSTS][HOSTS + K * K + K * K / 4]; // per sender, per node (hosts, edges, aggregations, cores)
        CheckedRun run = CheckedRun.of(s, dir, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            return (node, p, port) -> {
                if (p.kind == Packet.DATA && t.tier(t.peerNode(port)) == 3) {
                    viaCore[p.src][t.peerNode(port)]++; // an aggregation switch sent this data packet up to a core
                }
            };
        }));
        double sum = 0;
        double min = 1;
        for (int h = 0; h < HOSTS; h++) {
            long total = 0;
            long most = 0;
            for (long c : viaCore[h]) {
                total += c;
                most = Math.max(most, c);
            }
            assertThat(total).as("%s: data packets of host %d seen going up to a core", scheme, h).isEqualTo(packets);
            double share = most / (double) total;
            sum += share;
            min = Math.min(min, share);
        }
        long maxQueue = 0;
        Topology t = run.prepared().topology();
        for (int port = 0; port < t.portCount(); port++) {
            EgressPort e = run.prepared().network().egress(port);
            if (e != null) {
                maxQueue = Math.max(maxQueue, e.maxQueueBytes());
            }
        }
        Measured m = new Measured(scheme, packets, sum / HOSTS, min, maxQueue, run.result().flowsFinished());
        System.out.println("[sticky] " + m);
        return m;
    }

    @Test
    void simpleRrAndJsqKeepEachSendersPacketsOnOneCoreWhileRandomSprayingDoesNot() {
        for (long seed = 1; seed <= 3; seed++) {
            for (String sticky : List.of("simple-rr", "jsq")) {
                Measured m = run(sticky, 64, seed);
                assertThat(m.flowsFinished()).isEqualTo(HOSTS);
                assertThat(m.meanStickiness()).as("seed %d: %s", seed, m).isGreaterThanOrEqualTo(0.95);
            }
            for (String random : List.of("rsq", "host-spray")) {
                Measured m = run(random, 64, seed);
                assertThat(m.flowsFinished()).isEqualTo(HOSTS);
                // 64 packets over 4 cores: about a quarter each, the most used one a little more
                assertThat(m.meanStickiness()).as("seed %d: %s", seed, m).isLessThan(0.45);
            }
        }
    }

    @Test
    void stickyFlowsGrowTheQueueLinearlyWithTheMessageWhileOfanKeepsItBounded() {
        for (long seed = 1; seed <= 2; seed++) {
            // While a host sends only data (App. C mode 1: the first 78 or so packets, until its peer's data reaches
            // it and it starts interleaving ACKs), two sticky flows sharing a downlink queue one packet per period,
            // so the queue reaches m frames.
            for (String sticky : List.of("simple-rr", "jsq")) {
                Measured small = run(sticky, 16, seed);
                Measured large = run(sticky, 64, seed);
                String msg = "seed " + seed + ": " + small + "; " + large;
                assertThat(small.maxQueuePackets()).as(msg).isGreaterThanOrEqualTo(16);
                assertThat(large.maxQueuePackets() - small.maxQueuePackets()).as(msg).isGreaterThanOrEqualTo(0.9 * (64 - 16));
            }
            for (String random : List.of("rsq", "host-spray")) {
                Measured small = run(random, 16, seed);
                Measured large = run(random, 64, seed);
                assertThat(large.maxQueuePackets() - small.maxQueuePackets()).as("seed " + seed + ": " + small + "; " + large)
                        .isLessThan(0.5 * (64 - 16));
            }
            // with ACKs interleaved the flows stick less, but their queues keep far above OFAN's
            Measured rr = run("simple-rr", 1024, seed);
            assertThat(rr.maxQueuePackets()).as("seed " + seed + ": " + rr).isGreaterThan(150);
            Measured jsq = run("jsq", 1024, seed);
            assertThat(jsq.maxQueuePackets()).as("seed " + seed + ": " + jsq).isGreaterThan(60);
            for (int m : new int[] {16, 64, 1024}) {
                Measured ofan = run("ofan", m, seed);
                assertThat(ofan.flowsFinished()).isEqualTo(HOSTS);
                assertThat(ofan.maxQueuePackets()).as("seed " + seed + ": " + ofan).isLessThanOrEqualTo(5);
            }
        }
    }

    /**
     * OFAN 7 / Fig. 7: SIMPLE RR balances the uplinks perfectly, also once every host interleaves ACKs
     * with its data (App. B mode 2, from about packet 80 here), because data and ACKs rotate on pointers
     * of their own. With one pointer shared by both classes (SWITCH PKT's htsim counter) a host's ACKs
     * shift which uplink its data takes, data and ACKs settle on different uplinks, and the uplinks
     * that carry more than their share of data queue up linearly.
     */
    @Test
    void simpleRrKeepsTheUplinksBalancedOnceAcksInterleaveThanksToItsOwnPointerForAcks() {
        int packets = 1024;
        for (long seed = 1; seed <= 2; seed++) {
            for (boolean perClass : new boolean[] {true, false}) {
                Scenario s = TestScenarios.scenario(TestScenarios.fatTree(K), "simple-rr",
                        trace(dir, "sync.csv", crossPodPermutation((long) packets * 4096)), seed);
                s = ScenarioTweaks.withLoadBalancing(s, new ComponentSpec("simple-rr", new SwitchRoundRobin.Params(0, perClass)));
                s = ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(64_000_000), EcnSpec.defaults()));
                long[][] dataUp = new long[1][];
                CheckedRun run = CheckedRun.of(s, dir, ChoiceRecorder.on(prepared -> {
                    Topology t = prepared.topology();
                    dataUp[0] = new long[t.portCount()];
                    return (node, p, port) -> {
                        if (p.kind == Packet.DATA && t.tier(node) == 1) {
                            dataUp[0][port]++; // an edge switch sent this data packet up
                        }
                    };
                }));
                assertThat(run.result().flowsFinished()).isEqualTo(HOSTS);
                Topology t = run.prepared().topology();
                long worstSpread = 0; // over the edges: most minus fewest data packets on one of its uplinks
                long maxUplinkQueue = 0;
                for (int node = HOSTS; node < t.nodeCount(); node++) {
                    if (t.tier(node) != 1) {
                        continue;
                    }
                    long most = 0;
                    long fewest = Long.MAX_VALUE;
                    for (int port = t.firstPort(node); port < t.portEnd(node); port++) {
                        if (t.tier(t.peerNode(port)) == 2) {
                            most = Math.max(most, dataUp[0][port]);
                            fewest = Math.min(fewest, dataUp[0][port]);
                            maxUplinkQueue = Math.max(maxUplinkQueue, run.prepared().network().egress(port).maxQueueBytes());
                        }
                    }
                    worstSpread = Math.max(worstSpread, most - fewest);
                }
                String msg = String.format("seed %d, perClass %s: worst spread of data packets over an edge's uplinks %d (of %d per edge), "
                        + "largest uplink queue %.1f frames", seed, perClass, worstSpread, 2 * packets, maxUplinkQueue / (double) FRAME);
                System.out.println("[sticky] " + msg);
                if (perClass) {
                    assertThat(worstSpread).as(msg).isLessThanOrEqualTo(1);
                    assertThat(maxUplinkQueue / (double) FRAME).as(msg).isLessThanOrEqualTo(3);
                } else {
                    assertThat(worstSpread).as(msg).isGreaterThan(packets / 10);
                    assertThat(maxUplinkQueue / (double) FRAME).as(msg).isGreaterThan(50);
                }
            }
        }
    }
}
