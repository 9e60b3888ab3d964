package org.lbsim.lb.themis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lbsim.lb.CrcEcmpSelector;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Topology;

/**
 * Themis-S's PathMap on a multi-tier Clos (3.2, Fig. 3; built as in Zhang et al., ATC 2021, the
 * paper's [37]): for each relative path r in [0, N_paths) the 16-bit mask of the UDP source port
 * that moves a packet's path by r, computed offline from the linearity of the switches' hash
 * ({@link CrcEcmpSelector}). A path is the member index chosen at each hash stage on the way up
 * (ToR, then aggregation, ...); with power-of-two groups, r's bits are split into one digit per
 * stage and the mask moves stage j's member index by XOR with digit j. So a packet rewritten with
 * PathMap[PSN mod N] takes path P_base XOR (PSN mod N), P_base being the path the flow's own header
 * hashes to: Eq. 1 with the rotation realised as XOR (both are bijections of the N paths, so N
 * consecutive PSNs cover them all and two PSNs share a path iff they agree mod N: Eq. 2-3 hold as
 * written). The ToR needs neither P_base nor the other switches' seeds.
 */
final class PathMap {
    private final int[] stageTiers;
    private final int[] stageSizes;
    private final char[] masks;
    /** Per destination host: end-to-end equal-cost paths from this ToR (1 under the ToR itself). */
    private final int[] pathsToHost;

    private PathMap(int[] stageTiers, int[] stageSizes, char[] masks, int[] pathsToHost) {
        this.stageTiers = stageTiers;
        this.stageSizes = stageSizes;
        this.masks = masks;
        this.pathsToHost = pathsToHost;
    }

    /** The hash stages (tier, group size) a packet from {@code tor} to host {@code dst} meets on the way (groups of one are no stage). */
    static int[][] stages(Topology t, Fib fib, int tor, int dst) {
        List<int[]> stages = new ArrayList<>();
        int node = tor;
        int last = t.hostSwitch(dst);
        for (int hop = 0; node != last && hop < 64; hop++) {
            int g = fib.group(node, dst);
            int n = fib.groupSize(g);
            if (n > 1) {
                stages.add(new int[] {t.tier(node), n});
            }
            node = t.peerNode(fib.port(g, 0));
        }
        return stages.toArray(new int[0][]);
    }

    /** End-to-end equal-cost paths from {@code tor} to host {@code dst}: the product of its stages' group sizes. */
    static int pathCount(Topology t, Fib fib, int tor, int dst) {
        int paths = 1;
        for (int[] s : stages(t, fib, tor, dst)) {
            paths *= s[1];
        }
        return paths;
    }

    /**
     * The PathMap of ToR {@code tor}: its stages are those towards its farthest destinations (every
     * other destination's stages must be a prefix of them, as in fat trees and leaf-spines); each
     * entry is the smallest mask that yields its relative path at every stage.
     */
    static PathMap build(Topology t, Fib fib, int tor) {
        int[][] longest = new int[0][];
        int[] pathsToHost = new int[t.hostCount()];
        for (int h = 0; h < t.hostCount(); h++) {
            int[][] s = stages(t, fib, tor, h);
            if (s.length > longest.length) {
                longest = s;
            }
        }
        for (int h = 0; h < t.hostCount(); h++) {
            int[][] s = stages(t, fib, tor, h);
            int paths = 1;
            for (int j = 0; j < s.length; j++) {
                ScenarioException.require(s[j][0] == longest[j][0] && s[j][1] == longest[j][1], "loadBalancing.switchHash",
                        "Themis's PathMap (3.2) needs every destination's hash stages to be a prefix of the farthest one's (fat tree, leaf-spine); "
                                + t.nodeName(tor) + " to host " + h + " differs; 'mix64' sprays the ToR's uplinks only");
                paths *= s[j][1];
            }
            pathsToHost[h] = paths;
        }
        int[] tiers = new int[longest.length];
        int[] sizes = new int[longest.length];
        int bits = 0;
        for (int j = 0; j < longest.length; j++) {
            tiers[j] = longest[j][0];
            sizes[j] = longest[j][1];
            ScenarioException.require(Integer.bitCount(sizes[j]) == 1, "loadBalancing.switchHash",
                    "Themis's PathMap (3.2) needs power-of-two ECMP groups (a CRC slice modulo the group is linear only then); "
                            + t.nodeName(tor) + " meets a group of " + sizes[j] + " at tier " + t.tierName(tiers[j]) + "; 'mix64' sprays the ToR's uplinks only");
            bits += Integer.numberOfTrailingZeros(sizes[j]);
        }
        ScenarioException.require(bits <= 16, "loadBalancing.switchHash", "Themis's PathMap (3.2) steers at most 2^16 paths with a 16-bit source port, got 2^" + bits + "; 'mix64' sprays the ToR's uplinks only");
        char[] masks = new char[1 << bits];
        boolean[] found = new boolean[masks.length];
        int left = masks.length;
        for (int d = 0; d < 1 << 16 && left > 0; d++) {
            int r = relativePath(tiers, sizes, d);
            if (!found[r]) {
                found[r] = true;
                masks[r] = (char) d;
                left--;
            }
        }
        ScenarioException.require(left == 0, "loadBalancing.switchHash",
                "Themis's PathMap (3.2): the source-port masks reach only " + (masks.length - left) + " of the " + masks.length + " relative paths of " + t.nodeName(tor)
                        + "; 'mix64' sprays the ToR's uplinks only");
        return new PathMap(tiers, sizes, masks, pathsToHost);
    }

    /** The relative path a source-port mask {@code d} produces: stage j's member index moves by XOR with digit j. */
    static int relativePath(int[] tiers, int[] sizes, int d) {
        int r = 0;
        int shift = 0;
        for (int j = 0; j < tiers.length; j++) {
            r |= (CrcEcmpSelector.linearPart(tiers[j], d) & (sizes[j] - 1)) << shift;
            shift += Integer.numberOfTrailingZeros(sizes[j]);
        }
        return r;
    }

    /** The source-port mask for relative path {@code r} (PathMap[r], 3.2 step 2). */
    int mask(int r) {
        return masks[r];
    }

    /** N for a packet to host {@code dst}: its end-to-end equal-cost paths. */
    int paths(int dst) {
        return pathsToHost[dst];
    }

    /** N_paths: the PathMap's entries. */
    int entries() {
        return masks.length;
    }

    /** Section 4: M_PathMap = N_paths x 2 B. */
    long memoryBytes() {
        return masks.length * 2L;
    }

    int[] stageTiers() {
        return stageTiers.clone();
    }

    int[] stageSizes() {
        return stageSizes.clone();
    }

    @Override
    public String toString() {
        return "PathMap(tiers " + Arrays.toString(stageTiers) + ", sizes " + Arrays.toString(stageSizes) + ", " + masks.length + " entries)";
    }
}
