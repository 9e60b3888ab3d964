package org.lbsim.lb.flowlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.topology.Topology;

/**
 * LetFlow on a 2-leaf, 2-spine fabric: one flow h0 -> h2 paced by a fixed-rate sender, so the gap
 * between its packets is set exactly (1062 B frames + 20 B gap on the wire).
 */
class LetFlowTest {
    static final int PACKETS = 40;

    @TempDir
    Path dir;

    /** A run and its result. */
    record Paced(PreparedRun run, RunResult result) {
    }

    static long[] uplinkBytes(PreparedRun run) {
        Topology t = run.topology();
        int l0 = t.nodeByName("l0");
        return new long[] {run.network().txBytes(t.portsBetween(l0, t.nodeByName("s0"))[0]),
                run.network().txBytes(t.portsBetween(l0, t.nodeByName("s1"))[0])};
    }

    @Test
    void aFlowAtLineRateIsOneFlowletOnOnePath() throws Exception {
        LetFlow lf = new LetFlow(new LetFlow.Params(100));
        Paced paced = pacedWith(dir, 100, lf);
        long[] up = uplinkBytes(paced.run());
        assertThat(lf.flowlets()).isEqualTo(1);
        assertThat(lf.flowletTimeouts()).isZero();
        assertThat(paced.result().schemeCounters().get("letflow.flowlets").longValue()).isEqualTo(1);
        assertThat(Math.min(up[0], up[1])).as("one uplink carries the whole flow").isZero();
        assertThat(Math.max(up[0], up[1])).isEqualTo(PACKETS * 1062L);
    }

    /** Gap between packet starts = 1082 B x 8 / rate; a flowlet ends when that exceeds the timeout. */
    @ParameterizedTest(name = "{0} Gb/s -> gap {1} us")
    @CsvSource({"0.0962, 90", "0.0787, 110", "0.0433, 200"})
    void aGapLongerThanTheTimeoutStartsANewFlowletOnARandomPath(double rateGbps, double gapUs) throws Exception {
        LetFlow lf = new LetFlow(new LetFlow.Params(100));
        Paced paced = pacedWith(dir, rateGbps, lf);
        long[] up = uplinkBytes(paced.run());
        if (gapUs < 100) {
            assertThat(lf.flowlets()).as("gaps under 100 us keep one flowlet").isEqualTo(1);
            assertThat(Math.min(up[0], up[1])).isZero();
        } else {
            assertThat(lf.flowlets()).as("every packet after a gap over 100 us is a new flowlet").isEqualTo(PACKETS);
            assertThat(lf.flowletTimeouts()).isEqualTo(PACKETS - 1);
            assertThat(paced.result().schemeCounters().get("letflow.flowletTimeouts").longValue()).isEqualTo(PACKETS - 1);
            assertThat(Math.min(up[0], up[1])).as("random paths: 40 flowlets use both uplinks").isGreaterThan(0);
        }
        assertThat(up[0] + up[1]).isEqualTo(PACKETS * 1062L);
    }

    /** At 80 Mb/s the packets start 1082 B x 8 / 80 Mb/s = 108.2 us apart exactly: a gap equal to the timeout keeps the flowlet, 1 ps more ends it. */
    @Test
    void aGapOfExactlyTheTimeoutKeepsTheFlowlet() throws Exception {
        LetFlow equal = new LetFlow(new LetFlow.Params(108.2));
        pacedWith(dir, 0.08, equal);
        assertThat(equal.flowlets()).isEqualTo(1);
        LetFlow shorter = new LetFlow(new LetFlow.Params(108.199999));
        pacedWith(dir, 0.08, shorter);
        assertThat(shorter.flowlets()).isEqualTo(PACKETS);
        assertThat(shorter.flowletTimeouts()).isEqualTo(PACKETS - 1);
    }

    /** 200 one-packet queue pairs h0 -> h2, then one h2 -> h0 (queue pair 200, the first l1 sees): one flowlet each. */
    @Test
    void everyQueuePairsFirstPacketIsAFlowletAlsoPastTheFirstEntriesOfTheTable() throws Exception {
        StringBuilder trace = new StringBuilder("src,dst,bytes,start_ns\n");
        for (int q = 0; q < 200; q++) {
            trace.append("0,2,1000,0\n");
        }
        trace.append("2,0,1000,0\n");
        Path file = dir.resolve("many.csv");
        Files.writeString(file, trace);
        LetFlow lf = new LetFlow(new LetFlow.Params(100));
        PreparedRun run = Lbsim.scenario().leafSpine(2, 2, 2).linkRateGbps(100).linkDelayNs(1000).trace(file.toString()).seed(5)
                .set("packets.mtuBytes", 1000).lossRecovery("go-back-n").prepare(lf);
        assertThat(run.run().flowsFinished()).isEqualTo(201);
        Invariants.check(run);
        assertThat(lf.flowlets()).isEqualTo(201);
        assertThat(lf.flowletTimeouts()).isZero();
    }

    /** The flow h0 -> h2 of {@link #PACKETS} packets at {@code rateGbps} under {@code scheme}, run and checked. */
    static Paced pacedWith(Path dir, double rateGbps, LoadBalancer scheme) throws Exception {
        Path file = dir.resolve("one.csv");
        Files.writeString(file, "src,dst,bytes,start_ns\n0,2," + PACKETS * 1000 + ",0\n");
        PreparedRun run = Lbsim.scenario().leafSpine(2, 2, 2).linkRateGbps(100).linkDelayNs(1000).trace(file.toString()).seed(5)
                .set("packets.mtuBytes", 1000).congestionControl("fixed-rate").set("congestionControl.rateGbps", rateGbps)
                .lossRecovery("go-back-n").prepare(scheme);
        RunResult result = run.run();
        Invariants.check(run);
        assertThat(run.network().delivered()).isGreaterThanOrEqualTo(2 * PACKETS);
        return new Paced(run, result);
    }
}
