package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.topology.Topology;

/** Themis-S at the source ToR: P_base per flow and Eq. 1 as the ToR applies them, and the fallback on a fat tree's PathMap path. */
class ThemisTorWiringTest {
    @TempDir
    Path dir;

    @Test
    void theSourceToRSendsPsnIOnUplinkIModNPlusTheFlowsBaseAndTheBasesCoverEveryUplink() throws Exception {
        Path trace = dir.resolve("one.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,2,4096,0\n");
        Themis themis = new Themis(Themis.Params.defaults());
        PreparedRun run = Lbsim.scenario().leafSpine(2, 2, 4).trace(trace.toString()).lossRecovery("nic-sr").seed(3).prepare(themis);
        Topology t = run.topology();
        int l0 = t.nodeByName("l0");
        ThemisTor tor = themis.tor(l0);
        int[] uplinks = new int[4];
        for (int s = 0; s < 4; s++) {
            uplinks[s] = t.portsBetween(l0, t.nodeByName("s" + s))[0];
        }
        PacketPool pool = new PacketPool();
        Set<Integer> bases = new HashSet<>();
        for (int src = 0; src < 2; src++) {
            for (int entropy = 0; entropy < 32; entropy++) {
                Packet p = pool.acquire();
                p.kind = Packet.DATA;
                p.src = src;
                p.dst = 2 + entropy % 2;
                p.entropy = entropy;
                p.ingressPort = t.portsBetween(l0, t.nodeByName("h" + src))[0];
                int base = tor.basePath(p, 4);
                assertThat(base).isBetween(0, 3);
                bases.add(base);
                for (int psn = 0; psn < 8; psn++) {
                    p.psn = psn;
                    assertThat(tor.basePath(p, 4)).as("P_base does not depend on the PSN").isEqualTo(base);
                    assertThat(tor.select(p, 0, uplinks, 0, 4)).as("Eq. 1 for PSN %d, P_base %d", psn, base)
                            .isEqualTo(uplinks[(psn % 4 + base) % 4]);
                }
                pool.release(p);
            }
        }
        assertThat(bases).as("64 flows' P_base over 4 uplinks").containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void onAFatTreeTheSourceToRWhoseRewrittenPathMeetsAFailedUplinkFallsBackToEcmp() throws Exception {
        // k = 4: the PathMap reading (3.2, source-port rewrite); e0's uplink to a0 fails at 5 us and routing never converges,
        // so only e0 knows: the first packet whose rewritten header hashes onto the failed link makes it fall back (section 6);
        // ECMP then still hashes some packets onto the failed link until routing converges, so the flow does not finish here
        Path trace = dir.resolve("cross.csv");
        Files.writeString(trace, "src,dst,bytes,start_ns\n0,15,1000000,0\n");
        Themis themis = new Themis(Themis.Params.defaults());
        PreparedRun run = Lbsim.scenario().fatTree(4).trace(trace.toString()).lossRecovery("nic-sr").seed(3)
                .set("failures.events", List.of(Map.of("atUs", 5, "link", Map.of("a", "e0", "b", "a0"), "action", "down")))
                .set("failures.convergenceDelayNs", -1).set("limits.maxTimeUs", 50).prepare(themis);
        RunResult r = run.run();
        Invariants.check(run);
        assertThat(themis.counters().get("themis.torsFallenBackToEcmp")).isEqualTo(1);
        assertThat(r.failureEvents()).hasSize(1);
    }
}
