package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * SWITCH PKT's pointer replayed from the switch's stream: at the group's first packet a random
 * visiting order (Fisher-Yates from the last index down), its IWRR schedule under W-ECMP weights, and
 * a random start in it; after every {@code permuteEvery} wrap-arounds a new order and a new schedule.
 * Checked at the edge uplinks of a healthy k = 8 fat tree, and at e0 of a k = 4 fat tree whose a0 - c0
 * has failed and whose routes have converged (a0 weighs 1, a1 2).
 */
class SwitchPktReplayTest {
    private static final int PERMUTE_EVERY = 5;
    private final PacketPool pool = new PacketPool();

    private static void shuffle(int[] a, SplittableRandom rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** The candidate indices SWITCH PKT must choose for {@code n} packets of one group, from the stream {@code seed}. */
    private static int[] expected(Fib fib, int group, long seed, int n) {
        SplittableRandom rng = new SplittableRandom(seed);
        int[] order = new int[fib.groupSize(group)];
        Arrays.setAll(order, i -> i);
        shuffle(order, rng);
        int[] schedule = new int[fib.totalWeight(group)];
        fib.iwrr(group, order, schedule);
        int at = rng.nextInt(schedule.length);
        int wraps = 0;
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            out[k] = schedule[at];
            if (++at == schedule.length) {
                at = 0;
                if (++wraps == PERMUTE_EVERY) {
                    wraps = 0;
                    shuffle(order, rng);
                    fib.iwrr(group, order, schedule);
                }
            }
        }
        return out;
    }

    private int[] driven(Topology t, Fib fib, int node, int dst, long seed, int n) {
        PortSelector sel = new SwitchRoundRobin(new SwitchRoundRobin.Params(PERMUTE_EVERY, false))
                .newPortSelector(new SwitchContext(node, t, fib, new SplittableRandom(seed), null, null));
        int group = fib.group(node, dst);
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            Packet p = ChoiceRecorder.packet(pool, 0, dst, k % 3 == 0 ? Packet.ACK : Packet.DATA);
            int port = sel.select(p, group, fib.groupPorts(), fib.groupOffset(group), fib.groupSize(group));
            out[k] = indexOf(fib, group, port);
            pool.release(p);
        }
        return out;
    }

    private static int indexOf(Fib fib, int group, int port) {
        for (int i = 0; i < fib.groupSize(group); i++) {
            if (fib.port(group, i) == port) {
                return i;
            }
        }
        throw new AssertionError("port " + port + " is not in the group");
    }

    @Test
    void onEqualWeightsDataAndAcksShareOnePointerOverARandomOrderRedrawnEveryFiveWrapArounds() {
        ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(8);
        int e0 = fabric.edge(0);
        int dst = fabric.topology().hostCount() - 1;
        int group = fabric.fib().group(e0, dst);
        assertThat(fabric.fib().groupSize(group)).isEqualTo(4);
        for (long seed = 1; seed <= 4; seed++) {
            int[] want = expected(fabric.fib(), group, seed, 4 * PERMUTE_EVERY * 3);
            assertThat(driven(fabric.topology(), fabric.fib(), e0, dst, seed, want.length)).as("seed %d", seed).isEqualTo(want);
        }
    }

    @Test
    void underWecmpWeightsEachRedrawnOrderGetsItsOwnInterleavedWeightedSchedule() {
        ChoiceRecorder.Fabric healthy = ChoiceRecorder.Fabric.fatTree(4);
        Topology t = healthy.topology();
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(t.nodeByName("a0"), t.nodeByName("c0"))[0])] = true;
        Fib fib = Routing.compute(t, down);
        int e0 = healthy.edge(0);
        int dst = t.hostCount() - 1;
        int group = fib.group(e0, dst);
        assertThat(fib.totalWeight(group)).isEqualTo(3);
        int weightOne = fib.weight(group, 0) == 1 ? 0 : 1;
        for (long seed = 1; seed <= 4; seed++) {
            int[] want = expected(fib, group, seed, 3 * PERMUTE_EVERY * 4);
            int[] got = driven(t, fib, e0, dst, seed, want.length);
            assertThat(got).as("seed %d", seed).isEqualTo(want);
            assertThat(Arrays.stream(got).filter(i -> i == weightOne).count()).as("once per schedule of 3 on a0's uplink")
                    .isBetween(want.length / 3 - 1L, want.length / 3 + 1L);
        }
    }
}
