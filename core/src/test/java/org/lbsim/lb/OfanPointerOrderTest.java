package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;

/**
 * OFAN's pointer, driven by hand at an edge switch of a k = 8 fat tree (4 uplinks): at its first
 * packet it draws a random traversal order of the group (Fisher-Yates from the last index down,
 * from the switch's stream) and then a random start in it, and from there walks the order round
 * and round.
 */
class OfanPointerOrderTest {
    private final ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(8);
    private final PacketPool pool = new PacketPool();

    @Test
    void thePointerWalksARandomPermutationFromARandomStart() {
        Fib fib = fabric.fib();
        int e0 = fabric.edge(0);
        int dst = fabric.topology().hostCount() - 1;
        int group = fib.group(e0, dst);
        int count = fib.groupSize(group);
        assertThat(count).isEqualTo(4);
        long seed = 27;
        SplittableRandom twin = new SplittableRandom(seed); // the selector's stream, replayed
        int[] order = {0, 1, 2, 3};
        for (int i = count - 1; i > 0; i--) {
            int j = twin.nextInt(i + 1);
            int x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        int start = twin.nextInt(count);
        assertThat(order).as("a seed whose order is not the identity").isNotEqualTo(new int[] {0, 1, 2, 3});

        PortSelector ofan = new Ofan(new Ofan.Params(true)).newPortSelector(
                new SwitchContext(e0, fabric.topology(), fib, new SplittableRandom(seed), null, null));
        Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
        for (int i = 0; i < 12; i++) {
            int port = ofan.select(p, group, fib.groupPorts(), fib.groupOffset(group), count);
            assertThat(port).as("packet %d", i).isEqualTo(fib.port(group, order[(start + i) % count]));
        }
        pool.release(p);
    }
}
