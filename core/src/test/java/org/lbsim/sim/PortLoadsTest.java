package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;

/** metrics.portLoadsFromUs: leaf port utilization over a window, per uplink and as a variance across a leaf's uplinks. */
class PortLoadsTest {

    /** One flow at line rate leaves l0 on one of its 4 uplinks: that one is busy, the others read 0, the variance is 3u^2/16. */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    @Test
    void oneFlowLoadsOneUplinkAndTheVarianceFollows() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("one.csv"), "src,dst,bytes,start_ns\n0,2,4194304,0\n"); // h0 on l0, h2 on l1
        PreparedRun run = Lbsim.scenario().leafSpine(2, 2, 4).linkRateGbps(100).seed(1).baseDir(dir).trace("one.csv")
                .override("metrics.portLoadsFromUs=0").prepare();
        RunResult r = run.run();
        Invariants.check(run);
        Map<String, Number> c = r.schemeCounters();
        double busiest = 0;
        int idle = 0;
        for (int s = 0; s < 4; s++) {
            double u = c.get("ports.l0-s" + s + "#0.out").doubleValue();
            busiest = Math.max(busiest, u);
            idle += u == 0 ? 1 : 0;
        }
        assertThat(idle).isEqualTo(3);
        assertThat(busiest).isBetween(85.0, 100.0);
        assertThat(c.get("ports.l0.uplinkVariance").doubleValue()).isCloseTo(3 * busiest * busiest / 16, within(1e-6));
        assertThat(c.get("ports.windowToPs").longValue()).isEqualTo(r.cctPs());
    }

    /** Off by default: no ports.* counters. */
    @Test
    void offByDefault() {
        RunResult r = Lbsim.scenario().leafSpine(2, 2, 2).permutation(65536).seed(1).run();
        assertThat(r.schemeCounters().keySet()).noneMatch(k -> k.startsWith("ports."));
    }
}
