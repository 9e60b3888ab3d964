package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/** Per-flow ECMP spreads flows over equal-cost ports like a fair hash, and keeps each flow on one path. */
class EcmpSpreadTest {
    private static final int K = 8;
    private static final int HOSTS = K * K * K / 4;
    private static final int FLOWS_PER_HOST = 1000;

    @TempDir
    Path dir;

    /** 4000 one-packet flows from the 4 hosts of edge switch e0 to random hosts of other pods. */
    private CheckedRun onePacketFlowsLeavingEdgeZero(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<long[]> rows = new ArrayList<>();
        for (int src = 0; src < K / 2; src++) {
            for (int i = 0; i < FLOWS_PER_HOST; i++) {
                int dst = K * K / 4 + rng.nextInt(HOSTS - K * K / 4); // pod 0 holds hosts 0 .. k^2/4 - 1
                rows.add(flow(src, dst, 1000));
            }
        }
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(K), "ecmp", trace(dir, "spread.csv", rows), seed);
        return CheckedRun.of(s, dir);
    }

    /** Frames sent by each port of {@code node} towards the tier above. */
    private static long[] uplinkCounts(CheckedRun run, int node) {
        Topology t = run.prepared().topology();
        Network net = run.prepared().network();
        List<Long> counts = new ArrayList<>();
        for (int p = t.firstPort(node); p < t.portEnd(node); p++) {
            if (t.tier(t.peerNode(p)) == t.tier(node) + 1) {
                counts.add(net.egress(p).txPackets());
            }
        }
        return counts.stream().mapToLong(Long::longValue).toArray();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void flowsLeavingAnEdgeSwitchSpreadOverItsUplinksAsAFairHashWouldByChiSquareAtOnePercent(long seed) {
        CheckedRun run = onePacketFlowsLeavingEdgeZero(seed);
        Topology t = run.prepared().topology();
        int e0 = t.hostSwitch(0);

        long[] observed = uplinkCounts(run, e0);

        assertThat(observed).hasSize(K / 2);
        assertThat(sum(observed)).isEqualTo(K / 2 * FLOWS_PER_HOST); // each flow's single frame crosses one uplink
        assertThat(chiSquare(observed)).isLessThan(chiSquareCritical(K / 2 - 1, 0.99));
    }

    @Test
    void flowsLeavingAPodSpreadOverAllItsCoreLinksAsAFairHashWouldByChiSquareAtOnePercent() {
        CheckedRun run = onePacketFlowsLeavingEdgeZero(1);
        Topology t = run.prepared().topology();
        int firstAgg = t.hostCount() + K * K / 2;
        List<Long> all = new ArrayList<>();
        for (int a = firstAgg; a < firstAgg + K / 2; a++) {
            for (long c : uplinkCounts(run, a)) {
                all.add(c);
            }
        }
        long[] observed = all.stream().mapToLong(Long::longValue).toArray();

        assertThat(observed).hasSize(K / 2 * K / 2);
        assertThat(sum(observed)).isEqualTo(K / 2 * FLOWS_PER_HOST);
        assertThat(chiSquare(observed)).isLessThan(chiSquareCritical(observed.length - 1, 0.99));
    }

    @Test
    void chiSquareCriticalValuesMatchTheTables() {
        assertThat(chiSquareCritical(1, 0.99)).isCloseTo(6.635, within(1e-3));
        assertThat(chiSquareCritical(3, 0.99)).isCloseTo(11.345, within(1e-3));
        assertThat(chiSquareCritical(15, 0.99)).isCloseTo(30.578, within(1e-3));
    }

    @Test
    void chiSquareRejectsALopsidedSpread() {
        // a hash that put 30% instead of 25% on one of 4 ports, over 4000 flows
        assertThat(chiSquare(new long[] {1200, 934, 933, 933})).isGreaterThan(chiSquareCritical(3, 0.99));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void perFlowEcmpKeepsEveryPacketOfAFlowOnOnePath(long seed) {
        int packets = 64;
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(K), "ecmp",
                trace(dir, "one.csv", List.of(flow(0, HOSTS - 1, packets * 4096L))), seed);
        CheckedRun run = CheckedRun.of(s, dir);

        // 5 switch ports carry the data and 5 others carry the ACKs, each port every packet of its direction
        List<Long> busy = busyPortCounts(run);
        assertThat(busy).hasSize(10).containsOnly((long) packets);
    }

    @Test
    void hostSprayingSpreadsTheSameFlowOverManyPaths() {
        int packets = 64;
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(K), "host-spray",
                trace(dir, "one.csv", List.of(flow(0, HOSTS - 1, packets * 4096L))), 1);
        CheckedRun run = CheckedRun.of(s, dir);

        List<Long> busy = busyPortCounts(run);
        // e0 and the source pod's aggregation switches alone offer 4 + 16 uplinks
        assertThat(busy.size()).isGreaterThan(20);
        assertThat(sum(busy.stream().mapToLong(Long::longValue).toArray())).isEqualTo(2L * 5 * packets);
    }

    private static List<Long> busyPortCounts(CheckedRun run) {
        List<Long> busy = new ArrayList<>();
        for (int p = 0; p < run.prepared().topology().portCount(); p++) {
            EgressPort e = run.prepared().network().egress(p);
            if (e != null && e.txPackets() > 0) {
                busy.add(e.txPackets());
            }
        }
        return busy;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long x : a) {
            s += x;
        }
        return s;
    }

    /** Pearson's statistic against equal expected counts. */
    static double chiSquare(long[] observed) {
        double expected = sum(observed) / (double) observed.length;
        double x = 0;
        for (long o : observed) {
            x += (o - expected) * (o - expected) / expected;
        }
        return x;
    }

    /** The {@code p}-quantile of the chi-square distribution with {@code df} degrees of freedom, by bisection on its CDF. */
    static double chiSquareCritical(int df, double p) {
        double lo = 0;
        double hi = 10.0 * df + 100;
        for (int i = 0; i < 200; i++) {
            double mid = (lo + hi) / 2;
            if (chiSquareCdf(df, mid) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** P(X <= x) = regularized lower incomplete gamma P(df/2, x/2), by its power series. */
    static double chiSquareCdf(int df, double x) {
        double s = df / 2.0;
        double z = x / 2.0;
        if (z <= 0) {
            return 0;
        }
        double term = 1 / s;
        double sum = term;
        for (int n = 1; n < 10_000 && term > sum * 1e-17; n++) {
            term *= z / (s + n);
            sum += term;
        }
        return Math.exp(s * Math.log(z) - z - logGamma(s)) * sum;
    }

    /** ln Gamma(s) for s a positive multiple of 1/2, exactly by recursion from Gamma(1) = 1 and Gamma(1/2) = sqrt(pi). */
    static double logGamma(double s) {
        double v = (s * 2) % 2 == 0 ? 0 : 0.5 * Math.log(Math.PI);
        for (double a = (s * 2) % 2 == 0 ? 1 : 0.5; a < s; a += 1) {
            v += Math.log(a);
        }
        return v;
    }
}
