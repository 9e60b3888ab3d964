package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/**
 * Themis on small leaf-spine fabrics over NIC-SR: its spraying, its NACK filter with and without
 * real losses, and its fallback to ECMP when an uplink fails mid-run. Every run is checked for
 * conservation (packets injected = delivered + dropped + consumed, pool without leaks, queues sane).
 */
class ThemisFabricTest {
    @TempDir
    Path dir;

    private static final String RING = "src,dst,bytes,start_ns\n0,4,%1$d,0\n4,1,%1$d,0\n1,5,%1$d,0\n5,0,%1$d,0\n2,6,%1$d,0\n6,3,%1$d,0\n3,7,%1$d,0\n7,2,%1$d,0\n";

    /** Themis Fig. 1's ring (docs: themis-fig1) at 2 MB per flow: 2 leaves x 4 hosts, 4 spines, 100 Gb/s, DCQCN, NIC-SR, PFC (no loss). */
    private ScenarioBuilder ring(long bytes) throws Exception {
        Path trace = dir.resolve("ring-" + bytes + ".csv");
        Files.writeString(trace, String.format(RING, bytes));
        return Lbsim.scenario().leafSpine(4, 2, 4).linkRateGbps(100).linkDelayNs(1000).trace(trace.toString()).set("packets.mtuBytes", 1000)
                .set("switches.pfc.enabled", true).congestionControl("dcqcn").lossRecovery("nic-sr").seed(5);
    }

    private static RunResult checked(PreparedRun run) {
        RunResult r = run.run();
        Invariants.check(run);
        return r;
    }

    @Test
    void withoutLossThemisBlocksEveryReorderingNackSoNothingIsResentAndTheRingFinishesSoonerThanSpraying() throws Exception {
        Themis themis = new Themis(Themis.Params.defaults());
        RunResult t = checked(ring(2_000_000).prepare(themis));
        RunResult spray = checked(ring(2_000_000).scheme("host-spray").prepare());
        Map<String, Long> c = themis.counters();
        String msg = "themis " + c + " CCT " + t.cctPs() + " vs host-spray " + spray.cctPs() + " (" + spray.counters().spuriousRetransmissions() + " spurious)";
        assertThat(t.flowsFinished()).isEqualTo(8);
        assertThat(t.counters().dropped()).isZero();
        assertThat(c.get("themis.nacksSeen")).as(msg).isPositive().isEqualTo(t.counters().nacks());
        assertThat(c.get("themis.nacksBlocked")).as(msg).isEqualTo(c.get("themis.nacksSeen"));
        assertThat(c.get("themis.nacksCompensated")).as(msg).isZero();
        assertThat(t.counters().spuriousRetransmissions()).as(msg).isZero();
        assertThat(spray.counters().spuriousRetransmissions()).as(msg).isPositive();
        assertThat(t.cctPs()).as(msg).isLessThan(spray.cctPs());
        assertThat(c.get("themis.ringEntries")).as("ceil(100 Gb/s x 2 us x 1.5 / 1000 B)").isEqualTo(38);
        assertThat(c.get("themis.ringHighWater")).isEqualTo(38);
        // Eq. 4 at one ToR: 4 paths x 2 B + (20 B + 38 B) x the 4 cross-rack QPs it delivers
        assertThat(c.get("themis.eq4MemoryBytesMaxTor")).isEqualTo(4 * 2 + (20 + 38) * 4);
        for (Map.Entry<String, Long> e : c.entrySet()) {
            assertThat(t.schemeCounters()).as("reported with the run: " + e.getKey()).containsKey(e.getKey());
            assertThat(t.schemeCounters().get(e.getKey()).longValue()).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void theSourceToRDealsAFlowsPacketsOverItsUplinksInTurn() throws Exception {
        Path trace = dir.resolve("cross.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,2,1000000,0\n");
        PreparedRun run = Lbsim.scenario().leafSpine(2, 2, 4).trace(trace.toString()).lossRecovery("nic-sr").seed(3)
                .prepare(new Themis(Themis.Params.defaults()));
        RunResult r = checked(run);
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(r.counters().retransmissions()).isZero();
        Topology t = run.topology();
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int s = 0; s < 4; s++) {
            long tx = run.network().txBytes(t.portsBetween(t.nodeByName("l0"), t.nodeByName("s" + s))[0]);
            min = Math.min(min, tx);
            max = Math.max(max, tx);
        }
        // Eq. 1: PSN i takes uplink (i mod 4 + P_base) mod 4, so the uplinks differ by at most one frame
        assertThat(max - min).as("l0 uplinks " + min + " .. " + max).isLessThanOrEqualTo(4096 + 64);
        assertThat(min).isPositive();
    }

    private PreparedRun oneLostPacket(boolean compensation) throws Exception {
        Path trace = dir.resolve("one.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,3,262144,0\n");
        return Lbsim.scenario().leafSpine(2, 2, 4).linkRateGbps(100).trace(trace.toString()).lossRecovery("nic-sr")
                .set("failures.dropPackets", List.of(Map.of("qp", 0, "psn", 20)))
                .prepare(new Themis(new Themis.Params(2, 1.5, 0, 0, compensation, true, Themis.Params.AUTO, Themis.Params.DEPARTURE)));
    }

    @Test
    void aRealLossBehindAnInvalidNackIsRecoveredByTheToRsCompensationNackNotByATimeout() throws Exception {
        PreparedRun with = oneLostPacket(true);
        RunResult r = checked(with);
        PreparedRun without = oneLostPacket(false);
        RunResult n = checked(without);
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(n.flowsFinished()).isEqualTo(1);
        // PSN 21 (another uplink) triggers the NACK for 20: invalid, blocked; PSN 24 (20's uplink) proves the loss
        assertThat(with.network().consumed(0)).as("the NACK for 20 blocked").isEqualTo(1);
        assertThat(with.network().originated()).as("one compensation NACK").isEqualTo(1);
        assertThat(r.flowResults().get(0).timeouts()).isZero();
        assertThat(r.counters().retransmissions()).isEqualTo(1);
        assertThat(n.flowResults().get(0).timeouts()).as("no compensation: only the RTO resends 20").isPositive();
        assertThat(r.flowResults().get(0).fctPs()).isLessThan(n.flowResults().get(0).fctPs());
    }

    private PreparedRun uplinkFailsAt50Us(Themis themis, double convergenceNs, double maxTimeUs) throws Exception {
        return ring(2_000_000).set("failures.events", List.of(Map.of("atUs", 50, "link", Map.of("a", "l0", "b", "s0"), "action", "down")))
                .set("failures.convergenceDelayNs", convergenceNs).set("limits.maxTimeUs", maxTimeUs).prepare(themis);
    }

    @Test
    void theToRWhoseUplinkFailsFallsBackToEcmpAtOnceAndTheOthersWhenRoutingConverges() throws Exception {
        Themis local = new Themis(Themis.Params.defaults());
        RunResult beforeConvergence = checked(uplinkFailsAt50Us(local, -1, 100));
        assertThat(beforeConvergence.failureEvents()).hasSize(1);
        assertThat(local.counters().get("themis.torsFallenBackToEcmp")).as("only l0 sees its link down").isEqualTo(1);

        Themis converging = new Themis(Themis.Params.defaults());
        RunResult r = checked(uplinkFailsAt50Us(converging, 20_000, 100_000));
        assertThat(converging.counters().get("themis.torsFallenBackToEcmp")).as("both ToRs, once routing converged").isEqualTo(2);
        assertThat(r.flowsFinished()).as("every flow finishes").isEqualTo(8);
        assertThat(r.failureEvents().get(0).lostAtEvent() + r.counters().linkLoss()).isPositive();
    }

    /** A 4:1 incast into h4 (l0's four hosts, 2 MB each, PFC: nothing is lost): the queue from l1 to h4 grows deep. */
    private PreparedRun incast(String observeDataAt, int ringEntries) throws Exception {
        Path trace = dir.resolve("incast.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,4,2000000,0\n1,4,2000000,0\n2,4,2000000,0\n3,4,2000000,0\n");
        Themis.Params d = Themis.Params.defaults();
        return Lbsim.scenario().leafSpine(4, 2, 4).linkRateGbps(100).linkDelayNs(1000).trace(trace.toString()).set("packets.mtuBytes", 1000)
                .set("switches.pfc.enabled", true).congestionControl("dcqcn").lossRecovery("nic-sr").seed(5)
                .prepare(new Themis(new Themis.Params(d.lastHopRttUs(), d.capacityFactor(), d.mtuBytes(), ringEntries, d.compensation(), d.ringClearsBlocked(),
                        d.switchHash(), observeDataAt)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1024})
    void behindADeepQueueToTheNicTheDefaultFiresNoFalseCompensationNackAndTheSplitReadingDoes(int ringEntries) throws Exception {
        assertThat(Themis.Params.defaults().observeDataAt()).isEqualTo(Themis.Params.DEPARTURE);
        PreparedRun leaving = incast(Themis.Params.DEPARTURE, ringEntries);
        RunResult d = checked(leaving);
        PreparedRun split = incast(Themis.Params.SPLIT, ringEntries);
        RunResult s = checked(split);
        assertThat(d.flowsFinished()).isEqualTo(4);
        assertThat(s.flowsFinished()).isEqualTo(4);
        assertThat(d.counters().dropped()).isZero();
        assertThat(s.counters().dropped()).isZero();
        assertThat(d.counters().nacks()).as("the NIC sees reordering").isPositive();
        // ring and compensation at departure: a BePSN packet still queued for the NIC is not yet arrived, and the later
        // packets of its PSN class leave after it (FIFO), so nothing lost means no compensation NACK (3.4)
        assertThat(leaving.network().originated()).as("compensation NACKs, both at departure").isZero();
        assertThat(d.counters().retransmissions()).isZero();
        // the ring at departure, compensation at arrival: the later packet arrives while the BePSN packet still waits
        assertThat(split.network().originated()).as("false compensation NACKs, split reading").isPositive();
        assertThat(s.counters().retransmissions()).as("the NIC resends what was only queued").isPositive();
    }

    @Test
    void onALeafSpineTheDefaultIsTheToRsEq1ChoiceSoAutoAndMix64RunAlike() throws Exception {
        Themis.Params d = Themis.Params.defaults();
        assertThat(d.switchHash()).isEqualTo(Themis.Params.AUTO);
        RunResult auto = checked(ring(500_000).prepare(new Themis(d)));
        RunResult mix = checked(ring(500_000).prepare(new Themis(d.with(Themis.Params.MIX64, d.observeDataAt()))));
        RunResult crc = checked(ring(500_000).prepare(new Themis(d.with(Themis.Params.CRC32, d.observeDataAt()))));
        assertThat(auto.cctPs()).isEqualTo(mix.cctPs());
        assertThat(auto.counters().nacks()).isEqualTo(mix.counters().nacks());
        assertThat(crc.cctPs()).as("crc32 rewrites source ports, so its packets hash differently").isNotEqualTo(auto.cctPs());
    }

    @Test
    void sameSeedSameRun() throws Exception {
        RunResult a = checked(ring(500_000).prepare(new Themis(Themis.Params.defaults())));
        RunResult b = checked(ring(500_000).prepare(new Themis(Themis.Params.defaults())));
        assertThat(a.cctPs()).isEqualTo(b.cctPs());
        assertThat(a.counters().nacks()).isEqualTo(b.counters().nacks());
    }
}
