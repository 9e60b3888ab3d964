package org.lbsim.lb.flowlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.topology.Topology;

/**
 * CONGA on 3 leaves and 2 spines (h0, h1 under l0; h2, h3 under l1; h4, h5 under l2), every queue
 * pair paced at 50 Gb/s. The link l2-s1 is down, so l2's two flows to h2 fill s0's link to l1, a
 * congestion l0 cannot see locally: only the CE that l1 feeds back in its own data to l0 tells it.
 * The flowlet timeout is 1 ns so every packet of the watched flow h0 -> h3 is a new flowlet.
 */
class CongaTest {
    @TempDir
    Path dir;

    private PreparedRun run(LoadBalancer scheme, boolean reverseTraffic) throws Exception {
        Path file = dir.resolve("flows.csv");
        String flows = "src,dst,bytes,start_ns\n4,2,5000000,0\n5,2,5000000,0\n0,3,5000000,0\n" + (reverseTraffic ? "3,1,5000000,0\n" : "");
        Files.writeString(file, flows);
        PreparedRun run = Lbsim.scenario().leafSpine(2, 3, 2).linkRateGbps(100).linkDelayNs(1000).trace(file.toString()).seed(3)
                .set("packets.mtuBytes", 1000).congestionControl("fixed-rate").set("congestionControl.rateGbps", 50)
                .lossRecovery("go-back-n").failLink("l2", "s1").prepare(scheme);
        run.run();
        Invariants.check(run);
        return run;
    }

    /** Share of the bytes l0 sent upwards that went to s1. */
    private static double shareViaS1(PreparedRun run) {
        Topology t = run.topology();
        int l0 = t.nodeByName("l0");
        long s0 = run.network().txBytes(t.portsBetween(l0, t.nodeByName("s0"))[0]);
        long s1 = run.network().txBytes(t.portsBetween(l0, t.nodeByName("s1"))[0]);
        return (double) s1 / (s0 + s1);
    }

    private static Conga conga() {
        return new Conga(new Conga.Params(0.001, 50, 0.2, 3, 500, 4));
    }

    /** The paced flow of {@link LetFlowTest}: every gap 90 us (one flowlet) or 200 us (one flowlet per packet) against a 100 us timeout. */
    @ParameterizedTest(name = "{0} Gb/s -> gap {1} us")
    @CsvSource({"0.0962, 90", "0.0433, 200"})
    void theSourceToRCountsAFlowletPerGapLongerThanTheTimeoutAndTheFlowsFirstPacket(double rateGbps, double gapUs) throws Exception {
        Conga conga = new Conga(new Conga.Params(100, 50, 0.2, 3, 500, 4));
        LetFlowTest.Paced paced = LetFlowTest.pacedWith(dir, rateGbps, conga);
        long[] up = LetFlowTest.uplinkBytes(paced.run());
        long flowlets = gapUs < 100 ? 1 : LetFlowTest.PACKETS;
        assertThat(conga.flowlets()).isEqualTo(flowlets);
        assertThat(conga.flowletTimeouts()).isEqualTo(flowlets - 1);
        assertThat(Math.min(up[0], up[1]) == 0).as("one flowlet, one uplink").isEqualTo(flowlets == 1);
        assertThat(conga.feedbackCarried()).as("nothing flows back from l1").isZero();
        java.util.Map<String, Number> reported = paced.result().schemeCounters();
        assertThat(reported.get("conga.flowlets").longValue()).isEqualTo(flowlets);
        assertThat(reported.get("conga.flowletTimeouts").longValue()).isEqualTo(flowlets - 1);
        assertThat(reported.get("conga.feedbackCarried").longValue()).isZero();
    }

    @Test
    void withFeedbackFromTheDestinationLeafFlowletsLeaveTheRemotelyCongestedPath() throws Exception {
        Conga withFeedback = conga();
        double fed = shareViaS1(run(withFeedback, true));
        Conga blind = conga();
        double unfed = shareViaS1(run(blind, false));
        double letflow = shareViaS1(run(new LetFlow(new LetFlow.Params(0.001)), true));

        assertThat(withFeedback.feedbackCarried()).as("l1's data to l0 carried CE entries").isGreaterThan(0);
        assertThat(blind.feedbackCarried()).as("nothing goes from l1 to l0 without the reverse flow").isZero();
        assertThat(fed).as("fed back, l0 moves h0's flowlets to s1").isGreaterThan(0.8);
        assertThat(unfed).as("without feedback l0 sees only its own idle uplinks and spreads").isLessThan(0.7);
        assertThat(letflow).as("LetFlow ignores congestion").isBetween(0.35, 0.65);
    }
}
