package org.lbsim.workload;

import java.util.Arrays;
import java.util.stream.IntStream;

/** NCCL's binary trees (ncclGetBtree, ncclGetDtree) and the reduce / broadcast steps along a tree. */
public final class NcclTrees {
    private NcclTrees() {
    }

    /** Leaves first: each level's nodes send to their parents once they received from all their children. */
    static void reduceUp(Collectives.Channel c, int[] parent, long bytes, int phase) {
        int[] height = heights(parent);
        int max = Arrays.stream(height).max().orElse(0);
        for (int h = 0; h < max; h++) {
            final int level = h;
            int[] from = IntStream.range(0, parent.length).filter(i -> parent[i] >= 0 && height[i] == level).toArray();
            c.step(from, Arrays.stream(from).map(i -> parent[i]).toArray(), bytes, phase);
        }
    }

    /** Root first: each node forwards to its children once it received from its parent. */
    static void broadcastDown(Collectives.Channel c, int[] parent, long bytes, int phase) {
        int[] depth = new int[parent.length];
        int max = 0;
        for (int i = 0; i < parent.length; i++) {
            for (int p = parent[i]; p >= 0; p = parent[p]) {
                depth[i]++;
            }
            max = Math.max(max, depth[i]);
        }
        for (int d = 1; d <= max; d++) {
            final int level = d;
            int[] to = IntStream.range(0, parent.length).filter(i -> depth[i] == level).toArray();
            c.step(Arrays.stream(to).map(i -> parent[i]).toArray(), to, bytes, phase);
        }
    }

    private static int[] heights(int[] parent) {
        int[] height = new int[parent.length];
        for (int i = 0; i < parent.length; i++) {
            int h = 0;
            for (int node = i; parent[node] >= 0; node = parent[node]) {
                h++;
                height[parent[node]] = Math.max(height[parent[node]], h);
            }
        }
        return height;
    }

    /**
     * NCCL's binary tree over ranks 0..n-1 (ncclGetBtree): a rank's parent flips its lowest set bit
     * and sets the next one up, or only flips it when that is out of range; rank 0 is the root.
     */
    public static int[] binaryTreeParents(int n) {
        int[] parent = new int[n];
        parent[0] = -1;
        for (int rank = 1; rank < n; rank++) {
            int bit = Integer.lowestOneBit(rank);
            int up = (rank ^ bit) | (bit << 1);
            parent[rank] = up >= n ? rank ^ bit : up;
        }
        return parent;
    }

    /**
     * NCCL's second tree (ncclGetDtree): the first one mirrored (rank n-1-r) when n is even, shifted by one
     * when n is odd, so that most leaves of one tree are inner nodes of the other.
     */
    public static int[] mirroredTreeParents(int n) {
        int[] base = binaryTreeParents(n);
        int[] parent = new int[n];
        for (int rank = 0; rank < n; rank++) {
            if (n % 2 == 1) {
                int shifted = (rank - 1 + n) % n;
                parent[rank] = base[shifted] < 0 ? -1 : (base[shifted] + 1) % n;
            } else {
                int mirrored = n - 1 - rank;
                parent[rank] = base[mirrored] < 0 ? -1 : n - 1 - base[mirrored];
            }
        }
        return parent;
    }
}
