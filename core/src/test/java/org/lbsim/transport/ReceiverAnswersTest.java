package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.Dcqcn;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketQueue;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.TestScenarios;

/**
 * What a receiver answers, fed data by hand on a built run of {@link HostStackRingTest} (queue pair 0: host 0 to
 * host 1, 4 packets of 4096 B, NIC selective repeat: out-of-order data kept, one NACK per expected PSN): every
 * field of each answer, CNPs at most once per interval, a trimmed header's NACK standing for the next NACK of
 * that PSN, and its timer as the host counts it.
 */
class ReceiverAnswersTest {
    private static final int MTU = PacketSpec.defaults().mtuBytes();

    @TempDir
    Path dir;

    private Transport transport(ComponentSpec cc) {
        PreparedRun run = HostStackRingTest.built(dir, cc, NicSpec.defaults(), false);
        return run.transport();
    }

    /** Data PSN {@code psn} of queue pair 0, as its sender builds it, stamped as the wire would. */
    private static Packet data(Transport t, int psn, int entropy, long sentPs, long nicRxPs, boolean ecn) {
        Packet p = t.senderOf(0).newDuplicate(psn);
        p.entropy = entropy;
        p.sentPs = sentPs;
        p.nicRxPs = nicRxPs;
        p.ecnMarked = ecn;
        return p;
    }

    /** Everything the receiver's host (host 1) has queued to send, in order. */
    private static List<Packet> drain(Transport t) {
        return drain(t, 1);
    }

    /** Everything host {@code host} has queued to send, in order. */
    private static List<Packet> drain(Transport t, int host) {
        PacketQueue q = t.stack(host).controlQueue();
        List<Packet> out = new ArrayList<>();
        while (!q.isEmpty()) {
            out.add(q.poll());
        }
        return out;
    }

    @Test
    void everyAnswerCarriesTheExpectedPsnTheLatestDataAndHowMuchArrived() {
        Transport t = transport(TestScenarios.lineRate());
        ReceiverQueuePair rx = t.receiverOf(0);

        rx.onData(data(t, 1, 11, 100, 900, true), 1_000);
        List<Packet> nack = drain(t);
        assertThat(nack).hasSize(1);
        Packet n = nack.get(0);
        assertThat(n.kind).isEqualTo(Packet.NACK);
        assertThat(new long[] {n.flow, n.src, n.dst, n.psn, n.cumAck, n.sackBits, n.receivedBytes, n.echoSentPs, n.echoNicRxPs, n.entropy})
                .containsExactly(0, 1, 0, 0, 0, 0, MTU, 100, 900, 11);
        assertThat(n.sizeBytes).isEqualTo(PacketSpec.defaults().ackBytes());
        assertThat(n.ecnEcho).isTrue();
        assertThat(n.receiverComplete).isFalse();
        assertThat(rx.heldOutOfOrder()).isEqualTo(1);
        assertThat(rx.holds(1)).isTrue();
        assertThat(rx.holds(0)).isFalse();
        assertThat(rx.holds(2)).isFalse();

        rx.onData(data(t, 0, 12, 200, 1_900, false), 2_000);
        Packet ack = drain(t).get(0);
        assertThat(ack.kind).isEqualTo(Packet.ACK);
        assertThat(new long[] {ack.psn, ack.cumAck, ack.receivedBytes, ack.echoSentPs, ack.echoNicRxPs, ack.entropy})
                .containsExactly(0, 2, 2 * MTU, 200, 1_900, 12);
        assertThat(ack.ecnEcho).isFalse();
        assertThat(rx.expectedPsn()).isEqualTo(2);
        assertThat(rx.heldOutOfOrder()).isZero();
        assertThat(rx.holds(0)).isTrue();

        rx.onData(data(t, 3, 13, 300, 2_900, false), 3_000);
        assertThat(drain(t)).extracting(p -> p.kind, p -> p.psn).containsExactly(org.assertj.core.groups.Tuple.tuple(Packet.NACK, 2));
        rx.sack();
        Packet sack = drain(t).get(0);
        assertThat(sack.sackBits).as("PSN 3, one past the expected PSN 2, is held").isEqualTo(1L);
        assertThat(sack.psn).as("the latest data").isEqualTo(3);

        rx.onData(data(t, 1, 14, 400, 3_900, false), 4_000);
        assertThat(rx.duplicates()).isEqualTo(1);
        assertThat(drain(t)).extracting(p -> p.kind, p -> p.psn, p -> p.cumAck)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Packet.ACK, 1, 2));

        assertThat(rx.completedPs()).isEqualTo(-1);
        rx.onData(data(t, 2, 15, 500, 4_900, false), 5_000);
        Packet last = drain(t).get(0);
        assertThat(rx.completedPs()).as("the last byte arrived").isEqualTo(5_000);
        assertThat(last.receiverComplete).isTrue();
        assertThat(new long[] {last.psn, last.cumAck, last.receivedBytes}).containsExactly(2, 4, 4 * MTU);
        assertThat(rx.receivedPackets()).isEqualTo(5);
        assertThat(rx.nacks()).isEqualTo(2);
        assertThat(rx.cnps()).as("no CNPs without a notification interval").isZero();
        assertThat(t.nacksSent()).isEqualTo(2);
        assertThat(t.outOfOrder().samples()).isEqualTo(4);
        assertThat(t.outOfOrder().arrivals()).as("PSN 1 and PSN 3 ahead of the expected PSN").isEqualTo(2);
    }

    @Test
    void aSelectiveAckMapStartsOnePastTheExpectedPsn() {
        Transport t = transport(TestScenarios.lineRate());
        ReceiverQueuePair rx = t.receiverOf(0);
        rx.onData(data(t, 3, 0, 0, 0, false), 0);
        drain(t);
        rx.sack();
        assertThat(drain(t).get(0).sackBits).as("held PSN 3 is 2 past expected PSN 0, plus one").isEqualTo(1L << 2);
    }

    @Test
    void aTrimmedHeaderIsNackedForItsOwnPsnAndThatNackStandsForTheNextOneOfTheExpectedPsn() {
        Transport t = transport(TestScenarios.lineRate());
        ReceiverQueuePair rx = t.receiverOf(0);
        Packet header = data(t, 0, 0, 0, 0, false);
        header.headerOnly = true;
        rx.onData(header, 10);
        assertThat(rx.trimmedHeaders()).isEqualTo(1);
        assertThat(rx.receivedPackets()).as("a header is no data").isZero();
        assertThat(drain(t)).extracting(p -> p.kind, p -> p.psn).containsExactly(org.assertj.core.groups.Tuple.tuple(Packet.NACK, 0));

        rx.onData(data(t, 1, 0, 0, 0, false), 20);
        assertThat(drain(t)).as("PSN 0 was NACKed for its header already").isEmpty();
        assertThat(rx.nacks()).isEqualTo(1);
        rx.nack();
        assertThat(drain(t)).as("only once").extracting(p -> p.kind, p -> p.psn)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Packet.NACK, 0));
        assertThat(rx.nacks()).isEqualTo(2);

        rx.onData(data(t, 0, 0, 0, 0, false), 30);
        drain(t);
        Packet again = data(t, 1, 0, 0, 0, false);
        again.headerOnly = true;
        rx.onData(again, 40);
        assertThat(drain(t)).as("a header of a PSN held already is acknowledged").extracting(p -> p.kind, p -> p.cumAck)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Packet.ACK, 2));
    }

    @Test
    void ecnMarkedDataIsAnsweredWithACnpAtMostOncePerIntervalAndTheNextMessageGoesOnWithThatPacing() {
        Dcqcn.Params dcqcn = Dcqcn.Params.defaults();
        long interval = Math.max(1, Time.us(dcqcn.cnpIntervalUs()));
        Transport t = transport(new ComponentSpec("dcqcn", dcqcn));
        ReceiverQueuePair rx = t.receiverOf(0);
        rx.onData(data(t, 0, 0, 0, 0, true), 1_000);
        rx.onData(data(t, 1, 0, 0, 0, true), 1_000 + interval - 1);
        rx.onData(data(t, 2, 0, 0, 0, false), 1_000 + interval);
        rx.onData(data(t, 3, 0, 0, 0, true), 1_000 + interval);
        assertThat(drain(t)).extracting(p -> p.kind, p -> p.psn).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Packet.CNP, 0), org.assertj.core.groups.Tuple.tuple(Packet.ACK, 0),
                org.assertj.core.groups.Tuple.tuple(Packet.ACK, 1), org.assertj.core.groups.Tuple.tuple(Packet.ACK, 2),
                org.assertj.core.groups.Tuple.tuple(Packet.CNP, 3), org.assertj.core.groups.Tuple.tuple(Packet.ACK, 3));
        assertThat(rx.cnps()).isEqualTo(2);
        assertThat(t.cnpsSent()).isEqualTo(2);

        ReceiverQueuePair next = t.receiverOf(3); // host 0 to host 1 too
        next.continueFrom(rx);
        next.onData(t.senderOf(3).newDuplicate(0), 1_000 + 2 * interval - 1);
        Packet marked = t.senderOf(3).newDuplicate(1);
        marked.ecnMarked = true;
        next.onData(marked, 1_000 + 2 * interval - 1);
        assertThat(next.cnps()).as("within the interval of the previous message's CNP").isZero();
        Packet later = t.senderOf(3).newDuplicate(2);
        later.ecnMarked = true;
        next.onData(later, 1_000 + 2 * interval);
        assertThat(next.cnps()).isEqualTo(1);
    }

    @Test
    void theHostCountsAReceiverTimerUntilItIsCancelledOrFires() {
        // after the run, host 2 (which only receives) has nothing left to do: only the timers set here count
        CheckedRun run = CheckedRun.of(HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), dir,
                r -> r.transport().keepAllQueuePairs());
        Transport t = run.prepared().transport();
        long t0 = run.prepared().simulator().nowPs();
        ReceiverQueuePair rx = t.receiverOf(1); // host 0 to host 2
        HostStack host = t.stack(2);
        assertThat(host.idleThrough(Long.MAX_VALUE - 1)).isTrue();
        rx.setTimer(t0 + 500);
        assertThat(rx.timerPs()).isEqualTo(t0 + 500);
        assertThat(host.idleThrough(t0 + 499)).isTrue();
        assertThat(host.idleThrough(t0 + 500)).isFalse();
        rx.setTimer(t0 + 300);
        assertThat(host.idleThrough(t0 + 299)).isTrue();
        assertThat(host.idleThrough(t0 + 300)).isFalse();
        rx.setTimer(t0 + 800);
        assertThat(host.idleThrough(t0 + 300)).as("the floor stays a lower bound while a timer is pending").isFalse();
        rx.cancelTimer();
        assertThat(rx.timerPs()).isEqualTo(Long.MAX_VALUE);
        assertThat(host.idleThrough(Long.MAX_VALUE - 1)).as("no timer left").isTrue();
        rx.cancelTimer();
        assertThat(host.idleThrough(Long.MAX_VALUE - 1)).isTrue();

        rx.setTimer(t0 + 700);
        t.receiverOf(4).setTimer(t0 + 900); // host 0 to host 2 as well
        rx.onTimer(0);
        assertThat(rx.timerPs()).as("a stale wake-up changes nothing").isEqualTo(t0 + 700);
        t.receiverOf(4).cancelTimer();
        assertThat(host.idleThrough(t0 + 800)).as("one timer still pending").isFalse();
        rx.cancelTimer();
        assertThat(host.idleThrough(t0 + 800)).isTrue();
        host.controlQueue().add(t.senderOf(1).newControl(Packet.ACK));
        assertThat(host.idleThrough(t0 + 800)).as("control waiting").isFalse();
        assertThat(host.controlBacklog()).isEqualTo(1);
        run.prepared().network().pool().release(host.controlQueue().poll());
    }

    @Test
    void aReceiverThatHeldTheWholeMessageAtTimeZeroSaysSoInItsAnswer() {
        Transport t = transport(TestScenarios.lineRate());
        ReceiverQueuePair rx = t.receiverOf(0);
        for (int psn = 0; psn < 4; psn++) {
            rx.onData(data(t, psn, 0, 0, 0, false), 0);
        }
        List<Packet> acks = drain(t);
        assertThat(rx.completedPs()).isZero();
        assertThat(acks).extracting(p -> p.receiverComplete).containsExactly(false, false, false, true);
        rx.onData(data(t, 4, 0, 0, 0, false), 1_000); // a symbol past the message, as an erasure sender's
        assertThat(rx.completedPs()).as("completion is when the message was first held").isZero();
    }

    @Test
    void aLoadBalancersAckPolicyLabelsEveryAnswer() {
        // host DR rotates host 2's answers to host 0 over the two spines
        Transport t = org.lbsim.sim.Simulation.prepare(HostStackRingTest.scenario(dir, "host-dr", TestScenarios.lineRate(), NicSpec.defaults()), dir)
                .transport();
        ReceiverQueuePair rx = t.receiverOf(1); // host 0 to host 2
        for (int psn = 0; psn < 4; psn++) {
            Packet d = t.senderOf(1).newDuplicate(psn);
            rx.onData(d, 1_000 * (psn + 1));
        }
        List<Packet> acks = drain(t, 2);
        assertThat(acks).hasSize(4);
        assertThat(acks.get(0).pathId).isNotEqualTo(acks.get(1).pathId);
        assertThat(acks).extracting(p -> p.pathId)
                .containsExactly(acks.get(0).pathId, acks.get(1).pathId, acks.get(0).pathId, acks.get(1).pathId);
    }

    @Test
    void theReceiversCountWhatTheyHoldOutOfOrderAndHowFarAheadItArrived() {
        Transport t = transport(TestScenarios.lineRate());
        ReceiverQueuePair rx = t.receiverOf(0);
        OutOfOrderStats ooo = t.outOfOrder();
        rx.onData(data(t, 0, 0, 0, 0, false), 1_000);
        rx.onData(data(t, 3, 0, 0, 0, false), 2_000);
        assertThat(ooo.maxDegree()).as("PSN 3 two ahead of the expected PSN 1").isEqualTo(2);
        assertThat(ooo.heldNow()).isEqualTo(1);
        rx.onData(data(t, 2, 0, 0, 0, false), 3_000);
        assertThat(ooo.heldNow()).isEqualTo(2);
        assertThat(ooo.heldNow(0)).as("all of traffic class 0").isEqualTo(2);
        assertThat(ooo.maxHeld()).as("as each arrival found it").isEqualTo(1);
        rx.onData(data(t, 1, 0, 0, 0, false), 4_000);
        assertThat(rx.expectedPsn()).isEqualTo(4);
        assertThat(ooo.heldNow()).as("PSN 1 released PSNs 2 and 3").isZero();
        assertThat(ooo.heldNow(0)).isZero();
        assertThat(ooo.maxHeld()).isEqualTo(2);
        assertThat(ooo.log2Histogram()).startsWith(2, 1, 1, 0);
        assertThat(ooo.samples()).isEqualTo(4);
    }

    @Test
    void aReceiverTimerFiresOnlyAsLastSetAndThenTheHostCountsItNoMore() {
        CheckedRun run = CheckedRun.of(HostStackRingTest.scenario(dir, TestScenarios.lineRate(), NicSpec.defaults()), dir,
                r -> r.transport().keepAllQueuePairs());
        Transport t = run.prepared().transport();
        org.lbsim.kernel.Simulator sim = run.prepared().simulator();
        long t0 = sim.nowPs();
        ReceiverQueuePair rx = t.receiverOf(1); // host 0 to host 2
        assertThat(rx.qp()).isEqualTo(1);
        assertThat(rx.policy()).isInstanceOf(NicSelectiveRepeatReceiver.class);
        HostStack host = t.stack(2);
        rx.setTimer(t0 + 500);
        rx.cancelTimer();
        rx.setTimer(t0 + 900);
        sim.run(t0 + 899);
        assertThat(rx.timerPs()).as("the cancelled wake-up is stale").isEqualTo(t0 + 900);
        assertThat(host.idleThrough(t0 + 900)).isFalse();
        sim.run(t0 + 900);
        assertThat(rx.timerPs()).isEqualTo(Long.MAX_VALUE);
        assertThat(host.idleThrough(Long.MAX_VALUE - 1)).as("the timer fired: none left").isTrue();
    }

    @Test
    void anAnswerToASchemePacketLeavesAnIdleNicAtOnce() {
        // DLBF's receiver answers a notification on an uncongested path with its SACK
        CheckedRun run = CheckedRun.of(HostStackRingTest.scenario(dir, "dlbf", TestScenarios.lineRate(), NicSpec.defaults()), dir,
                r -> r.transport().keepAllQueuePairs());
        Transport t = run.prepared().transport();
        org.lbsim.kernel.Simulator sim = run.prepared().simulator();
        long t0 = sim.nowPs();
        int notify = -1;
        for (int k = 0; k < t.kinds().count(); k++) {
            if ("DLBF_NOTIFY".equals(t.kinds().name(k))) {
                notify = k;
            }
        }
        Packet n = t.senderOf(0).newControl((byte) notify);
        n.schemeBits = 4; // the message's PSNs up to 4, all held
        t.stack(1).deliver(n);
        assertThat(t.stack(1).controlBacklog()).as("the SACK waits for the NIC").isEqualTo(1);
        sim.run(t0);
        assertThat(t.stack(1).controlBacklog()).as("sent at %d ps", t0).isZero();
    }
}
