package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.kernel.EventHandler;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.FlowEcmp;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/**
 * The strict-priority control queue of a switch port ({@link Network#setPriorityKind}), as ns-3's
 * queue index 0: on a 3-leaf, 1-spine fabric (h0, h1 under l0; h2, h3 under l1; h4, h5 under l2;
 * 100 Gb/s, 1 us links, no congestion control, PFC) four 2 MB flows into l2 congest l0's uplink
 * (200 Gb/s into 100) and the spine's port to l2 (from l0 and l1), whose PFC pauses l0's uplink. A test
 * kind is injected at l0 towards l2 every microsecond and consumed there. In the control queue it
 * overtakes the queued data, passes while PFC pauses the port and takes no buffer; in the data FIFO it
 * waits behind the queue.
 */
class ControlQueueTest {
    private static final byte PROBE = 100;
    private static final int PROBE_BYTES = 64;
    private static final long LINK_PS = 1_000_000;

    @TempDir
    Path dir;

    /** Per injection: the delay to l2, whether l0's uplink was paused then, and its queue bytes before and after. */
    record Injection(long delayPs, boolean paused, long queueBefore, long queueAfter) {
    }

    private List<Injection> run(boolean priority) throws Exception {
        Path trace = dir.resolve("incast.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,4,2000000,0\n1,5,2000000,0\n2,4,2000000,0\n3,5,2000000,0\n");
        PreparedRun run = Lbsim.scenario().leafSpine(2, 3, 1).linkRateGbps(100).linkDelayNs(1000).trace(trace.toString()).seed(3)
                .congestionControl("fixed-rate").lossRecovery("go-back-n").set("switches.pfc.enabled", true)
                .set("switches.buffer.bytesPerPort", 16_000_000).set("switches.pfc.xoffBytes", 100_000).set("switches.pfc.xonBytes", 80_000)
                .set("switches.pfc.headroomBytes", 200_000).prepare(new FlowEcmp());
        Network net = run.network();
        if (priority) {
            net.setPriorityKind(PROBE);
        }
        Topology t = run.topology();
        Switch l0 = net.switchAt(t.nodeByName("l0"));
        Switch l2 = net.switchAt(t.nodeByName("l2"));
        EgressPort uplink = null;
        for (int p = t.firstPort(t.nodeByName("l0")); p < t.portEnd(t.nodeByName("l0")); p++) {
            if (!t.isHost(t.peerNode(p))) {
                uplink = net.egress(p);
            }
        }
        EgressPort up = uplink;
        Simulator sim = net.simulator();
        List<Injection> out = new ArrayList<>();
        long[] sentPs = new long[64];
        boolean[] pausedAt = new boolean[64];
        long[][] queue = new long[64][2];
        int reason = net.consumeReason("test: probe reached l2");
        l2.addIngressStage((p, port) -> {
            if (p.kind != PROBE) {
                return true;
            }
            int i = p.psn;
            out.add(new Injection(sim.nowPs() - sentPs[i], pausedAt[i], queue[i][0], queue[i][1]));
            l2.consume(p, reason);
            return false;
        });
        int handler = sim.register(new EventHandler() {
            @Override
            public void onEvent(int kind, long tag) {
                int i = (int) tag;
                sentPs[i] = sim.nowPs();
                pausedAt[i] = up.isPaused();
                queue[i][0] = up.queueBytes();
                Packet p = l0.originate();
                p.kind = PROBE;
                p.src = 0;
                p.dst = 4;
                p.flow = 0;
                p.psn = i;
                p.sizeBytes = PROBE_BYTES;
                l0.forward(p);
                queue[i][1] = up.queueBytes();
            }
        });
        for (int i = 0; i < 40; i++) {
            sim.schedule(handler, (20 + i) * 1_000_000L, 0, i);
        }
        run.run();
        Invariants.check(run);
        assertThat(out).as("every probe reached l2").hasSize(40);
        return out;
    }

    /** {@code switches.controlPriority} sends ACK / NACK / CNP from the control queue (ns-3's AckHighPrio); off by default. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void switchesControlPriorityPutsAcksNacksAndCnpsInTheControlQueue(boolean on) throws Exception {
        Path trace = dir.resolve("two.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,4,500000,0\n4,0,500000,0\n");
        PreparedRun run = Lbsim.scenario().leafSpine(2, 3, 1).linkRateGbps(100).linkDelayNs(1000).trace(trace.toString()).seed(3)
                .congestionControl("dcqcn").lossRecovery("go-back-n").set("switches.ecn.enabled", true).set("switches.controlPriority", on)
                .prepare(new FlowEcmp());
        for (byte kind : new byte[] {Packet.ACK, Packet.NACK, Packet.CNP}) {
            assertThat(run.network().isPriorityKind(kind)).isEqualTo(on);
        }
        assertThat(run.network().isPriorityKind(Packet.DATA)).isFalse();
        assertThat(run.run().flowsFinished()).isEqualTo(2);
        Invariants.check(run);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aControlPacketOvertakesQueuedDataPassesPfcPausesAndTakesNoBufferOnlyInTheControlQueue(boolean priority) throws Exception {
        List<Injection> probes = run(priority);
        // at most one data frame (1000 B + headers, 100 Gb/s: < 100 ns) ahead at each of the two hops, then two links
        long boundPs = 2 * LINK_PS + 4 * 100_000;
        assertThat(probes).as("l0's uplink is congested while probes are sent").anyMatch(i -> i.queueBefore() > 100_000);
        if (priority) {
            assertThat(probes).as("some probes are sent while PFC pauses l0's uplink").anyMatch(Injection::paused);
            assertThat(probes).allSatisfy(i -> {
                assertThat(i.delayPs()).as("behind at most one frame per hop, paused or not").isLessThanOrEqualTo(boundPs);
                assertThat(i.queueAfter()).as("the control queue takes no buffer").isEqualTo(i.queueBefore());
            });
        } else {
            assertThat(probes).allSatisfy(i -> assertThat(i.queueAfter()).as("the data FIFO charges the probe").isEqualTo(i.queueBefore() + PROBE_BYTES));
            assertThat(probes).as("in the data FIFO a probe waits behind the queue (100 KB = 8 us at 100 Gb/s)")
                    .anyMatch(i -> i.delayPs() > boundPs + 8_000_000);
        }
    }
}
