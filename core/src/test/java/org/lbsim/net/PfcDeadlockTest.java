package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.cc.FixedRate;
import org.lbsim.metrics.RunResult;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.transport.GoBackN;

/**
 * A cyclic buffer dependency: three switches in a ring, static routes that send every flow two
 * hops clockwise, so each ring link carries two line-rate flows. With PFC the ring pauses itself
 * into a deadlock, which the watchdog must report by naming the cycle instead of hanging.
 */
class PfcDeadlockTest {
    @TempDir
    Path dir;

    private Scenario ring(boolean pfc, double checkUs) throws Exception {
        Files.writeString(dir.resolve("ring.csv"), "src,dst,bytes,start_ns\n0,2,10000000,0\n1,0,10000000,0\n2,1,10000000,0\n");
        TopologySpec.Custom topo = new TopologySpec.Custom(3, List.of("s0", "s1", "s2"),
                List.of("h0 s0", "h1 s1", "h2 s2", "s0 s1", "s1 s2", "s2 s0"), 100, 1000,
                List.of("s0 h2 s1", "s1 h0 s2", "s2 h1 s0"));
        return new Scenario("ring", 1, topo, PacketSpec.defaults(),
                new SwitchSpec(BufferSpec.defaults(), EcnSpec.defaults(), new PfcSpec(pfc, 100_000, 80_000, 0, 60_000, checkUs)),
                new ComponentSpec("ecmp", LoadBalancers.REGISTRY.find("ecmp").orElseThrow().defaults()),
                new ComponentSpec("fixed-rate", new FixedRate.Params(false, 0)), new ComponentSpec("go-back-n", new GoBackN.Params(80)),
                new WorkloadSpec.Trace("ring.csv"), FailureSpec.defaults(), new LimitsSpec(5_000));
    }

    @Test
    void aPfcCycleIsReportedAsADeadlockNamingItsPortsWithinTheCheckInterval() throws Exception {
        RunResult r = CheckedRun.of(ring(true, 50), dir).result();

        String report = r.counters().pfcDeadlock();
        assertThat(report).as("deadlock report").startsWith("PFC deadlock at ")
                .contains("s0->s1").contains("s1->s2").contains("s2->s0");
        assertThat(r.flowsFinished()).isZero();
        // progress stops within the first tens of microseconds; two check intervals later it is reported
        assertThat(r.simulatedPs()).as("time of the report").isLessThanOrEqualTo(200_000_000L);
        assertThat(r.counters().dropped()).as("lossless").isZero();
        assertThat(r.counters().pfcPauses()).isPositive();
    }

    @Test
    void theSameRingWithoutPfcDropsInsteadOfDeadlocking() throws Exception {
        RunResult r = CheckedRun.of(ring(false, 50), dir).result();

        assertThat(r.counters().pfcDeadlock()).isEmpty();
        assertThat(r.counters().drops()).isPositive();
        assertThat(r.counters().pfcPauses()).isZero();
    }
}
