package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.ReceiverQp;
import org.lbsim.testing.LossRecoveryDrive;

/** PRO's parts called by their callers: what each unit test checks alone also happens inside a run. */
class ProWiringTest {
    @TempDir
    Path dir;

    @Test
    void everyRepeatedArrivalWidensTheReceiversWindowByOne() throws Exception {
        // an RTO shorter than the round trip resends data that was never lost: the receiver sees it twice (Alg. 2, PKT_REPEAT)
        Path trace = dir.resolve("one.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,1,24576,0\n");
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(Lbsim.scenario().leafSpine(2, 1, 1).linkRateGbps(100).linkDelayNs(1000).scheme("pro")
                .set("loadBalancing.rtoUs", 1).set("loadBalancing.initialWindow", 4).trace(trace.toString()), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(1);
        ReceiverQp rx = run.transport().receiverOf(0);
        long duplicates = rx.duplicates();
        assertThat(duplicates).as("repeated arrivals").isPositive();
        assertThat(((ProReceiver) rx.policy()).window()).isEqualTo(4 + duplicates);
        assertThat(r.schemeCounters().get("pro.repeats").longValue()).isEqualTo(duplicates);
        assertThat(pro[0].repeats()).isEqualTo(duplicates);
        assertThat(pro[0].params().rtoUs()).isEqualTo(1.0);
        assertThat(pro[0].params().initialWindow()).isEqualTo(4);
        assertThat(Invariants.violations(run)).isEmpty();
    }

    private static final QpContext QP = LossRecoveryDrive.qp(10_000);
    private static final int[] PATH_IDS = {0, 1, 2, 3, 4, 5, 6, 7};
    private final PacketPool pool = new PacketPool();

    private Packet answer(byte kind, int psn, int cumAck) {
        Packet p = pool.acquire();
        p.kind = kind;
        p.psn = psn;
        p.cumAck = cumAck;
        return p;
    }

    /** Sends the whole message, each packet taking its path from {@code e} as the host stack does. */
    private static void sendAll(org.lbsim.spi.LossRecovery s, org.lbsim.spi.EntropyPolicy e) {
        for (int psn = s.nextPsn(0); psn >= 0; psn = s.nextPsn(0)) {
            e.entropyFor(psn, s.isRetransmission(psn));
            s.onSent(psn, 0);
        }
    }

    @Test
    void aCautiousQueuePairLeavesItsPathSetWhenItsLastAckOrNackArrives() {
        PathSet set = new PathSet(8, 1, true);
        ProEntropy first = new ProEntropy(set, PATH_IDS);
        ProEntropy second = new ProEntropy(set, PATH_IDS);
        ProSender byAck = new ProSender(QP, Time.us(80), true, first, new ProCounters());
        ProSender byNack = new ProSender(QP, Time.us(80), true, second, new ProCounters());
        sendAll(byAck, first);
        sendAll(byNack, second);
        assertThat(set.active()).as("P: both queue pairs sending").isEqualTo(2);
        byAck.onAck(answer(Packet.ACK, 8, 9), Time.us(8));
        assertThat(set.active()).as("PSN 9 is not acknowledged yet").isEqualTo(2);
        byAck.onAck(answer(Packet.ACK, 9, 10), Time.us(9));
        assertThat(byAck.complete()).isTrue();
        assertThat(set.active()).isEqualTo(1);
        // the last PSN is acknowledged by the cumulative ack of a NACK for a PSN it already holds
        byNack.onNack(answer(Packet.NACK, 3, 10), Time.us(9));
        assertThat(byNack.complete()).isTrue();
        assertThat(set.active()).isZero();
    }

    @Test
    void anMprdmaQueuePairLeavesItsPathSetWhenItsLastAckArrives() {
        PathSet set = new PathSet(8, 1, true);
        int[] indexOfPathId = new int[1 << 12];
        java.util.Arrays.fill(indexOfPathId, -1);
        for (int i = 0; i < PATH_IDS.length; i++) {
            indexOfPathId[PATH_IDS[i]] = i;
        }
        ProCounters counters = new ProCounters();
        MprdmaEntropy e = new MprdmaEntropy(set, PATH_IDS, indexOfPathId, new java.util.SplittableRandom(1), counters, true);
        MprdmaSender s = new MprdmaSender(QP, Time.us(80), true, false, 64, 8, false, e, counters);
        sendAll(s, e);
        assertThat(set.active()).isEqualTo(1);
        s.onAck(answer(Packet.ACK, 9, 10), Time.us(9));
        assertThat(s.complete()).isTrue();
        assertThat(set.active()).isZero();
    }

    @Test
    void onATwoTierFabricTheSpineSendsEachPacketDownTheParallelLinkItsPathIdNames() throws Exception {
        // PRO V, Fig. 6: the PathID's high 6 bits name the Aggr (here spine) downlink to the destination ToR; with 4 parallel
        // links from s0 to l1, one flow's 64 packets take the 4 downlinks in turn, each exactly where its PathID says
        Path trace = dir.resolve("cross.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,2,262144,0\n");
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(Lbsim.scenario().leafSpine(2, 2, 1).set("topology.linksPerLeafSpine", 4).linkRateGbps(100)
                .scheme("pro").trace(trace.toString()), pro);
        org.lbsim.topology.Topology t = run.topology();
        int s0 = t.nodeByName("s0");
        int[] down = new ProFabric(t).downlinksTo(s0, t.nodeByName("l1"));
        assertThat(down).hasSize(4);
        int[] perDownlink = new int[4];
        int[] misrouted = new int[1];
        run.network().switchAt(s0).setEgressStage(new org.lbsim.net.EgressStage() {
            @Override
            public void onEnqueue(Packet p, int port, long queueBytes) {
                if (p.kind == Packet.DATA) {
                    int d = PathIds.aggrDownlink(p.entropy);
                    perDownlink[d]++;
                    if (port != down[d]) {
                        misrouted[0]++;
                    }
                }
            }

            @Override
            public void onDequeue(Packet p, int port, long queueBytes) {
            }
        });
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(misrouted[0]).as("packets that left s0 on another downlink than their PathID's").isZero();
        assertThat(perDownlink).containsExactly(16, 16, 16, 16);
        assertThat(Invariants.violations(run)).isEmpty();
    }
    @Test
    void withOneLinkFromEachSpineToEachLeafOnlyTheSourceToRForwardsByPathId() throws Exception {
        // PRO V: the Aggr's rules choose among parallel downlinks; with one there is nothing to choose, so the only PathID
        // rules met are the ToRs' uplink rules: one per data packet (at l0) and one per ACK (at l1), no loss here
        Path trace = dir.resolve("cross.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,2,262144,0\n");
        Pro[] pro = new Pro[1];
        PreparedRun run = ProRunTest.prepare(Lbsim.scenario().leafSpine(2, 2, 1).linkRateGbps(100).scheme("pro").trace(trace.toString()), pro);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(r.flowResults().get(0).packetsSent()).isEqualTo(64);
        assertThat(pro[0].policyHits()).isEqualTo(2 * 64);
    }
}
