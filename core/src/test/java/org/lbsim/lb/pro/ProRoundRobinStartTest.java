package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.kernel.RandomStreams;
import org.lbsim.kernel.Time;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.QpContext;
import org.lbsim.topology.Topology;

/**
 * The initial state of each NIC's round robin (PRO IV-B, Lemma 4's proof: "RNICs pick the initial
 * state uniformly and independently"): {@code roundRobinStart: random} draws each path set's counter C
 * uniformly and independently; with it Theorem 1's bound holds on a synchronized ring, and the NICs
 * of a ToR no longer take the same uplink in lockstep as they do with {@code zero}.
 */
class ProRoundRobinStartTest {
    private static Pro pro(String start) {
        Pro.Params d = Pro.Params.defaults();
        return new Pro(new Pro.Params(d.rtoUs(), d.batchPackets(), d.destinationAware(), d.interQpOrchestration(), start, d.initialWindow(),
                d.recovery(), d.mprdmaBitmapPackets(), d.mprdmaDeltaPackets(), d.rtoRestart(), d.mprdmaRetransmit(), d.mprdmaSlowPaths(),
                d.mprdmaWindow(), d.mprdmaInitialWindow(), d.mprdmaProbe(), d.mprdmaBeyondBitmap()));
    }

    /**
     * The initial C of the path set of every NIC of {@code t} towards every other ToR, made as the run makes
     * them (the first queue pair of a NIC to a ToR opens the set with its own random stream).
     */
    private static int[][] starts(Topology t, Pro pro, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        int hosts = t.hostCount();
        int[][] out = new int[hosts][];
        int qp = 0;
        for (int h = 0; h < hosts; h++) {
            java.util.List<Integer> row = new java.util.ArrayList<>();
            int lastTor = -1;
            for (int d = 0; d < hosts; d++) {
                int tor = t.hostSwitch(d);
                if (tor == t.hostSwitch(h) || tor == lastTor) {
                    continue;
                }
                lastTor = tor; // the first host of each other ToR (hosts of a ToR are consecutive)
                QpContext ctx = new QpContext(qp, h, d, 1_000_000, 1000, 1000, 62, 20, 200_000, Time.us(8), 200_000);
                PathSet set = pro.pathSet(new HostContext(ctx, t, null, streams.stream("entropy", qp), null));
                row.add(set.start());
                qp++;
            }
            out[h] = row.stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }

    private static double chiSquare(long[] counts) {
        long n = java.util.Arrays.stream(counts).sum();
        double expected = n / (double) counts.length;
        double x = 0;
        for (long c : counts) {
            x += (c - expected) * (c - expected) / expected;
        }
        return x;
    }

    @Test
    void theInitialStateIsUniformOverThePathSetAndIndependentBetweenNics() {
        // PRO's fabric with one link per ToR-Aggr pair: M = 8 paths; 128 NICs x 15 other ToRs = 1,920 sets per seed
        Topology t = Lbsim.scenario().leafSpine(8, 16, 8).scheme("pro").seed(1).prepare().topology();
        long[] counts = new long[8];
        long sameStart = 0;
        long pairs = 0;
        for (long seed = 1; seed <= 4; seed++) {
            int[][] s = starts(t, pro(Pro.Params.RANDOM), seed);
            for (int h = 0; h < s.length; h++) {
                for (int v : s[h]) {
                    counts[v]++;
                }
                // NICs under one ToR towards the same ToR: their starts agree 1 time in M when drawn independently
                for (int g = h + 1; g < s.length && t.hostSwitch(g) == t.hostSwitch(h); g++) {
                    for (int k = 0; k < s[h].length; k++) {
                        pairs++;
                        sameStart += s[h][k] == s[g][k] ? 1 : 0;
                    }
                }
            }
        }
        // 7 degrees of freedom: P(chi2 > 24.32) = 0.001 for a uniform draw (7,680 draws, 960 per path)
        assertThat(chiSquare(counts)).as("starts per path %s", java.util.Arrays.toString(counts)).isLessThan(24.32);
        // 4 seeds x 16 ToRs x 28 pairs x 15 ToRs = 26,880 pairs, 1/8 expected alike: within 1 point (5 standard deviations)
        assertThat(sameStart / (double) pairs).isBetween(0.125 - 0.01, 0.125 + 0.01);
    }

    @Test
    void onPaperFabricTheStartIsUniformOverUplinksAndAggrDownlinks() {
        // 8 parallel links per ToR-Aggr pair: M = 64 uplinks x 8 Aggr downlinks = 512 paths
        Topology t = Lbsim.scenario().leafSpine(8, 16, 8).set("topology.linksPerLeafSpine", 8).scheme("pro").seed(1).prepare().topology();
        int[] pathIdOfIndex = new ProFabric(t).pathIdOfIndex;
        assertThat(pathIdOfIndex).hasSize(512);
        long[] up = new long[64];
        long[] down = new long[8];
        for (long seed = 1; seed <= 4; seed++) {
            for (int[] row : starts(t, pro(Pro.Params.RANDOM), seed)) {
                for (int v : row) {
                    up[PathIds.torUplink(pathIdOfIndex[v])]++;
                    down[PathIds.aggrDownlink(pathIdOfIndex[v])]++;
                }
            }
        }
        // P(chi2 > 103.4 | 63 dof) = 0.001, P(chi2 > 24.32 | 7 dof) = 0.001
        assertThat(chiSquare(up)).isLessThan(103.4);
        assertThat(chiSquare(down)).isLessThan(24.32);
    }

    @Test
    void zeroStartsEveryNicAtPathZero() {
        Topology t = Lbsim.scenario().leafSpine(8, 16, 8).scheme("pro").seed(1).prepare().topology();
        for (int[] row : starts(t, pro(Pro.Params.ZERO), 3)) {
            assertThat(row).containsOnly(0);
        }
    }

    /** Every host sends to the host of the next ToR with the same index: B_in NICs per ToR all send to other racks, in step. */
    private static Path ring(int hostsPerLeaf, int leaves, long bytes) throws Exception {
        Path f = Files.createTempFile("pro-ring", ".csv");
        StringBuilder sb = new StringBuilder("src,dst,bytes,start_ns\n");
        int hosts = hostsPerLeaf * leaves;
        for (int h = 0; h < hosts; h++) {
            sb.append(h).append(',').append((h + hostsPerLeaf) % hosts).append(',').append(bytes).append(",0\n");
        }
        Files.writeString(f, sb.toString());
        f.toFile().deleteOnExit();
        return f;
    }

    /** The largest queue of any ToR uplink, in bytes. */
    private static long largestUplinkQueue(String start, long seed) throws Exception {
        PreparedRun run = Lbsim.scenario().leafSpine(4, 4, 4).linkRateGbps(100).scheme("pro").set("loadBalancing.roundRobinStart", start)
                .congestionControl("fixed-rate").set("packets.mtuBytes", 1000).trace(ring(4, 4, 400_000).toString()).seed(seed).prepare();
        assertThat(run.run().flowsFinished()).isEqualTo(16);
        Topology t = run.topology();
        long max = 0;
        for (int l = 0; l < 4; l++) {
            for (int s = 0; s < 4; s++) {
                for (int port : t.portsBetween(t.nodeByName("l" + l), t.nodeByName("s" + s))) {
                    max = Math.max(max, run.network().egress(port).maxQueueBytes());
                }
            }
        }
        return max;
    }

    /**
     * Theorem 1 (IV): the packets arriving at a ToR egress in one cycle of tau slots are at most H x B_in with
     * H = 1, so no ToR uplink holds more than B_in = 4 data frames, and, for the ACKs of the 4 flows the ToR
     * receives (IV-A's model leaves them out; they carry the data's PathIDs, so they are round-robined alike),
     * 4 ACK frames. A random start stays within it in every seed; with every counter at zero the lockstep
     * puts 4 data frames and 6 ACKs on one uplink (4,632 B), beyond it.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void withARandomStartTheorem1sBoundHoldsAtEveryToRUplink(long seed) throws Exception {
        long dataFrame = 1000 + 62;
        long ackFrame = 64;
        long bound = 4 * dataFrame + 4 * ackFrame;
        assertThat(largestUplinkQueue(Pro.Params.RANDOM, seed)).isLessThanOrEqualTo(bound);
    }

    /**
     * With every counter at zero the ToR's 4 NICs send each packet to the same uplink at the same time: the
     * queue holds B_in data frames at once. Drawn independently, the 4 NICs rarely all agree: over 6 seeds
     * the largest uplink queue is smaller on average.
     */
    @Test
    void aZeroStartPutsEveryNicOfAToROnOneUplinkInLockstepAndARandomStartDoesNot() throws Exception {
        long zero = largestUplinkQueue(Pro.Params.ZERO, 1);
        assertThat(zero).as("4 frames arrive together at one uplink").isGreaterThanOrEqualTo(4 * (1000 + 62));
        long sum = 0;
        for (long seed = 1; seed <= 6; seed++) {
            sum += largestUplinkQueue(Pro.Params.RANDOM, seed);
        }
        assertThat(sum / 6.0).isLessThan(zero);
    }
}
