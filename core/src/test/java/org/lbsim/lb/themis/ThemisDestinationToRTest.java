package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.net.EgressStage;
import org.lbsim.net.Packet;
import org.lbsim.sim.PreparedRun;
import org.lbsim.testing.Packets;
import org.lbsim.testing.TorBench;
import org.lbsim.topology.Topology;

/**
 * Themis-D on one destination ToR driven packet by packet (3.3, 3.4): l1 of 2 leaves x 2 hosts and
 * 4 spines (N = 4), rings of 8 entries. Data leaving l1 for a NIC is handed to the ToR's egress stage,
 * NACKs coming up from a NIC to its ingress stage; the run's own traffic starts only after everything here.
 */
class ThemisDestinationToRTest {
    static final int RING_ENTRIES = 8;
    static final int NACK_BYTES = 64;
    static final int DATA_BYTES = 1062;

    @TempDir
    Path dir;

    PreparedRun run;
    Topology t;
    ThemisTor tor;
    /** Per NACK l1 sends up: flow, src, dst, psn, cumAck, entropy, sizeBytes, ingressPort. */
    final List<int[]> nacksSent = new ArrayList<>();

    private static Themis.Params params(String observeAt) {
        return new Themis.Params(2, 1.5, 0, RING_ENTRIES, true, true, Themis.Params.AUTO, observeAt);
    }

    private ScenarioBuilder leafSpine() throws Exception {
        return Lbsim.scenario().leafSpine(2, 2, 4).linkRateGbps(100).trace(TorBench.lateTrace(dir, 0, 2)).lossRecovery("nic-sr").seed(1);
    }

    /** Themis on {@code s}; l1's Themis program, with the NACKs l1 sends up recorded. */
    private Themis prepare(ScenarioBuilder s, Themis.Params params, String destinationTor) {
        Themis themis = new Themis(params);
        run = s.prepare(themis);
        t = run.topology();
        int node = t.nodeByName(destinationTor);
        tor = themis.tor(node);
        run.network().switchAt(node).setEgressStage(new EgressStage() {
            @Override
            public void onEnqueue(Packet p, int port, long queueBytes) {
                if (p.kind == Packet.NACK) {
                    nacksSent.add(new int[] {p.flow, p.src, p.dst, p.psn, p.cumAck, p.entropy, p.sizeBytes, p.ingressPort});
                }
            }

            @Override
            public void onDequeue(Packet p, int port, long queueBytes) {
            }
        });
        return themis;
    }

    private int downPort(int host) {
        return t.peerPort(t.hostPort(host));
    }

    /** Data of queue pair {@code flow} from {@code src} to {@code dst}, PSN {@code psn}. */
    private Packet data(int flow, int src, int dst, int psn) {
        return Packets.data(run.network().pool(), flow, src, dst, psn, DATA_BYTES);
    }

    /** Data of queue pair {@code flow} from {@code src} leaving the ToR for {@code dst}'s NIC. */
    private void down(int flow, int src, int dst, int... psns) {
        for (int psn : psns) {
            Packet p = data(flow, src, dst, psn);
            tor.onDequeue(p, downPort(dst), 0);
            run.network().pool().release(p);
        }
    }

    /** The NIC of {@code host} NACKs {@code ePsn} of queue pair {@code flow}; true when the ToR lets it through. */
    private boolean nack(int flow, int host, int peer, int ePsn, int entropy) {
        Packet n = Packets.of(run.network().pool(), Packet.NACK, flow, host, peer, ePsn, NACK_BYTES);
        n.entropy = entropy;
        n.ingressPort = downPort(host);
        boolean passed = tor.onIngress(n, n.ingressPort);
        if (passed) {
            run.network().pool().release(n);
        }
        return passed;
    }

    @Test
    void eachQueuePairsNackIsJudgedAgainstItsOwnRingAndABlockedOneIsCompensatedWithTheNicsLabels() throws Exception {
        Themis themis = prepare(leafSpine(), params(Themis.Params.DEPARTURE), "l1");
        assertThat(tor.spraying()).isTrue();
        // queue pair 70 (h1 -> h3) first, beyond the first 64 entries of the flow table; queue pair 0 (h0 -> h2) interleaved
        down(70, 1, 3, 0);
        down(0, 0, 2, 0);
        down(70, 1, 3, 1);
        down(0, 0, 2, 5);
        down(70, 1, 3, 6);
        assertThat(tor.rings().contents(0)).containsExactly(0, 1, 6);
        assertThat(tor.rings().contents(1)).containsExactly(0, 5);
        assertThat(nack(70, 3, 1, 2, 111)).as("tPSN 6: 6 mod 4 == 2 mod 4, 2 is lost").isTrue();
        assertThat(nack(0, 2, 0, 1, 222)).as("tPSN 5: 5 mod 4 == 1 mod 4").isTrue();
        down(0, 0, 2, 3);
        assertThat(nack(0, 2, 0, 2, 333)).as("tPSN 3 took another path than 2").isFalse();
        assertThat(run.network().totalConsumed()).isEqualTo(1);
        assertThat(nack(5, 3, 2, 0, 444)).as("a queue pair within the rack: not judged").isTrue();
        assertThat(nacksSent).isEmpty();
        down(0, 0, 2, 4, 5);
        assertThat(nacksSent).as("4 and 5 took other paths").isEmpty();
        down(0, 0, 2, 6);
        assertThat(nacksSent).as("6 took 2's path: 2 is lost").hasSize(1);
        assertThat(nacksSent.get(0)).as("the NACK for 2 as the NIC sent it, back from the NIC's port")
                .containsExactly(0, 2, 0, 2, 2, 333, NACK_BYTES, downPort(2));
        down(0, 0, 2, 10);
        assertThat(nacksSent).as("one NACK per blocked ePSN").hasSize(1);

        Map<String, Long> counters = themis.counters();
        assertThat(counters.get("themis.nacksSeen")).isEqualTo(3);
        assertThat(counters.get("themis.nacksForwarded")).isEqualTo(2);
        assertThat(counters.get("themis.nacksBlocked")).isEqualTo(1);
        assertThat(counters.get("themis.nacksCompensated")).isEqualTo(1);
        assertThat(counters.get("themis.nacksUnmatched")).isZero();
        assertThat(counters.get("themis.ringEntries")).isEqualTo(RING_ENTRIES);
        // Eq. 4 at l1: 4 paths x 2 B + (20 B + 8 B) x 2 queue pairs
        assertThat(counters.get("themis.eq4MemoryBytesMaxTor")).isEqualTo(4 * 2 + (20 + RING_ENTRIES) * 2);
    }

    @Test
    void aFullRingOverwritesItsOldestPsnAndANackThatDrainsItIsForwardedAsUnmatched() throws Exception {
        Themis themis = prepare(leafSpine(), params(Themis.Params.DEPARTURE), "l1");
        down(0, 0, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(tor.rings().contents(0)).containsExactly(2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(nack(0, 2, 0, 20, 1)).as("no tPSN: fail open").isTrue();
        Map<String, Long> counters = themis.counters();
        assertThat(counters.get("themis.ringOverwrites")).isEqualTo(2);
        assertThat(counters.get("themis.ringHighWater")).isEqualTo(RING_ENTRIES);
        assertThat(counters.get("themis.nacksUnmatched")).isEqualTo(1);
        assertThat(counters.get("themis.nacksForwarded")).isEqualTo(1);
        assertThat(counters.get("themis.nacksBlocked")).isZero();
    }

    /** ceil(BW x RTT_last x F / MTU) with BW the host link: 25 Gb/s x 2 us x 1.5 / 1000 B = 9.375, where the uplinks run at 100 Gb/s. */
    @Test
    void theRingIsSizedByTheHostLinkNotTheUplinks() throws Exception {
        prepare(leafSpine().set("topology.hostLink.rateGbps", 25), new Themis.Params(2, 1.5, 1000, 0, true, true, Themis.Params.AUTO,
                Themis.Params.DEPARTURE), "l1");
        assertThat(t.rateMbps(t.portsBetween(t.nodeByName("l1"), t.nodeByName("s0"))[0])).isEqualTo(100_000);
        assertThat(tor.rings().capacity()).isEqualTo(10);
    }

    @Test
    void theSeventeenthQueuePairsBlockedNackIsCompensatedWithItsOwnEntropy() throws Exception {
        prepare(leafSpine(), params(Themis.Params.DEPARTURE), "l1");
        for (int flow = 100; flow <= 116; flow++) {
            down(flow, 0, 2, 1);
            assertThat(nack(flow, 2, 0, 0, 1000 + flow)).as("queue pair %d: tPSN 1 took another path than 0", flow).isFalse();
        }
        assertThat(tor.rings().slots()).isEqualTo(17);
        down(116, 0, 2, 4);
        assertThat(nacksSent).hasSize(1);
        assertThat(nacksSent.get(0)[5]).as("entropy").isEqualTo(1116);
        assertThat(nacksSent.get(0)[0]).as("queue pair").isEqualTo(116);
    }

    @Test
    void observedAtArrivalTheRingTakesAPacketAsItJoinsTheNicsQueueAndNotAgainAsItLeaves() throws Exception {
        prepare(leafSpine(), params(Themis.Params.ARRIVAL), "l1");
        Packet p = data(0, 0, 2, 7);
        tor.onEnqueue(p, downPort(2), 0);
        assertThat(tor.rings().contents(0)).containsExactly(7);
        tor.onDequeue(p, downPort(2), 0);
        assertThat(tor.rings().contents(0)).containsExactly(7);
        assertThat(tor.rings().slots()).isEqualTo(1);
    }

    @Test
    void observedAtDepartureTheRingIgnoresAPacketJoiningTheNicsQueue() throws Exception {
        prepare(leafSpine(), params(Themis.Params.DEPARTURE), "l1");
        Packet p = data(0, 0, 2, 0);
        tor.onEnqueue(p, downPort(2), 0);
        assertThat(tor.rings().slots()).isZero();
    }

    @Test
    void dataOfATrafficClassWithAnotherSchemeIsNotRecorded() throws Exception {
        prepare(leafSpine().set("trafficClasses", List.of(Map.of("trafficClass", 1, "loadBalancing", Map.of("type", "ecmp")))),
                params(Themis.Params.DEPARTURE), "l1");
        Packet p = data(0, 0, 2, 0);
        p.trafficClass = 1;
        tor.onDequeue(p, downPort(2), 0);
        assertThat(tor.rings().slots()).isZero();
        p.trafficClass = 0;
        tor.onDequeue(p, downPort(2), 0);
        assertThat(tor.rings().slots()).isEqualTo(1);
    }

    /** k = 4 fat tree, the PathMap reading: a cross-pod queue pair's N is every end-to-end path (2 x 2), a cross-rack one in the pod 2. */
    @Test
    void onAFatTreeTheRingJudgesByEveryEndToEndPathFromTheSourceToR() throws Exception {
        prepare(Lbsim.scenario().fatTree(4).trace(TorBench.lateTrace(dir, 0, 2)).lossRecovery("nic-sr").seed(1), params(Themis.Params.DEPARTURE), "e1");
        down(0, 0, 2, 0);
        down(1, 12, 3, 0);
        assertThat(t.hostSwitch(2)).isEqualTo(t.nodeByName("e1"));
        assertThat(tor.rings().paths(0)).as("from e0, in the pod").isEqualTo(2);
        assertThat(tor.rings().paths(1)).as("from pod 3").isEqualTo(4);
    }
}
