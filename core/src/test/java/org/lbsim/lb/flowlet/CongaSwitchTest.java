package org.lbsim.lb.flowlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.net.Packet;
import org.lbsim.sim.PreparedRun;
import org.lbsim.testing.TorBench;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * One ToR's CONGA program driven packet by packet (conga-routing.cc), on 2 leaves and 2 spines with
 * 100 Gb/s uplinks and 25 Gb/s host links (h0, h1 under l0; h2, h3 under l1), built on l0's switch with a random stream the test
 * mirrors. With Tdre 50 us and alpha 0.2 a full DRE register holds 100 Gb/s x 50 us / 0.2 = 3 125 000
 * bytes (an uplink's register), so with 3 bits the CE steps every 390 625 bytes; frames are 1062 bytes. The run's own
 * traffic starts only after everything here.
 */
class CongaSwitchTest {
    static final long US = 1_000_000;
    static final long SEED = 11;
    static final int FRAME_BYTES = 1062;

    @TempDir
    Path dir;

    PreparedRun run;
    Topology t;
    TorBench bench;
    int l0;
    /** l0's uplinks in its FIB group towards l1: path k leaves on up[k]. */
    int[] up;

    private Conga.CongaSwitch program(int candidatePaths) throws Exception {
        Conga conga = new Conga(new Conga.Params(100, 50, 0.2, 3, 500, candidatePaths));
        run = Lbsim.scenario().leafSpine(2, 2, 2).linkRateGbps(100).linkDelayNs(1000).set("topology.hostLink.rateGbps", 25)
                .trace(TorBench.lateTrace(dir, 0, 2)).seed(1).prepare(conga);
        bench = new TorBench(run);
        t = bench.t;
        assertThat(t.rateMbps(t.hostPort(0))).as("host links").isEqualTo(25_000);
        l0 = t.nodeByName("l0");
        Fib fib = run.network().fib();
        int g = fib.group(l0, 2);
        up = new int[] {fib.port(g, 0), fib.port(g, 1)};
        return conga.new CongaSwitch(bench.context(l0, SEED), run.network().switchAt(l0));
    }

    private static SplittableRandom mirror() {
        return new SplittableRandom(SEED).split();
    }

    private void advanceTo(long ps) {
        bench.advanceTo(ps);
    }

    private Packet data(int flow, int src, int dst) {
        return bench.data(flow, src, dst, 0, FRAME_BYTES);
    }

    /** Data of {@code flow} from h0 to h2 as it enters l0, forwarded; returns it as l0 labelled it. */
    private Packet fromH0(Conga.CongaSwitch l0Program, int flow) {
        Packet p = data(flow, 0, 2);
        assertThat(l0Program.onIngress(p, bench.downPort(0))).isTrue();
        return p;
    }

    /** Data from h0 as it enters l0; returns the path l0 gave it. */
    private int send(Conga.CongaSwitch l0Program, int flow) {
        return fromH0(l0Program, flow).pathId;
    }

    /** Data from l1's host h2 to h0 as it reaches l0 over path {@code path}, with CONGA bits {@code bits}. */
    private void arrive(Conga.CongaSwitch l0Program, int path, int bits) {
        Packet p = data(99, 2, 0);
        p.pathId = path;
        p.switchBits = bits;
        assertThat(l0Program.onIngress(p, up[path])).isTrue();
    }

    private static int feedback(int path, int ce) {
        return Conga.FB_VALID | path << 16 | ce << 8;
    }

    @Test
    void aFlowletKeepsItsPathForGapsUpToTheTimeoutAndANewOneTakesOneOfTheTiedPathsAtRandom() throws Exception {
        Conga.CongaSwitch l0Program = program(4);
        SplittableRandom draws = mirror();
        int[] flows = {3, 64, 300}; // within the first 64 entries of the flowlet table, just past them, and past twice as many again
        int[] path = new int[flows.length];
        for (int i = 0; i < flows.length; i++) {
            path[i] = send(l0Program, flows[i]);
            assertThat(path[i]).as("flow %d's first flowlet", flows[i]).isEqualTo(draws.nextInt(2));
        }
        long now = 0;
        Set<Integer> seen = new HashSet<>();
        for (int step = 0; step < 12; step++) {
            boolean newFlowlet = step % 2 == 1;
            now += 100 * US + (newFlowlet ? 1 : 0);
            advanceTo(now);
            for (int i = 0; i < flows.length; i++) {
                if (newFlowlet) {
                    path[i] = draws.nextInt(2);
                }
                assertThat(send(l0Program, flows[i])).as("flow %d at %d ps", flows[i], now).isEqualTo(path[i]);
                seen.add(path[i]);
            }
        }
        assertThat(seen).as("new flowlets go both ways").containsExactlyInAnyOrder(0, 1);
        Packet local = data(5, 0, 1);
        assertThat(l0Program.onIngress(local, bench.downPort(0))).isTrue();
        assertThat(local.pathId).as("within the rack: no path").isEqualTo(-1);
    }

    @Test
    void withOneCandidateANewFlowletTakesTheRandomStartPath() throws Exception {
        Conga.CongaSwitch l0Program = program(1);
        SplittableRandom draws = mirror();
        Set<Integer> seen = new HashSet<>();
        for (int flow = 0; flow < 16; flow++) {
            int start = draws.nextInt(2);
            draws.nextInt(1);
            assertThat(send(l0Program, flow)).isEqualTo(start);
            seen.add(start);
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1);
    }

    /** CE of a data packet on uplink {@code k} after this ToR's DRE for that uplink took it. */
    private int ceOnUplink(Conga.CongaSwitch l0Program, int k, int ceBefore) {
        Packet p = data(1, 0, 2);
        p.pathId = k;
        p.switchBits = ceBefore;
        l0Program.onEnqueue(p, up[k], 0);
        return Conga.ce(p);
    }

    /** The packets onto uplink {@code k} until the CE carried reaches 1, counting the one that does. */
    private int packetsToCe1(Conga.CongaSwitch l0Program, int k) {
        for (int n = 1; ; n++) {
            if (ceOnUplink(l0Program, k, 0) == 1) {
                return n;
            }
        }
    }

    @ParameterizedTest(name = "uplink {0}")
    @ValueSource(ints = {0, 1})
    void theDreAddsTheBytesSentUpAnUplinkDecaysByAlphaEveryTdreAndRaisesTheCarriedCe(int k) throws Exception {
        Conga.CongaSwitch l0Program = program(4);
        for (int h = 0; h < 2; h++) {
            Packet toHost = data(1, 2, h);
            toHost.pathId = 0;
            for (int n = 0; n < 1000; n++) {
                l0Program.onEnqueue(toHost, bench.downPort(h), 0);
            }
            assertThat(Conga.ce(toHost)).as("the port towards h%d keeps no DRE", h).isZero();
        }
        // 368 x 1062 = 390 816 >= 390 625 > 367 x 1062
        assertThat(packetsToCe1(l0Program, k)).isEqualTo(368);
        assertThat(ceOnUplink(l0Program, k, 3)).as("a larger CE from upstream is kept").isEqualTo(3);
        Packet ack = data(1, 0, 2);
        ack.kind = Packet.ACK;
        ack.pathId = k;
        l0Program.onEnqueue(ack, up[k], 0);
        assertThat(Conga.ce(ack)).as("only data carries the CE").isZero();

        // at 50 us: 391 878 x 0.8 = 313 502, then 73 frames make 391 028
        advanceTo(50 * US);
        assertThat(packetsToCe1(l0Program, k)).isEqualTo(73);
        // at 100 us: 391 028 x 0.8 = 312 822, then 74 frames make 391 410
        advanceTo(100 * US);
        assertThat(packetsToCe1(l0Program, k)).isEqualTo(74);
    }

    @Test
    void theDestinationFeedsBackARandomSeenCeAndTheSourceAvoidsAPathWhoseRemoteCeIsHigherUntilItAges() throws Exception {
        Conga.CongaSwitch l0Program = program(4);
        SplittableRandom draws = mirror();
        arrive(l0Program, 0, 0);
        arrive(l0Program, 1, 5);
        // one entry per path seen, CE 0 included; each picked with probability 1/2
        draws.nextInt(1);
        int pick = draws.nextInt(2) == 0 ? 1 : 0;
        Packet first = fromH0(l0Program, 0);
        assertThat(first.switchBits).isEqualTo(feedback(pick, pick == 1 ? 5 : 0));

        // l1 tells l0 that path 0 carries CE 6, then sends data without feedback, which changes nothing
        arrive(l0Program, 1, feedback(0, 6));
        arrive(l0Program, 1, 0);
        for (int flow = 1; flow <= 8; flow++) {
            assertThat(send(l0Program, flow)).as("flow %d avoids path 0", flow).isEqualTo(1);
        }
        advanceTo(500 * US);
        advanceTo(500 * US + 1);
        for (int flow = 9; flow <= 16; flow++) {
            Packet p = fromH0(l0Program, flow);
            assertThat(p.pathId).as("flow %d: 500 us old is not yet aged", flow).isEqualTo(1);
            assertThat(p.switchBits & Conga.FB_VALID).isNotZero();
        }
        advanceTo(1000 * US + 1);
        Set<Integer> paths = new HashSet<>();
        for (int flow = 17; flow <= 32; flow++) {
            Packet p = fromH0(l0Program, flow);
            assertThat(p.switchBits).as("every entry aged: no feedback").isZero();
            paths.add(p.pathId);
        }
        assertThat(paths).as("the remote CE aged too").containsExactlyInAnyOrder(0, 1);

        // fresh entries at 1100 us are 400 us old at the aging pass of 1500 us, and stay
        advanceTo(1100 * US);
        arrive(l0Program, 0, 0);
        arrive(l0Program, 1, feedback(0, 6));
        advanceTo(1500 * US + 1);
        for (int flow = 33; flow <= 40; flow++) {
            Packet p = fromH0(l0Program, flow);
            assertThat(p.pathId).as("flow %d avoids path 0 again", flow).isEqualTo(1);
            assertThat(p.switchBits & Conga.FB_VALID).isNotZero();
        }
    }
}
