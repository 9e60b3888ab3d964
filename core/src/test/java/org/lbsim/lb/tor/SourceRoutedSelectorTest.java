package org.lbsim.lb.tor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Simulator;
import org.lbsim.lb.EcmpHashSelector;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.spi.SwitchContext;
import org.lbsim.testing.Packets;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * The port selector of LetFlow, CONGA and ConWeave, driven by hand on a k = 8 fat tree (4 hosts per
 * edge, 4 uplinks per edge and per aggregation switch): the source ToR takes the uplink the packet's
 * path index names; later hops and packets without a path hash.
 */
class SourceRoutedSelectorTest {
    private final Topology t = Topologies.fatTree(8, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
    private final Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
    private final TorView tors = new TorView(t);
    private final PacketPool pool = new PacketPool();
    /** The last host, in the last pod: every host of pod 0 reaches it through the core. */
    private final int far = t.hostCount() - 1;

    private SourceRoutedSelector selector(String node, long seed) {
        return new SourceRoutedSelector(new SwitchContext(t.nodeByName(node), t, fib, new SplittableRandom(seed), null, new Simulator()), tors);
    }

    private Packet packet(byte kind, int src, int dst, int pathId, int entropy) {
        Packet p = Packets.data(pool, 0, src, dst, 0, 0);
        p.kind = kind;
        p.pathId = pathId;
        p.entropy = entropy;
        return p;
    }

    /** The port {@code sel} at {@code node} picks for the packet, among the node's group towards its destination. */
    private int choose(PortSelector sel, String node, Packet p) {
        return select(sel, fib, fib.group(t.nodeByName(node), p.dst), p);
    }

    private int select(PortSelector sel, Fib f, int group, Packet p) {
        int port = sel.select(p, group, f.groupPorts(), f.groupOffset(group), f.groupSize(group));
        pool.release(p);
        return port;
    }

    private int[] candidates(String node, int dst) {
        int group = fib.group(t.nodeByName(node), dst);
        return Arrays.copyOfRange(fib.groupPorts(), fib.groupOffset(group), fib.groupOffset(group) + fib.groupSize(group));
    }

    @Test
    void theSourceToRTakesTheUplinkItsPathIndexNames() {
        SourceRoutedSelector e0 = selector("e0", 1);
        int[] up = candidates("e0", far);
        assertThat(up).hasSize(4);
        for (int pathId = 0; pathId < 10; pathId++) {
            assertThat(choose(e0, "e0", packet(Packet.DATA, 1, far, pathId, 7))).as("path %d", pathId).isEqualTo(up[pathId % 4]);
        }
    }

    /** ACKs, other control packets and data without a path index are hashed exactly as switch ECMP with the switch's salt. */
    @Test
    void packetsWithoutAPathIndexAndControlPacketsAreHashedAsEcmp() {
        for (String node : new String[] {"e0", "a0"}) {
            SourceRoutedSelector sel = selector(node, 5);
            EcmpHashSelector ecmp = new EcmpHashSelector(fib, new SplittableRandom(5).nextLong());
            for (int entropy = 0; entropy < 32; entropy++) {
                assertThat(choose(sel, node, packet(Packet.DATA, 1, far, -1, entropy)))
                        .isEqualTo(choose(ecmp, node, packet(Packet.DATA, 1, far, -1, entropy)));
                assertThat(choose(sel, node, packet(Packet.ACK, 1, far, 2, entropy)))
                        .isEqualTo(choose(ecmp, node, packet(Packet.ACK, 1, far, 2, entropy)));
            }
        }
    }

    /** At a later hop (an aggregation switch of the source pod) one flow's 256 path indices spread over the 4 core uplinks, the same way every time. */
    @Test
    void aLaterHopSpreadsPathIndicesEvenlyOverItsCandidatesAndRepeatsItsChoice() {
        SourceRoutedSelector a0 = selector("a0", 3);
        int[] up = candidates("a0", far);
        assertThat(up).hasSize(4);
        int[] perPort = new int[4];
        for (int pathId = 0; pathId < 256; pathId++) {
            int port = choose(a0, "a0", packet(Packet.DATA, 0, far, pathId, 0));
            assertThat(choose(a0, "a0", packet(Packet.DATA, 0, far, pathId, 0))).isEqualTo(port);
            int index = Arrays.stream(up).boxed().toList().indexOf(port);
            assertThat(index).as("path %d: port %d is a candidate", pathId, port).isNotNegative();
            perPort[index]++;
        }
        // 64 expected per port; P(|X - 64| > 24) < 0.001 for a fair binomial(256, 1/4)
        for (int n : perPort) {
            assertThat(n).isBetween(40, 88);
        }
    }

    /** Varying one input alone (path index, source, destination, entropy, or the switch's random salt) moves packets between ports. */
    @Test
    void aLaterHopsChoiceDependsOnThePathTheFlowAndTheSwitch() {
        SourceRoutedSelector a0 = selector("a0", 3);
        Set<Integer> byPath = new HashSet<>();
        Set<Integer> bySource = new HashSet<>();
        Set<Integer> byDestination = new HashSet<>();
        Set<Integer> byEntropy = new HashSet<>();
        Set<Integer> bySalt = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            byPath.add(choose(a0, "a0", packet(Packet.DATA, 0, far, i, 0)));
            bySource.add(choose(a0, "a0", packet(Packet.DATA, i, far, 0, 0)));
            byDestination.add(choose(a0, "a0", packet(Packet.DATA, 0, far - i, 0, 0)));
            byEntropy.add(choose(a0, "a0", packet(Packet.DATA, 0, far, 0, i)));
            bySalt.add(choose(selector("a0", 100 + i), "a0", packet(Packet.DATA, 0, far, 0, 0)));
        }
        assertThat(byPath).hasSizeGreaterThan(2);
        assertThat(bySource).hasSizeGreaterThan(2);
        assertThat(byDestination).hasSizeGreaterThan(2);
        assertThat(byEntropy).hasSizeGreaterThan(2);
        assertThat(bySalt).hasSizeGreaterThan(2);
    }

    /** After a routing change, packets without a path are hashed over the new FIB's groups. */
    @Test
    void aRoutingChangeReachesTheEcmpHash() {
        boolean[] down = new boolean[t.linkCount()];
        int[] up = candidates("e0", far);
        down[t.linkOf(up[0])] = true;
        Fib after = Routing.compute(t, down);
        SourceRoutedSelector e0 = selector("e0", 9);
        e0.onRoutingChange(after);
        EcmpHashSelector fresh = new EcmpHashSelector(after, new SplittableRandom(9).nextLong());
        EcmpHashSelector stale = new EcmpHashSelector(fib, new SplittableRandom(9).nextLong());
        int group = after.group(t.nodeByName("e0"), far);
        int differ = 0;
        for (int entropy = 0; entropy < 64; entropy++) {
            int chosen = select(e0, after, group, packet(Packet.ACK, 1, far, -1, entropy));
            assertThat(chosen).isEqualTo(select(fresh, after, group, packet(Packet.ACK, 1, far, -1, entropy)));
            differ += chosen != select(stale, after, group, packet(Packet.ACK, 1, far, -1, entropy)) ? 1 : 0;
        }
        assertThat(differ).as("hashing over the old FIB's groups would choose otherwise").isPositive();
    }
}
