package org.lbsim.lb.dnlb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.transport.Transport;

/**
 * CTCCL 4's NCCL + ECMP baseline: the RoCE source port of queue pair q between two NICs is one port of
 * [0xC000, 0xFFFF] for the whole run, so every ring step between the same NICs goes out with it.
 */
class NcclEcmpTest {
    private static PreparedRun ring(long seed) {
        return Lbsim.scenario().leafSpine(4, 2, 2).linkRateGbps(100).scheme("nccl-ecmp").seed(seed)
                .set("workload", Map.of("type", "collective", "op", "all-reduce", "algorithm", "ring", "bytes", 800_000, "hosts", 8,
                        "placement", "packed"))
                .set("nic.queuePairs", "per-message").set("nic.qpsPerConnection", 2).prepare();
    }

    @Test
    void everyStepBetweenTwoNicsGoesOutWithTheSamePortPerQueuePair() {
        PreparedRun run = ring(4);
        Transport t = run.transport();
        t.keepAllQueuePairs();
        run.run();
        Invariants.check(run);
        int perStep = 16; // 8 ranks x 2 queue pairs
        Set<Integer> ports = new HashSet<>();
        int compared = 0;
        for (int q = 0; q + perStep < t.flowCount(); q++) {
            assertThat(t.senderOf(q + perStep).context().src()).isEqualTo(t.senderOf(q).context().src());
            assertThat(t.senderOf(q + perStep).context().dst()).isEqualTo(t.senderOf(q).context().dst());
            assertThat(t.senderOf(q + perStep).context().qpIndex()).isEqualTo(t.senderOf(q).context().qpIndex());
            int port = t.senderOf(q).entropyOf(0);
            assertThat(port).isBetween(PortSegments.FIRST_PORT, PortSegments.LAST_PORT);
            assertThat(t.senderOf(q + perStep).entropyOf(0)).as("queue pair %d", q).isEqualTo(port);
            ports.add(port);
            compared++;
        }
        assertThat(compared).isGreaterThan(perStep);
        assertThat(ports).as("the 16 (NIC pair, QP) combinations draw their own ports").hasSize(perStep);
    }

    /** The port depends on the NIC pair and the queue pair's index, drawn from the run's seed. */
    @Test
    void portsAreOnePerNicPairAndQueuePairFromTheRunsSeed() {
        Set<Integer> ports = new HashSet<>();
        for (int src = 0; src < 16; src++) {
            for (int dst = 0; dst < 16; dst++) {
                for (int q = 0; q < 4; q++) {
                    int port = NcclEcmp.sourcePort(42, src, dst, q);
                    assertThat(port).isBetween(PortSegments.FIRST_PORT, PortSegments.LAST_PORT);
                    assertThat(NcclEcmp.sourcePort(42, src, dst, q)).isEqualTo(port);
                    ports.add(port);
                }
            }
        }
        assertThat(ports).as("1024 combinations over 16384 ports: few collide").hasSizeGreaterThan(950);
        // and they spread evenly over the range: about 128 of the 1024 in each eighth
        int[] perEighth = new int[8];
        for (int src = 0; src < 16; src++) {
            for (int dst = 0; dst < 16; dst++) {
                for (int q = 0; q < 4; q++) {
                    perEighth[PortSegments.segmentOf(NcclEcmp.sourcePort(42, src, dst, q), 8)]++;
                }
            }
        }
        assertThat(java.util.Arrays.stream(perEighth).min().orElseThrow()).isGreaterThanOrEqualTo(90);
        assertThat(java.util.Arrays.stream(perEighth).max().orElseThrow()).isLessThanOrEqualTo(170);
        assertThat(NcclEcmp.sourcePort(43, 0, 1, 0)).isNotEqualTo(NcclEcmp.sourcePort(42, 0, 1, 0));
    }
}
