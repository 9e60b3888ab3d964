package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.Scenario;

/**
 * Property-style: random small traces (up to 12 flows of up to 300 KB, staggered starts) on a k = 4
 * fat tree. Every flow finishes, the invariants hold (checked by {@link CheckedRun}), and no flow
 * beats what physics allows it alone.
 */
class RandomTracesTest {
    private static final long SLOT = 41_780; // 4158 B frame + 20 B gap at 800 Gb/s
    private static final long D = 500_000;

    @TempDir
    Path dir;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 60);
    }

    private static List<long[]> randomTrace(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = 1 + rng.nextInt(12);
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int src = rng.nextInt(16);
            int dst = rng.nextInt(15);
            if (dst >= src) {
                dst++;
            }
            rows.add(new long[] {src, dst, 1 + rng.nextInt(300_000), rng.nextInt(20) * 1_000L});
        }
        return rows;
    }

    private static int hops(long src, long dst) {
        return src / 2 == dst / 2 ? 2 : src / 4 == dst / 4 ? 4 : 6;
    }

    /**
     * Valid whatever the paths: the last frame cannot leave the NIC before all frames ahead of it
     * did, then needs at least its own store-and-forward and propagation to arrive, and its ACK
     * the same way back.
     */
    private static long multipathFloorPs(long src, long dst, long bytes) {
        int h = hops(src, dst);
        long frames = (bytes + 4095) / 4096;
        long last = (bytes - (frames - 1) * 4096 + 62) * 10;
        return (frames - 1) * SLOT + h * last + h * D + h * (640 + D);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void withPerFlowEcmpNoFlowBeatsItsLoneSelfAndTheCollectiveNeverBeatsTheBound(long seed) {
        List<long[]> rows = randomTrace(seed);
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "ecmp", ScenarioTweaks.trace(dir, "r.csv", rows), seed);
        RunResult r = CheckedRun.of(s, dir).result();

        assertThat(r.flowsFinished()).isEqualTo(rows.size());
        assertThat(r.cctPs()).isGreaterThanOrEqualTo(r.lowerBoundPs());
        for (int i = 0; i < rows.size(); i++) {
            long[] f = rows.get(i);
            // one path per flow: frames stay in order, so the lone-flow pipeline is a floor
            long alone = SingleMessageAnalyticTest.expectedFctPs(hops(f[0], f[1]), f[2], 10, D);
            assertThat(r.flowResults().get(i).fctPs()).as("flow %d", i).isGreaterThanOrEqualTo(alone);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void withAnySchemeEveryFlowFinishesNoSoonerThanPhysicsAllows(long seed) {
        List<long[]> rows = randomTrace(seed);
        List<String> schemes = LoadBalancers.REGISTRY.names();
        String scheme = schemes.get((int) (seed % schemes.size()));
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), scheme, ScenarioTweaks.trace(dir, "r.csv", rows), seed);
        RunResult r = CheckedRun.of(s, dir).result();

        assertThat(r.flowsFinished()).as(scheme).isEqualTo(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            long[] f = rows.get(i);
            assertThat(r.flowResults().get(i).fctPs()).as("%s flow %d", scheme, i).isGreaterThanOrEqualTo(multipathFloorPs(f[0], f[1], f[2]));
        }
    }
}
