package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.topology.Topology;
import org.lbsim.transport.HostStack;
import org.lbsim.transport.Transport;

/**
 * A two-NIC server with queue pairs on both NICs: server 0 sends one connection from each of its
 * NICs to the same-index NIC of server 2, each connection split over two queue pairs. Every data
 * frame of a queue pair leaves on the NIC its connection is bound to, both NICs carry their whole
 * connection, and every frame is accounted for (CheckedRun's conservation invariants).
 */
class MultiNicServerTest {
    private static final LinkSpec L = new LinkSpec(400, 1000);
    private static final long BYTES = 64 * 4096 + 100; // two queue pairs of 131122 B: 33 frames each

    @TempDir
    Path dir;

    static TopologySpec fabric(String kind) {
        return switch (kind) {
            // single-rail: 4 NIC ports per leaf = 2 servers of 2 NICs; server 2 is under l1
            case "leaf-spine" -> new TopologySpec.LeafSpine(4, 2, 2, 2, 1, L, L);
            // rail-optimized: one group of 4 servers, NIC 0 on l0, NIC 1 on l1
            case "rail-leaf-spine" -> new TopologySpec.RailLeafSpine(4, 1, 2, 2, 1, L, L);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"leaf-spine", "rail-leaf-spine"})
    void eachQueuePairLeavesOnTheNicItsConnectionIsBoundTo(String kind) {
        Topology t = org.lbsim.topology.Topologies.build(fabric(kind));
        int nic0 = t.endpoint(0, 0);
        int nic1 = t.endpoint(0, 1);
        int peer0 = t.endpoint(2, 0);
        int peer1 = t.endpoint(2, 1);
        Scenario base = TestScenarios.scenario(fabric(kind), "host-spray",
                trace(dir, "two-nics.csv", List.of(new long[] {nic0, peer0, BYTES, 0}, new long[] {nic1, peer1, BYTES, 0})), 7);
        Scenario s = new Scenario(base.name(), base.seed(), base.topology(), base.packets(), base.switches(), base.loadBalancing(),
                base.congestionControl(), base.lossRecovery(), base.workload(), base.failures(), base.limits(), base.metrics(),
                new NicSpec(2, 1));
        int[][] framesByQpAndNic = new int[4][t.hostCount()];
        CheckedRun run = CheckedRun.of(s, dir, prepared -> tap(prepared, framesByQpAndNic));

        assertThat(run.result().flowsFinished()).isEqualTo(2);
        Transport transport = run.prepared().transport();
        assertThat(transport.flowCount()).as("queue pairs").isEqualTo(4);
        int[] boundNic = {nic0, nic1};
        for (int qp = 0; qp < 4; qp++) {
            int connection = transport.connectionOf(qp);
            for (int h = 0; h < t.hostCount(); h++) {
                if (h == boundNic[connection]) {
                    assertThat(framesByQpAndNic[qp][h]).as("frames of qp %d on its NIC h%d", qp, h).isPositive();
                } else {
                    assertThat(framesByQpAndNic[qp][h]).as("frames of qp %d on h%d", qp, h).isZero();
                }
            }
        }
        // both NICs of server 0 carry their connection's 66 frames (erasure, no loss: nothing resent),
        // and the two NICs of server 2 receive them
        var network = run.prepared().network();
        assertThat(network.nic(nic0).txPackets()).isEqualTo(66);
        assertThat(network.nic(nic1).txPackets()).isEqualTo(66);
        assertThat(network.nic(peer0).rxPackets()).isEqualTo(66);
        assertThat(network.nic(peer1).rxPackets()).isEqualTo(66);
        for (int h = 0; h < t.hostCount(); h++) {
            if (h != nic0 && h != nic1 && h != peer0 && h != peer1) {
                assertThat(network.nic(h).txPackets() + network.nic(h).rxPackets()).as("idle NIC h%d", h).isZero();
            }
        }
        assertThat(t.serverOf(nic0)).isEqualTo(t.serverOf(nic1));
        assertThat(t.hostSwitch(nic0) == t.hostSwitch(nic1)).isEqualTo(kind.equals("leaf-spine"));
    }

    /** Counts, per queue pair, the data frames each host endpoint's NIC puts on the wire. */
    private static void tap(PreparedRun run, int[][] framesByQpAndNic) {
        for (int h = 0; h < run.topology().hostCount(); h++) {
            HostStack stack = run.transport().stack(h);
            int host = h;
            run.network().nic(h).attach(new PacketSource() {
                @Override
                public Packet poll(long nowPs) {
                    Packet p = stack.poll(nowPs);
                    if (p != null && p.kind == Packet.DATA) {
                        framesByQpAndNic[p.flow][host]++;
                    }
                    return p;
                }

                @Override
                public long nextReadyPs(long nowPs) {
                    return stack.nextReadyPs(nowPs);
                }

                @Override
                public void deliver(Packet p) {
                    stack.deliver(p);
                }
            });
        }
    }
}
