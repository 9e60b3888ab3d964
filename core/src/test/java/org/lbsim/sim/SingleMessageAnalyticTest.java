package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cc.FixedRate;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.LayerStats;
import org.lbsim.net.EgressPort;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;

/**
 * One message alone on an idle fabric finishes exactly when first principles say: the expected
 * FCT is computed here frame by frame from the packet format and the link parameters, never from
 * the simulator's own bound code.
 */
public class SingleMessageAnalyticTest {
    private static final int MTU = 4096;
    private static final int HEADER = 62;
    private static final int ACK = 64;
    private static final int GAP = 20;

    @TempDir
    Path dir;

    /**
     * When the sender holds the ACK of the last frame, for a message alone on a path of {@code hops}
     * equal links (every NIC and switch port at {@code psPerByte}, every link {@code delayPs} long).
     *
     * <p>The sender's NIC streams frames back to back: frame i starts when frame i-1 and its gap
     * are done. Every switch stores a frame completely, then forwards it as soon as its egress
     * port is free (the port is busy for the frame plus its gap). The receiver answers every
     * frame with one 64 B ACK as soon as its NIC is free (busy for an ACK plus its gap), and ACKs
     * travel back in the same way over ports that carry nothing else.
     */
    public static long expectedFctPs(int hops, long messageBytes, long psPerByte, long delayPs) {
        int frames = (int) ((messageBytes + MTU - 1) / MTU);
        long gapPs = GAP * psPerByte;
        long[] ser = new long[frames];
        long[] ackSer = new long[frames];
        for (int i = 0; i < frames; i++) {
            long payload = Math.min(MTU, messageBytes - (long) i * MTU);
            ser[i] = (payload + HEADER) * psPerByte;
            ackSer[i] = ACK * psPerByte;
        }
        long[] atHop = new long[frames]; // when frame i is wholly at the current hop (0 at the sender)
        pipeline(atHop, ser, hops, gapPs, delayPs); // data: sender -> receiver
        pipeline(atHop, ackSer, hops, gapPs, delayPs); // ACKs: receiver -> sender, each sent once its frame is in
        long last = 0;
        for (long t : atHop) {
            last = Math.max(last, t);
        }
        return last;
    }

    /** Store-and-forward FIFO hops: a frame starts when it is in and the port is done with the previous frame and gap. */
    private static void pipeline(long[] ready, long[] ser, int hops, long gapPs, long delayPs) {
        for (int hop = 0; hop < hops; hop++) {
            long freeAt = 0;
            for (int i = 0; i < ready.length; i++) {
                long start = Math.max(ready[i], freeAt);
                freeAt = start + ser[i] + gapPs;
                ready[i] = start + ser[i] + delayPs;
            }
        }
    }

    static List<Arguments> cases() {
        TopologySpec fatTree = TestScenarios.fatTree(4);
        TopologySpec leafSpine = new TopologySpec.LeafSpine(16, 16, 16, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        return List.of(
                // 800 Gb/s: 1 B = 10 ps; 500 ns links
                Arguments.of("fat tree, other pod, 1 MiB", fatTree, 0, 15, 6, 1L << 20, 10L, 500_000L),
                Arguments.of("fat tree, other pod, short last frame", fatTree, 0, 15, 6, 1_000_000L, 10L, 500_000L),
                Arguments.of("fat tree, other pod, one short frame", fatTree, 0, 15, 6, 1_000L, 10L, 500_000L),
                // a 1 B last frame arrives 830 ps after the one before: its ACK waits 10 ps for the previous ACK and gap
                Arguments.of("fat tree, other pod, 1 B last frame", fatTree, 0, 15, 6, 4_097L, 10L, 500_000L),
                Arguments.of("fat tree, same edge, 1 MiB", fatTree, 0, 1, 2, 1L << 20, 10L, 500_000L),
                Arguments.of("fat tree, same edge, short last frame", fatTree, 0, 1, 2, 1_000_000L, 10L, 500_000L),
                Arguments.of("fat tree, same pod, 1 MiB", fatTree, 0, 2, 4, 1L << 20, 10L, 500_000L),
                Arguments.of("fat tree, same pod, short last frame", fatTree, 3, 0, 4, 123_457L, 10L, 500_000L),
                // 400 Gb/s: 1 B = 20 ps; 1000 ns links
                Arguments.of("leaf-spine, other leaf, 1 MiB", leafSpine, 0, 16, 4, 1L << 20, 20L, 1_000_000L),
                Arguments.of("leaf-spine, other leaf, short last frame", leafSpine, 5, 250, 4, 1_000_000L, 20L, 1_000_000L),
                Arguments.of("leaf-spine, same leaf, 1 MiB", leafSpine, 0, 15, 2, 1L << 20, 20L, 1_000_000L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void singleMessageOnAnIdlePathCompletesAtTheAnalyticTimeToThePicosecond(String name, TopologySpec topo, int src, int dst,
                                                                             int hops, long bytes, long psPerByte, long delayPs) {
        Scenario s = TestScenarios.scenario(topo, "ecmp", trace(dir, "one.csv", List.of(flow(src, dst, bytes))), 1);

        CheckedRun run = CheckedRun.of(s, dir);

        FlowResult f = run.result().flowResults().get(0);
        assertThat(f.fctPs()).isEqualTo(expectedFctPs(hops, bytes, psPerByte, delayPs));
        assertThat(run.cctPs()).isEqualTo(f.fctPs());
        assertThat(f.packetsSent()).isEqualTo((bytes + MTU - 1) / MTU);
        assertThat(run.result().counters().dropped()).isZero();
    }

    @Test
    void oneMebibyteAcrossSixHopsTakesSixteenPointNineZeroSevenTwoTwoMicroseconds() {
        // 256 frames of 4158 B (41580 ps) each followed by a 20 B gap (200 ps): the last frame
        // leaves the NIC after 255 x 41780 + 41580 ps, then crosses 5 more switch ports (5 x 41580 ps)
        // and 6 links (6 x 500 ns); its 64 B ACK takes 6 x 640 ps of serialization and 6 x 500 ns back.
        long byHand = 255L * 41_780 + 6L * 41_580 + 6L * 500_000 + 6L * 640 + 6L * 500_000;
        assertThat(byHand).isEqualTo(16_907_220L);
        assertThat(expectedFctPs(6, 1L << 20, 10, 500_000)).isEqualTo(byHand);

        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", trace(dir, "one.csv", List.of(flow(0, 15, 1L << 20))), 7);
        assertThat(CheckedRun.of(s, dir).fctPs(0)).isEqualTo(16_907_220L);
    }

    @Test
    void aShortLastFrameWaitsBehindTheFullFrameAheadOfItAtEverySwitch() {
        // 1,000,000 B = 244 full frames + one of 576 B payload (638 B, 6380 ps). The short frame
        // catches up with the full frame ahead at the first switch and then leaves every switch one
        // slot (41780 ps) after it, so store-and-forward costs 5 full frames, not 5 short ones.
        long lastLeavesNic = 244L * 41_780 + 6_380;
        long lastReachesHost = 244L * 41_780 + 5L * (41_580 + 500_000) + 6_380 + 500_000;
        long byHand = lastReachesHost + 6L * (640 + 500_000);
        assertThat(byHand).isEqualTo(16_412_440L);
        assertThat(byHand).isGreaterThan(lastLeavesNic + 5L * 6_380 + 6L * 500_000 + 6L * (640 + 500_000));
        assertThat(expectedFctPs(6, 1_000_000, 10, 500_000)).isEqualTo(byHand);

        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", trace(dir, "one.csv", List.of(flow(0, 15, 1_000_000))), 7);
        assertThat(CheckedRun.of(s, dir).fctPs(0)).isEqualTo(16_412_440L);
    }

    @Test
    void aMessageStartingLaterTakesTheSameTimeFromItsStart() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp",
                trace(dir, "late.csv", List.of(new long[] {0, 15, 1L << 20, 50_000})), 3);
        CheckedRun run = CheckedRun.of(s, dir);
        FlowResult f = run.result().flowResults().get(0);
        assertThat(f.startPs()).isEqualTo(50_000_000L);
        assertThat(f.fctPs()).isEqualTo(16_907_220L);
        assertThat(run.result().simulatedPs()).isEqualTo(50_000_000L + 16_907_220L);
    }

    @Test
    void twoMessagesFromOneHostTakeTurnsOnItsNic() {
        // Queue pairs of one host are served round-robin: frames A0 B0 A1 B1 ... leave back to back,
        // so each message's frames are two slots apart and nothing queues further on (each port sees
        // at most line rate). Flow 0 (activated first) sends the even slots.
        long slot = 41_780;
        int m = 256;
        long tail = 6L * 41_580 + 6L * 500_000 + 6L * (640 + 500_000);
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp",
                trace(dir, "two.csv", List.of(flow(0, 15, (long) m * MTU), flow(0, 14, (long) m * MTU))), 3);
        CheckedRun run = CheckedRun.of(s, dir);
        assertThat(run.fctPs(0)).isEqualTo((2L * m - 2) * slot + tail);
        assertThat(run.fctPs(1)).isEqualTo((2L * m - 1) * slot + tail);
        assertThat(run.cctPs()).isEqualTo(run.fctPs(1));
    }

    @Test
    void aSenderPacedAtHalfTheLineRateSpacesItsFramesTwoSlotsApart() {
        // fixed rate 400 Gb/s on 800 Gb/s links: a frame with its gap (4178 B) every 83560 ps
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", trace(dir, "one.csv", List.of(flow(0, 15, 1L << 20))), 1);
        s = new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(),
                new ComponentSpec("fixed-rate", new FixedRate.Params(false, 400)), s.lossRecovery(), s.workload(), s.failures(), s.limits());
        CheckedRun run = CheckedRun.of(s, dir);
        long expected = 255L * 83_560 + 6L * 41_580 + 6L * 500_000 + 6L * (640 + 500_000);
        assertThat(run.fctPs(0)).isEqualTo(expected);
        assertThat(run.result().lowerBoundPs()).isEqualTo(expected); // the paced bound is tight too
    }

    @Test
    void aLoneMessageQueuesOneFrameAtATimeAndPortsAccountItExactly() {
        int m = 256;
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", trace(dir, "one.csv", List.of(flow(0, 15, (long) m * MTU))), 5);
        CheckedRun run = CheckedRun.of(s, dir);
        long end = run.result().simulatedPs();
        assertThat(end).isEqualTo(16_907_220L);

        int dataPorts = 0;
        int ackPorts = 0;
        for (int p = 0; p < run.prepared().topology().portCount(); p++) {
            EgressPort e = run.prepared().network().egress(p);
            if (e == null || e.txPackets() == 0) {
                continue;
            }
            assertThat(e.txPackets()).isEqualTo(m);
            assertThat(e.drops()).isZero();
            if (e.txBytes() == (long) m * (MTU + HEADER)) {
                dataPorts++;
                assertThat(e.maxQueueBytes()).isEqualTo(MTU + HEADER); // the frame on the wire, never one waiting
                // each frame holds its buffer for its serialization plus gap: 41780 ps
                assertThat(e.timeAverageQueueBytes(end)).isCloseTo((double) m * (MTU + HEADER) * 41_780 / end, org.assertj.core.api.Assertions.within(1e-6));
            } else {
                ackPorts++;
                assertThat(e.txBytes()).isEqualTo((long) m * ACK);
                assertThat(e.maxQueueBytes()).isEqualTo(ACK);
                assertThat(e.timeAverageQueueBytes(end)).isCloseTo((double) m * ACK * 840 / end, org.assertj.core.api.Assertions.within(1e-6));
            }
        }
        assertThat(dataPorts).isEqualTo(5);
        assertThat(ackPorts).isEqualTo(5);
        // every switch layer holds one data port and one ACK port of its 16
        double perLayer = ((double) m * (MTU + HEADER) * 41_780 + (double) m * ACK * 840) / end / 16;
        for (LayerStats l : run.result().layers()) {
            if (l.layer().equals("H->E")) {
                assertThat(l.txPackets()).isEqualTo(2L * m); // NICs: data of h0, ACKs of h15
                continue;
            }
            assertThat(l.ports()).isEqualTo(16);
            assertThat(l.maxQueueBytes()).as(l.layer()).isEqualTo(MTU + HEADER);
            assertThat(l.meanQueueBytes()).as(l.layer()).isCloseTo(perLayer, org.assertj.core.api.Assertions.within(1e-6));
            assertThat(l.txPackets()).isEqualTo(2L * m);
        }
    }
}
