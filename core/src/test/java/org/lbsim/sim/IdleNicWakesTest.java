package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.net.Nic;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.GoBackN;
import org.lbsim.transport.IdealErasure;
import org.lbsim.transport.NicSelectiveRepeat;
import org.lbsim.transport.SackThreshold;

/**
 * A NIC leaves out the wake-ups whose outcome is known (the one at the end of a frame's gap
 * when its stack is empty and nothing can reach it by then, and the one an ACK would ask for when its
 * queue pair has nothing left to send). The run must be the exact path's to the picosecond, NIC by NIC
 * and port by port, with fewer events; and no kick may ever land in a window whose wake-up was left out
 * (that would mean the proof is wrong). Differential over seeded random small fabrics with every loss
 * recovery, paced and reactive senders, dependent flows (a ring all-reduce), drops, failures from time
 * zero and time limits (the fabrics of {@link HandOnAtEnqueueTest}).
 */
class IdleNicWakesTest {

    /** {@link HandOnAtEnqueueTest#random}'s fabric with a random transport and, sometimes, a collective. */
    static Scenario random(long seed) {
        Scenario s = HandOnAtEnqueueTest.random(seed);
        SplittableRandom r = new SplittableRandom(seed * 7919 + 13);
        ComponentSpec recovery = switch (r.nextInt(6)) {
            case 0, 1 -> TestScenarios.erasure();
            case 2 -> new ComponentSpec("erasure", new IdealErasure.Params(20, false, IdealErasure.END_SRTT_AFTER_PASS));
            case 3 -> new ComponentSpec("sack", new SackThreshold.Params(3, 12.75));
            case 4 -> new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80));
            default -> new ComponentSpec("go-back-n", new GoBackN.Params(80));
        };
        ComponentSpec cc = switch (r.nextInt(4)) {
            case 0, 1 -> TestScenarios.lineRate();
            case 2 -> new ComponentSpec("fixed-rate", new FixedRate.Params(false, 100 + r.nextInt(300)));
            default -> new ComponentSpec("dcqcn", Dcqcn.Params.defaults());
        };
        WorkloadSpec w = r.nextInt(4) == 0
                ? new WorkloadSpec.Collective("all-reduce", "ring", 4096L * (16 + r.nextInt(64)), 0, "packed", 1, 0, 1, 0)
                : s.workload();
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), cc, recovery, w,
                s.failures(), s.limits(), s.metrics(), s.nic(), s.trafficClasses());
    }

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, 40).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void leavingOutKnownWakeUpsGivesTheExactRunWithNoMoreEvents(long seed) {
        ExactAndFast runs = ExactAndFast.runOrNull(random(seed));
        if (runs == null) {
            return; // random link failures cut a host off: rejected at build time, nothing to compare
        }
        CheckedRun exact = runs.exact();
        CheckedRun fast = runs.fast();
        Network ne = exact.prepared().network();
        Network nf = fast.prepared().network();
        assertThat(ne.nicWakesSkipped()).isZero();

        RunResult a = exact.result();
        RunResult b = fast.result();
        assertThat(b.flowResults()).isEqualTo(a.flowResults());
        assertThat(b.layers()).isEqualTo(a.layers());
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs", "counters.events").isEqualTo(a);
        assertThat(b.counters().events()).isLessThanOrEqualTo(a.counters().events());
        for (int h = 0; h < exact.prepared().topology().hostCount(); h++) {
            Nic x = ne.nic(h);
            Nic y = nf.nic(h);
            assertThat(y.txPackets()).as("frames sent by host %d", h).isEqualTo(x.txPackets());
            assertThat(y.txBytes()).as("bytes sent by host %d", h).isEqualTo(x.txBytes());
            assertThat(y.rxPackets()).as("frames received by host %d", h).isEqualTo(x.rxPackets());
        }
        for (int p = 0; p < exact.prepared().topology().portCount(); p++) {
            EgressPort e = ne.egress(p);
            if (e != null) {
                EgressPort f = nf.egress(p);
                assertThat(f.drops()).as("drops at port %d", p).isEqualTo(e.drops());
                assertThat(f.ecnMarks()).as("ECN marks at port %d", p).isEqualTo(e.ecnMarks());
                assertThat(f.maxQueueBytes()).as("max queue at port %d", p).isEqualTo(e.maxQueueBytes());
                assertThat(f.txBytes()).as("bytes sent by port %d", p).isEqualTo(e.txBytes());
            }
        }
        assertThat(nf.nicKicksInSkippedWindows()).as("kicks inside a left-out wake-up's window").isZero();
    }

    /** The random fabrics above do exercise the mechanism: most runs leave wake-ups out. */
    @Test
    void mostRandomRunsLeaveWakeUpsOut() {
        int runs = 0;
        int skipping = 0;
        for (long seed = 1; seed <= 40; seed++) {
            Scenario s;
            try {
                s = random(seed);
                Simulation.prepare(s, null);
            } catch (org.lbsim.scenario.ScenarioException partitioned) {
                continue;
            }
            PreparedRun run = Simulation.prepare(s, null);
            run.run();
            runs++;
            skipping += run.network().nicWakesSkipped() > 0 ? 1 : 0;
        }
        assertThat(runs).isGreaterThan(30);
        assertThat(skipping).isGreaterThan(runs / 2);
    }

    /**
     * S2's pattern at k = 4: erasure senders at line rate that have sent their whole message still get
     * ACKs, and receivers send ACKs from otherwise idle NICs. Both wake-ups go: fewer NIC events than
     * with the NICs exact, and the same run.
     */
    @Test
    void acksToFinishedSendersAndFromIdleReceiversWakeNoNic() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(64 * 4096, 0), 3);
        PreparedRun fast = Simulation.prepare(s, null);
        RunResult b = fast.run();
        RunResult a = Simulation.prepareExact(s, null).run();
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs", "counters.events").isEqualTo(a);
        long skipped = fast.network().nicWakesSkipped();
        assertThat(skipped).isPositive();
        assertThat(fast.network().nicKicksInSkippedWindows()).isZero();
        // exact ports cost one event per hop more; skipped NIC wake-ups come off on top of that
        assertThat(b.counters().events()).isLessThan(a.counters().events() - skipped);
    }

    /** A lossless fabric can pause and resume a NIC: no wake-up is left out there. */
    @Test
    void pfcKeepsEveryNicWakeUp() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-spray", new WorkloadSpec.Permutation(16 * 4096, 0), 3);
        Scenario lossless = ScenarioTweaks.withSwitches(s, new SwitchSpec(new BufferSpec.PerPort(800_000), EcnSpec.defaults(),
                new PfcSpec(true, 200_000, 180_000, 0, 120_000, 100)));
        PreparedRun run = Simulation.prepare(lossless, null);
        run.run();
        assertThat(run.network().lossless()).isTrue();
        assertThat(run.network().nicWakesSkipped()).isZero();
    }
}
