package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topology;

/**
 * The linear switch hash: CRC-32 (IEEE 802.3, reflected) of the 10-byte key (source, destination,
 * source port; big-endian) preset with the switch's seed, a 16-bit slice per tier (low half at odd
 * tiers, high half at even ones), modulo the group's members. With the all-ones preset the register
 * is the complement of the standard CRC-32 ({@link CRC32}), which pins the table and the byte order.
 */
class CrcEcmpSelectorTest {
    private final PacketPool pool = new PacketPool();

    /** The standard CRC-32 of the key, as {@link java.util.zip.CRC32} computes it. */
    private static int standardCrc(int src, int dst, int sourcePort) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.allocate(10).putInt(src).putInt(dst).putShort((short) sourcePort).array());
        return (int) crc.getValue();
    }

    @Test
    void withTheAllOnesPresetTheRegisterIsTheComplementOfTheStandardCrc32OfTheBigEndianKey() {
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 2000; i++) {
            int src = i < 1000 ? rng.nextInt(1 << 12) : rng.nextInt();
            int dst = i < 1000 ? rng.nextInt(1 << 12) : rng.nextInt();
            int port = rng.nextInt(1 << 16);
            assertThat(CrcEcmpSelector.crc32(-1, src, dst, port)).as("key %d, %d, %d", src, dst, port).isEqualTo(~standardCrc(src, dst, port));
        }
        // a hand-checkable case: the standard CRC-32 of ten zero bytes is 0xE38A6876
        assertThat(CrcEcmpSelector.crc32(-1, 0, 0, 0)).isEqualTo(~0xE38A6876);
    }

    @Test
    void oddTiersTakeTheLowSixteenBitsAndEvenTiersTheHighSixteen() {
        assertThat(CrcEcmpSelector.sliceShift(1)).isZero();
        assertThat(CrcEcmpSelector.sliceShift(2)).isEqualTo(16);
        assertThat(CrcEcmpSelector.sliceShift(3)).isZero();
        assertThat(CrcEcmpSelector.sliceShift(4)).isEqualTo(16);
        int seed = 0x1234_5678;
        int crc = CrcEcmpSelector.crc32(seed, 3, 17, 0xBEEF);
        assertThat(CrcEcmpSelector.hash16(seed, 1, 3, 17, 0xBEEF)).isEqualTo(crc & 0xFFFF);
        assertThat(CrcEcmpSelector.hash16(seed, 2, 3, 17, 0xBEEF)).isEqualTo(crc >>> 16);
        assertThat(CrcEcmpSelector.hash16(seed, 3, 3, 17, 0xBEEF)).isEqualTo(crc & 0xFFFF);
    }

    @Test
    void flippingSourcePortBitsMovesEveryFlowsHashByTheSameLinearPart() {
        SplittableRandom rng = new SplittableRandom(2);
        for (int i = 0; i < 500; i++) {
            int seed = rng.nextInt();
            int tier = 1 + rng.nextInt(3);
            int src = rng.nextInt(1024);
            int dst = rng.nextInt(1024);
            int port = rng.nextInt(1 << 16);
            int d = rng.nextInt(1 << 16);
            assertThat(CrcEcmpSelector.hash16(seed, tier, src, dst, port ^ d))
                    .isEqualTo(CrcEcmpSelector.hash16(seed, tier, src, dst, port) ^ CrcEcmpSelector.linearPart(tier, d));
        }
        // CRC(0, d) for the source-port bytes alone: d = 1 is the table entry of 1 after one zero byte
        assertThat(CrcEcmpSelector.linearPart(1, 0)).isZero();
        assertThat(CrcEcmpSelector.linearPart(1, 1)).isEqualTo(CrcEcmpSelector.crc32(0, 0, 0, 1) & 0xFFFF);
    }

    /** The candidate a tier-{@code tier} switch seeded {@code seed} must pick: its hash slice modulo the member table. */
    private static int expectedPort(Fib fib, int group, int seed, int tier, Packet p) {
        int h = CrcEcmpSelector.hash16(seed, tier, p.src, p.dst, p.entropy);
        return fib.port(group, fib.member(group, h % fib.totalWeight(group)));
    }

    @Test
    void aSwitchPicksTheMemberItsTiersSliceOfTheCrcNamesAndFollowsNewRoutes() {
        ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(4);
        Topology t = fabric.topology();
        Fib healthy = fabric.fib();
        int e0 = fabric.edge(0);
        int a0 = t.nodeByName("a0");
        int dst = t.hostCount() - 1;
        int seed = 0x5EED;
        CrcEcmpSelector atEdge = new CrcEcmpSelector(healthy, seed, 1);
        CrcEcmpSelector atAgg = new CrcEcmpSelector(healthy, seed, 2);
        int ge = healthy.group(e0, dst);
        int ga = healthy.group(a0, dst);
        assertThat(healthy.groupSize(ge)).isEqualTo(2);
        assertThat(healthy.groupSize(ga)).isEqualTo(2);
        Packet p = ChoiceRecorder.packet(pool, 0, dst, Packet.DATA);
        int[] edgeCount = new int[2];
        int[] differ = new int[1];
        for (int e = 0; e < 1 << 10; e++) {
            p.entropy = e;
            int up = atEdge.select(p, ge, healthy.groupPorts(), healthy.groupOffset(ge), 2);
            int agg = atAgg.select(p, ga, healthy.groupPorts(), healthy.groupOffset(ga), 2);
            assertThat(up).as("entropy %d at e0", e).isEqualTo(expectedPort(healthy, ge, seed, 1, p));
            assertThat(agg).as("entropy %d at a0", e).isEqualTo(expectedPort(healthy, ga, seed, 2, p));
            edgeCount[up == healthy.port(ge, 0) ? 0 : 1]++;
            differ[0] += (up - healthy.port(ge, 0)) != (agg - healthy.port(ga, 0)) ? 1 : 0;
        }
        assertThat(edgeCount[0]).as("source ports 0..1023 split over e0's two uplinks").isBetween(400, 624);
        assertThat(differ[0]).as("the tiers hash different slices, so the two choices are not the same bit").isPositive();

        // a0 - c0 fails: e0's group to the other pods weighs a0 once and a1 twice
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(a0, t.nodeByName("c0"))[0])] = true;
        Fib failed = Routing.compute(t, down);
        int gf = failed.group(e0, dst);
        assertThat(failed.totalWeight(gf)).isEqualTo(3);
        atEdge.onRoutingChange(failed);
        int light = failed.weight(gf, 0) == 1 ? failed.port(gf, 0) : failed.port(gf, 1);
        int onLight = 0;
        for (int e = 0; e < 3 << 10; e++) {
            p.entropy = e;
            int up = atEdge.select(p, gf, failed.groupPorts(), failed.groupOffset(gf), failed.groupSize(gf));
            assertThat(up).as("entropy %d at e0 after convergence", e).isEqualTo(expectedPort(failed, gf, seed, 1, p));
            onLight += up == light ? 1 : 0;
        }
        pool.release(p);
        assertThat(onLight).as("a third of 3072 source ports on the uplink of weight 1").isBetween(900, 1150);
    }
}
