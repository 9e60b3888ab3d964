package org.lbsim.lb;

import org.lbsim.net.Packet;
import org.lbsim.net.PortSelector;
import org.lbsim.topology.Fib;

/**
 * Switch ECMP with a linear hash, as commodity switch ASICs compute it: CRC-32 (IEEE 802.3
 * polynomial, reflected) over the flow key (source, destination, 16-bit UDP source port = the
 * packet's entropy), its register preset with the switch's hash seed, then a 16-bit slice of the
 * CRC per tier (tier 1, ToR / edge / leaf: the low half, "CRC32_LO"; tier 2, aggregation / spine:
 * the high half, "CRC32_HI"; deeper tiers alternate), modulo the group's members. Operators give
 * the tiers different hash functions so that a flow's choice at one tier does not fix its choice at
 * the next (hash polarisation).
 *
 * <p>A CRC is linear over GF(2): CRC(seed, key XOR d) = CRC(seed, key) XOR CRC(0, d). Flipping
 * bits of the source port by a mask d therefore moves the hash of every switch of a tier by the
 * same {@link #linearPart}, whatever the flow and the switch's seed; with power-of-two groups the
 * member index moves by the low bits of it. This is what lets a ToR steer a packet's path through
 * hash stages it does not own (Zhang et al., "Hashing Linearity Enables Relative Path Control in
 * Data Centers", ATC 2021; Themis 3.2). The default switch hash ({@link EcmpHashSelector}, a 64-bit
 * mixer) has no such property.
 */
public final class CrcEcmpSelector implements PortSelector {
    /** The CRC-32 byte table (constant). */
    private static final int[] TABLE = table();

    private final int seed;
    private final int shift;
    private Fib fib;

    /** A switch of {@code tier} (1 = ToR) with hash seed {@code seed}. */
    public CrcEcmpSelector(Fib fib, int seed, int tier) {
        this.fib = fib;
        this.seed = seed;
        this.shift = sliceShift(tier);
    }

    @Override
    public void onRoutingChange(Fib newFib) {
        this.fib = newFib;
    }

    @Override
    public int select(Packet p, int group, int[] ports, int offset, int count) {
        int h = (crc32(seed, p.src, p.dst, p.entropy) >>> shift) & 0xFFFF;
        return ports[offset + WeightedChoice.byHash(fib, group, h)];
    }

    /** Bit offset of the 16-bit CRC slice a tier's switches use: low half at odd tiers, high half at even ones. */
    public static int sliceShift(int tier) {
        return (tier & 1) == 1 ? 0 : 16;
    }

    /** The 16-bit hash a switch of {@code tier} with {@code seed} computes for (src, dst, source port). */
    public static int hash16(int seed, int tier, int src, int dst, int sourcePort) {
        return (crc32(seed, src, dst, sourcePort) >>> sliceShift(tier)) & 0xFFFF;
    }

    /** How a source-port mask {@code d} moves the 16-bit hash of every switch of {@code tier}: CRC(0, d) sliced. */
    public static int linearPart(int tier, int d) {
        return hash16(0, tier, 0, 0, d);
    }

    /** CRC-32 preset with {@code seed} over the 10-byte key: src (4 B), dst (4 B), source port (2 B), big-endian. */
    static int crc32(int seed, int src, int dst, int sourcePort) {
        int c = seed;
        c = word(c, src);
        c = word(c, dst);
        c = TABLE[(c ^ (sourcePort >>> 8)) & 0xFF] ^ (c >>> 8);
        return TABLE[(c ^ sourcePort) & 0xFF] ^ (c >>> 8);
    }

    private static int word(int c, int v) {
        c = TABLE[(c ^ (v >>> 24)) & 0xFF] ^ (c >>> 8);
        c = TABLE[(c ^ (v >>> 16)) & 0xFF] ^ (c >>> 8);
        c = TABLE[(c ^ (v >>> 8)) & 0xFF] ^ (c >>> 8);
        return TABLE[(c ^ v) & 0xFF] ^ (c >>> 8);
    }

    private static int[] table() {
        int[] t = new int[256];
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            t[n] = c;
        }
        return t;
    }
}
