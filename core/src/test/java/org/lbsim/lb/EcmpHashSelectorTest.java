package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.topology.Fib;

/**
 * lbsim's switch hash: MurmurHash3's 64-bit finalizer (fmix64) of salt XOR (source << 40, destination
 * << 20, the entropy's 32 bits), shifted right by one, modulo the group's members. The expected values
 * were computed by hand from the published finalizer (an independent implementation).
 */
class EcmpHashSelectorTest {
    private final PacketPool pool = new PacketPool();

    @Test
    void theMixIsMurmur3sFinalizer() {
        assertThat(EcmpHashSelector.mix(0)).isZero();
        assertThat(EcmpHashSelector.mix(1)).isEqualTo(-5_451_962_507_482_445_012L);
        assertThat(EcmpHashSelector.mix(0x0123_4567_89ab_cdefL)).isEqualTo(-8_661_552_387_678_130_966L);
    }

    private int[] chosen(long salt, int[] entropies) {
        ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(8);
        Fib fib = fabric.fib();
        int e0 = fabric.edge(0);
        int g = fib.group(e0, 27);
        assertThat(fib.groupSize(g)).isEqualTo(4);
        EcmpHashSelector sel = new EcmpHashSelector(fib, salt);
        int[] out = new int[entropies.length];
        for (int i = 0; i < entropies.length; i++) {
            Packet p = ChoiceRecorder.packet(pool, 1, 27, Packet.DATA);
            p.entropy = entropies[i];
            int port = sel.select(p, g, fib.groupPorts(), fib.groupOffset(g), 4);
            out[i] = -1;
            for (int c = 0; c < 4; c++) {
                out[i] = fib.port(g, c) == port ? c : out[i];
            }
            pool.release(p);
        }
        return out;
    }

    @Test
    void aSwitchTakesTheMemberTheSaltedHashOfSourceDestinationAndEntropyNames() {
        // h1 -> h27 at e0 of a k = 8 fat tree: four uplinks, listed in port order
        assertThat(chosen(0x5EED, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
                .containsExactly(3, 2, 3, 3, 2, 3, 0, 3, 3, 3, 3, 3, 0, 1, 2, 3);
        assertThat(chosen(0x5EED, new int[] {-2})).as("the entropy's 32 bits, unsigned").containsExactly(1);
        assertThat(chosen(-7, new int[] {0, 1, 2, 3, 4, 5, 6, 7})).containsExactly(1, 0, 2, 1, 3, 1, 2, 0);
    }
}
