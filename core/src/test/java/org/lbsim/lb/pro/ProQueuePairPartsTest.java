package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.QpParts;
import org.lbsim.testing.Packets;
import org.lbsim.topology.Topology;

/**
 * What the scheme {@code pro} builds from its loadBalancing settings: the parts of one queue pair (made
 * here by hand on a prepared run's fabric, as the run makes them), its path sets, the PathID rules of
 * its switches and the counters it reports.
 */
class ProQueuePairPartsTest {
    /** 200 Gb/s, 8 us base RTT, 1000-byte packets: a BDP of 200 packets. */
    private static final long RATE_MBPS = 200_000;
    private static final long RTT = Time.us(8);
    private final PacketPool pool = new PacketPool();

    /** The scheme as ProRunTest's fabric prepares it (2 ToRs x 4 Aggrs, 2 parallel links: 16 paths), with {@code settings} under loadBalancing. */
    private static PreparedRun prepared(Pro[] pro, Object... settings) {
        return ProRunTest.prepare(withSettings(ProRunTest.fabric(1), settings), pro);
    }

    private static ScenarioBuilder withSettings(ScenarioBuilder b, Object... settings) {
        for (int i = 0; i < settings.length; i += 2) {
            b = b.set("loadBalancing." + settings[i], settings[i + 1]);
        }
        return b;
    }

    private static QpContext qp(int src, int dst, int packets, long lineRateMbps) {
        return new QpContext(0, src, dst, packets * 1000L, packets, 1000, 62, 20, lineRateMbps, RTT, lineRateMbps);
    }

    private static HostContext host(PreparedRun run, QpContext qp) {
        return new HostContext(qp, run.topology(), null, new SplittableRandom(qp.src()), run.simulator());
    }

    private Packet ack(int psn) {
        return Packets.ack(pool, psn, 0);
    }

    @Test
    void mprdmasBitmapFromTheBdpIsTheSmallestPowerOfTwoThatHoldsIt() {
        Pro[] pro = new Pro[1];
        prepared(pro, "recovery", "mprdma", "mprdmaBitmapPackets", 0);
        assertThat(pro[0].mprdmaBitmap(qp(0, 4, 10, RATE_MBPS))).as("BDP 200 packets").isEqualTo(256);
        assertThat(pro[0].mprdmaBitmap(qp(0, 4, 10, 64_000))).as("BDP 64 packets").isEqualTo(64);
        assertThat(pro[0].mprdmaBitmap(qp(0, 4, 10, 65_000))).as("BDP 65 packets").isEqualTo(128);
        Pro[] given = new Pro[1];
        prepared(given, "recovery", "mprdma", "mprdmaBitmapPackets", 8, "mprdmaDeltaPackets", 4);
        assertThat(given[0].mprdmaBitmap(qp(0, 4, 10, RATE_MBPS))).isEqualTo(8);
    }

    @Test
    void theOutOfOrderWindowStartsAtTheBdpUnlessGiven() {
        Pro[] pro = new Pro[1];
        prepared(pro);
        assertThat(pro[0].initialWindow(qp(0, 4, 10, RATE_MBPS))).isEqualTo(200);
        Pro[] given = new Pro[1];
        prepared(given, "initialWindow", 7);
        assertThat(given[0].initialWindow(qp(0, 4, 10, RATE_MBPS))).isEqualTo(7);
    }

    /** With mprdmaDeltaPackets 0, Delta is L / 2: a hole is lost once snd_ooh is more than L / 2 above it. */
    @Test
    void deltaZeroMeansHalfTheBitmap() {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepared(pro, "recovery", "mprdma", "mprdmaBitmapPackets", 16, "mprdmaDeltaPackets", 0);
        QpParts parts = pro[0].queuePairScheme(null).create(host(run, qp(0, 4, 100, RATE_MBPS)));
        MprdmaSender s = (MprdmaSender) parts.recovery();
        int sent = 0;
        for (int psn = s.nextPsn(0); psn >= 0; psn = s.nextPsn(0)) {
            parts.entropy().entropyFor(psn, s.isRetransmission(psn));
            s.onSent(psn, 0);
            sent++;
        }
        assertThat(sent).as("the bitmap of 16 gates the sender").isEqualTo(16);
        for (int psn = 1; psn <= 8; psn++) {
            s.onAck(ack(psn), Time.us(9));
        }
        assertThat(s.inRecovery()).as("PSN 0 is 8 = L / 2 behind snd_ooh: reordering").isFalse();
        s.onAck(ack(9), Time.us(9));
        assertThat(s.inRecovery()).as("9 behind: lost").isTrue();
    }

    @Test
    void theAckClockedWindowStartsAtTheBdpUnlessGiven() {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepared(pro, "recovery", "mprdma", "mprdmaWindow", "ack-clocked");
        MprdmaSender bdp = (MprdmaSender) pro[0].queuePairScheme(null).create(host(run, qp(0, 4, 100, RATE_MBPS))).recovery();
        assertThat(bdp.window().cwnd()).isEqualTo(200.0);
        Pro[] given = new Pro[1];
        PreparedRun run2 = prepared(given, "recovery", "mprdma", "mprdmaWindow", "ack-clocked", "mprdmaInitialWindow", 5);
        MprdmaSender five = (MprdmaSender) given[0].queuePairScheme(null).create(host(run2, qp(0, 4, 100, RATE_MBPS))).recovery();
        assertThat(five.window().cwnd()).isEqualTo(5.0);
        assertThat(five.window().released()).isEqualTo(5);
    }

    /** The scheme's entropy policy alone (as a run that takes its loss recovery elsewhere uses it): PRO's round robin over the path set. */
    @Test
    void theEntropyPolicyAloneSpraysOverThePathSetAndKeepsLocalQueuePairsOnPathIdZero() {
        Pro[] pro = new Pro[1];
        PreparedRun run = prepared(pro, "roundRobinStart", "zero");
        int[] pathIdOfIndex = new ProFabric(run.topology()).pathIdOfIndex;
        EntropyPolicy cross = pro[0].newEntropyPolicy(host(run, qp(0, 4, 100, RATE_MBPS)));
        for (int i = 0; i < 17; i++) {
            assertThat(cross.entropyFor(i, false)).as("packet %d", i).isEqualTo(pathIdOfIndex[i % 16]);
        }
        EntropyPolicy local = pro[0].newEntropyPolicy(host(run, qp(0, 1, 100, RATE_MBPS)));
        for (int i = 0; i < 3; i++) {
            assertThat(local.entropyFor(i, false)).isZero();
        }
    }

    /** 3 ToRs of 2 hosts: host 0 sends to ToR 1 (hosts 2, 3) and ToR 2 (hosts 4, 5). */
    @Test
    void aPathSetIsPerNicAndDestinationToROrPerNicAloneWithoutDestinationAwareness() {
        for (boolean aware : new boolean[] {true, false}) {
            Pro[] pro = new Pro[1];
            PreparedRun run = ProRunTest.prepare(Lbsim.scenario().leafSpine(2, 3, 2).scheme("pro").set("loadBalancing.destinationAware", aware), pro);
            PathSet toTor1 = pro[0].pathSet(host(run, qp(0, 2, 10, RATE_MBPS)));
            assertThat(toTor1.paths()).as("2 uplinks, one link each").isEqualTo(2);
            assertThat(pro[0].pathSet(host(run, qp(0, 3, 10, RATE_MBPS)))).as("the same ToR").isSameAs(toTor1);
            PathSet toTor2 = pro[0].pathSet(host(run, qp(0, 4, 10, RATE_MBPS)));
            if (aware) {
                assertThat(toTor2).isNotSameAs(toTor1);
            } else {
                assertThat(toTor2).as("one set for every destination").isSameAs(toTor1);
            }
            assertThat(pro[0].pathSet(host(run, qp(1, 2, 10, RATE_MBPS)))).as("another NIC").isNotSameAs(toTor1);
        }
    }

    /** PRO V: a ToR's rules cover the hosts below and above its own; the first and last ToR have hosts on one side only. */
    @Test
    void eachToRHasOneRulePerUplinkForEachSideOfItsOwnHostsThatHasHosts() {
        PreparedRun run = ProRunTest.prepare(Lbsim.scenario().leafSpine(2, 3, 2).scheme("pro"), new Pro[1]);
        Topology t = run.topology();
        assertThat(run.network().switchAt(t.nodeByName("l0")).policyTable().size()).as("hosts 2..5 above").isEqualTo(2);
        assertThat(run.network().switchAt(t.nodeByName("l1")).policyTable().size()).as("hosts 0..1 below, 4..5 above").isEqualTo(4);
        assertThat(run.network().switchAt(t.nodeByName("l2")).policyTable().size()).as("hosts 0..3 below").isEqualTo(2);
    }

    private static Map<String, Long> proCounters(RunResult r) {
        Map<String, Long> out = new TreeMap<>();
        r.schemeCounters().forEach((k, v) -> {
            if (k.startsWith("pro.")) {
                out.put(k, v.longValue());
            }
        });
        return out;
    }

    @Test
    void aRunReportsEveryCounterOfItsRecoveryEachTheSchemesTotal() throws Exception {
        String trace = ProRunTest.crossTrace(1_000_000).toString();
        List<Map<String, Object>> drop = List.of(Map.of("qp", 0, "psn", 40));
        Pro[] cautious = new Pro[1];
        RunResult c = ProRunTest.prepare(ProRunTest.fabric(2).trace(trace).set("failures.dropPackets", drop), cautious).run();
        Map<String, Long> cc = proCounters(c);
        assertThat(cc.keySet()).containsExactlyInAnyOrder("pro.nacks", "pro.repeats", "pro.receiverTimeouts", "pro.senderTimeouts",
                "pro.pathIdForwarded", "pro.arFallbacks", "pro.pathSets");
        assertThat(cc).containsEntry("pro.nacks", cautious[0].nacks()).containsEntry("pro.repeats", cautious[0].repeats())
                .containsEntry("pro.receiverTimeouts", cautious[0].receiverTimeouts()).containsEntry("pro.senderTimeouts", cautious[0].senderTimeouts())
                .containsEntry("pro.pathIdForwarded", cautious[0].policyHits()).containsEntry("pro.arFallbacks", cautious[0].policyFallbacks())
                .containsEntry("pro.pathSets", 8L).containsEntry("pro.nacks", 1L);

        Pro[] mprdma = new Pro[1];
        RunResult m = ProRunTest.prepare(withSettings(ProRunTest.fabric(2).trace(trace).set("failures.dropPackets", drop), "recovery", "mprdma",
                "mprdmaBeyondBitmap", "drop", "mprdmaWindow", "ack-clocked"), mprdma).run();
        assertThat(proCounters(m).keySet()).containsExactlyInAnyOrder("pro.nacks", "pro.repeats", "pro.receiverTimeouts", "pro.senderTimeouts",
                "pro.pathIdForwarded", "pro.arFallbacks", "pro.pathSets", "pro.mprdmaRecoveries", "pro.mprdmaBitmapStalls", "pro.mprdmaSlowMarks",
                "pro.mprdmaRepaths", "pro.mprdmaBitmapDrops", "pro.mprdmaEcnCuts", "pro.mprdmaPrunedAcks");
        assertThat(proCounters(m)).containsEntry("pro.pathSets", 8L);
    }
}
