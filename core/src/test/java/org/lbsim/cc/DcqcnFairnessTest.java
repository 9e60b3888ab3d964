package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.metrics.RunResult;
import org.lbsim.metrics.TimeSeries;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.transport.GoBackN;
import org.lbsim.transport.Transport;

/**
 * DCQCN's promise (Zhu et al., SIGCOMM 2015): flows sharing a bottleneck converge to equal rates that
 * fill it, and the bottleneck queue is held in the ECN marking band between Kmin and Kmax.
 *
 * <p>Hosts 0 and 1 under leaf l0 each send 30 MB to host 2 under leaf l1. Host links are 100 Gb/s,
 * leaf-spine links 400 Gb/s and there is one spine, so the only bottleneck is l1's 100 Gb/s downlink
 * to host 2 (layer L->H). PFC keeps the fabric lossless, as RoCE fabrics run. DCQCN runs with
 * HPCC's setting (the defaults) except the rate-increase timer, which is the DCQCN paper's 55 us
 * instead of 900 us so that the flows settle within a few milliseconds. Rates and queues are read
 * from the sampled time series over the second half of the time both flows are active.
 */
class DcqcnFairnessTest {
    private static final long KMIN = 100_000;
    private static final long KMAX = 400_000;
    private static final double LINK_GBPS = 100;
    private static final Dcqcn.Params D = Dcqcn.Params.defaults();
    private static final Dcqcn.Params FAST_SETTLING = new Dcqcn.Params(55, D.rateDecreaseIntervalUs(), D.byteCounterBytes(),
            D.additiveIncreaseGbps(), D.hyperIncreaseGbps(), D.alphaGain(), D.alphaUpdateUs(), D.fastRecoveryStages(),
            D.minRateGbps(), D.cnpIntervalUs(), D.clampTargetRate(), D.nackIsCongestionSignal());

    private static final PfcSpec LOSSLESS = new PfcSpec(true, PfcSpec.defaults().xoffBytes(), PfcSpec.defaults().xonBytes(),
            0, PfcSpec.defaults().headroomBytes(), PfcSpec.defaults().deadlockCheckUs());

    @TempDir
    Path dir;

    private Scenario twoFlowsIntoOneDownlink(long seed) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 1, 1, new LinkSpec(LINK_GBPS, 1000), new LinkSpec(400, 1000));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(true, KMIN, KMAX, 0.2), LOSSLESS);
        return new Scenario("dcqcn-fairness", seed, topo, PacketSpec.defaults(), switches, TestScenarios.lb("ecmp"),
                new ComponentSpec("dcqcn", FAST_SETTLING), new ComponentSpec("go-back-n", new GoBackN.Params(80)),
                ScenarioTweaks.trace(dir, "two-to-one.csv", List.of(ScenarioTweaks.flow(0, 2, 30_000_000), ScenarioTweaks.flow(1, 2, 30_000_000))),
                FailureSpec.defaults(), LimitsSpec.defaults(), new MetricsSpec(5, 2), NicSpec.defaults());
    }

    /** Mean of the samples of series {@code name} taken in [fromPs, toPs]. */
    static double mean(RunResult r, String name, long fromPs, long toPs) {
        TimeSeries s = r.series().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no series '" + name + "' in " + r.series()));
        double sum = 0;
        int n = 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.timesPs()[i] >= fromPs && s.timesPs()[i] <= toPs) {
                sum += s.values()[i];
                n++;
            }
        }
        assertThat(n).as("samples of %s in [%d, %d] ps", name, fromPs, toPs).isGreaterThan(100);
        return sum / n;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void twoFlowsConvergeToHalfTheBottleneckEachWithTheQueueBetweenKminAndKmax(long seed) {
        CheckedRun run = CheckedRun.of(twoFlowsIntoOneDownlink(seed), dir);
        RunResult r = run.result();
        Transport t = run.prepared().transport();

        assertThat(r.flowsFinished()).isEqualTo(2);
        assertThat(r.counters().dropped()).isZero();
        long bothActive = Math.min(r.flowResults().get(0).fctPs(), r.flowResults().get(1).fctPs());
        long from = bothActive / 2;
        double rate0 = mean(r, "rate qp0", from, bothActive);
        double rate1 = mean(r, "rate qp1", from, bothActive);
        double queue = mean(r, "queue.max L->H", from, bothActive);
        double upQueue = mean(r, "queue.max L->S", from, bothActive);
        double downQueue = mean(r, "queue.max S->L", from, bothActive);
        String measured = String.format("seed %d, %.2f-%.2f ms: rate qp0 %.2f Gb/s, qp1 %.2f Gb/s, sum %.2f; bottleneck queue %.1f KB"
                        + " (L->S %.1f KB, S->L %.1f KB); CNPs %d + %d, cuts %d + %d", seed, from / 1e9, bothActive / 1e9, rate0, rate1,
                rate0 + rate1, queue / 1000, upQueue / 1000, downQueue / 1000, t.receiverOf(0).cnps(), t.receiverOf(1).cnps(),
                ((Dcqcn) t.senderOf(0).congestionControl()).cuts(), ((Dcqcn) t.senderOf(1).congestionControl()).cuts());

        // DCQCN was at work: both flows were marked, notified and cut
        assertThat(r.counters().ecnMarks()).as(measured).isPositive();
        for (int q = 0; q < 2; q++) {
            assertThat(t.receiverOf(q).cnps()).as(measured).isPositive();
            assertThat(((Dcqcn) t.senderOf(q).congestionControl()).cuts()).as(measured).isPositive();
        }
        // fair: each flow near half the link, within 10% of each other
        double half = LINK_GBPS / 2;
        assertThat(Math.abs(rate0 - rate1)).as("rate difference; " + measured).isLessThanOrEqualTo(0.10 * half);
        assertThat(rate0).as("qp0 rate; " + measured).isBetween(0.9 * half, 1.1 * half);
        assertThat(rate1).as("qp1 rate; " + measured).isBetween(0.9 * half, 1.1 * half);
        // efficient: together they fill the bottleneck
        assertThat(rate0 + rate1).as("rate sum; " + measured).isBetween(0.9 * LINK_GBPS, 1.02 * LINK_GBPS);
        // the queue sits in the marking band, and mostly at the receiver's downlink
        assertThat(queue).as("time-average bottleneck queue; " + measured).isBetween((double) KMIN, (double) KMAX);
        // (PFC pauses the spine's downlink whenever the leaf's ingress passes XOFF, so a little waits there)
        assertThat(Math.max(upQueue, downQueue)).as("queues before the bottleneck; " + measured).isLessThan(queue / 4);
    }
}
