package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/**
 * PRO's simulated fabric read as the text counts it (VI-A: 16 ToRs, 8 Aggrs, 128 servers; VI-B: "a
 * total of 1024 links among all switches"): 8 parallel links per ToR-Aggr pair. Every parallel link is
 * a path of its own: a ToR has 64 uplinks (the PathID's low 6 bits, V) and an Aggr 8 links down to each
 * ToR, of which the PathID's high 6 bits choose one (V: "the higher 6 bits indicate Aggr egress ports";
 * III-A: a path is (I_t, I_a), the uplink of the ToR and the downlink of the Aggr), so M = 512.
 */
class ProParallelLinksTest {
    private static final long FRAME = 1000 + 62;

    private static Path oneFlow(long bytes) throws Exception {
        Path f = Files.createTempFile("pro-parallel", ".csv");
        Files.writeString(f, "src,dst,bytes,start_ns\n0,8," + bytes + ",0\n");
        f.toFile().deleteOnExit();
        return f;
    }

    private static PreparedRun paperFabric(long bytes, String start) throws Exception {
        return Lbsim.scenario().leafSpine(8, 16, 8).set("topology.linksPerLeafSpine", 8).linkRateGbps(200).scheme("pro")
                .set("loadBalancing.roundRobinStart", start).set("packets.mtuBytes", 1000).trace(oneFlow(bytes).toString()).seed(1).prepare();
    }

    @Test
    void thePathSetHas512PathsEachADistinctUplinkAndAggrDownlinkPair() throws Exception {
        Topology t = paperFabric(1000, Pro.Params.ZERO).topology();
        ProFabric f = new ProFabric(t);
        assertThat(f.uplinks).isEqualTo(64);
        assertThat(f.downlinks).isEqualTo(8);
        assertThat(f.paths).isEqualTo(512);
        Set<Integer> ids = new HashSet<>();
        Set<Long> portPairs = new HashSet<>();
        int tor = t.nodeByName("l0");
        int[] up = f.torUplinks(tor);
        assertThat(new HashSet<>(java.util.Arrays.stream(up).boxed().toList())).as("64 different uplink ports").hasSize(64);
        for (int i = 0; i < 512; i++) {
            int id = f.pathIdOfIndex[i];
            assertThat(ids.add(id)).isTrue();
            assertThat(f.indexOfPathId[id]).isEqualTo(i);
            int u = PathIds.torUplink(id);
            int d = PathIds.aggrDownlink(id);
            assertThat(u).isBetween(0, 63);
            assertThat(d).isBetween(0, 7);
            int aggr = t.peerNode(up[u]);
            int down = f.downlinksTo(aggr, t.nodeByName("l1"))[d];
            assertThat(portPairs.add((long) up[u] << 32 | down)).as("path %d: uplink port %d, Aggr port %d", i, up[u], down).isTrue();
        }
    }

    /**
     * One queue pair from l0 to l1 sends 576 packets from path 0 (a zero start): a whole round of the 512
     * paths and the 64 paths of PathID downlink field 0. Every uplink of l0 carries 9 of them; each Aggr
     * sends 16 down its parallel link 0 to l1 and 8 down each of its links 1-7: the Aggr obeys the PathID's
     * high bits (adaptive routing among the 8 equal links would not give these counts).
     */
    @Test
    void theAggrSendsEachPacketDownTheParallelLinkItsPathIdNames() throws Exception {
        PreparedRun run = paperFabric(576_000, Pro.Params.ZERO);
        RunResult r = run.run();
        assertThat(r.flowsFinished()).isEqualTo(1);
        assertThat(Invariants.violations(run)).isEmpty();
        Topology t = run.topology();
        int l0 = t.nodeByName("l0");
        int l1 = t.nodeByName("l1");
        for (int s = 0; s < 8; s++) {
            int spine = t.nodeByName("s" + s);
            for (int port : t.portsBetween(l0, spine)) {
                assertThat(run.network().txBytes(port)).as("l0 -> s%d port %d", s, port).isEqualTo(9 * FRAME);
            }
            int[] down = t.portsBetween(spine, l1);
            assertThat(down).hasSize(8);
            for (int d = 0; d < 8; d++) {
                assertThat(run.network().txBytes(down[d])).as("s%d -> l1, parallel link %d", s, d).isEqualTo((d == 0 ? 16 : 8) * FRAME);
            }
        }
    }

    /** Whole rounds of the 512 paths spread a queue pair exactly evenly over l0's 64 uplinks and the 64 links into l1, from any start. */
    @Test
    void wholeRoundsSpreadEvenlyOverAllUplinksAndAllAggrDownlinksFromARandomStart() throws Exception {
        PreparedRun run = paperFabric(2_048_000, Pro.Params.RANDOM);
        assertThat(run.run().flowsFinished()).isEqualTo(1);
        Topology t = run.topology();
        for (int s = 0; s < 8; s++) {
            int spine = t.nodeByName("s" + s);
            for (int port : t.portsBetween(t.nodeByName("l0"), spine)) {
                assertThat(run.network().txBytes(port)).isEqualTo(32 * FRAME);
            }
            for (int port : t.portsBetween(spine, t.nodeByName("l1"))) {
                assertThat(run.network().txBytes(port)).isEqualTo(32 * FRAME);
            }
        }
    }
}
