package org.lbsim.lb.themis;

/**
 * Themis-D's per-QP state at one destination ToR (Themis 3.3, 3.4, Fig. 4a), for every cross-rack
 * queue pair that ToR delivers: the flow-table entry (number of paths N, blocked ePSN, Valid) and
 * a FIFO ring of the PSNs sent down to the NIC. Slots are handed out in order of first arrival and
 * live in flat arrays that grow by doubling, so nothing is allocated per packet.
 *
 * <p>Ring overflow (a choice the paper leaves open): a switch cannot hold back data because its ring
 * is full, so the newest PSN overwrites the oldest entry (the tail pushes the head), counted in
 * {@link #overwrites()}. A NACK that drains its ring without finding a PSN above its ePSN has no
 * tPSN; it is forwarded (fail open: a real loss is never hidden) and counted in {@link #unmatched()}.
 * In steady state the ring is a window of the last {@code capacity} PSNs sent down (entries leave only
 * when a NACK dequeues them), so overwriting is its normal mode, not an error.
 *
 * <p>With {@code ringClearsBlocked}, a BePSN packet that already went down to the NIC after the tPSN
 * (it overtook the NACK on the last hop, so it is in the ring behind the tPSN) counts as its arrival
 * (3.4's third rule) and Valid is not set. Without it (the paper's literal order) such a BePSN is
 * never seen again, and the next packet on its path triggers a spurious compensation NACK.
 * Wrap-around: the hardware ring keeps 1-byte truncated PSNs (Eq. 4 counts 1 B per entry); lbsim's
 * PSNs never wrap and the ring keeps them whole, which is what the truncated comparison computes
 * while every entry is within 127 PSNs of the ePSN it is compared with.
 */
final class PsnRings {
    /** What Themis-D does with a NACK. */
    static final int FORWARD = 0;
    static final int BLOCK = 1;
    /** The ring drained without a PSN above the ePSN: no tPSN, forwarded. */
    static final int UNMATCHED = 2;

    private final int capacity;
    private final boolean ringClearsBlocked;
    private int slots;
    private int[] paths = new int[16];
    private int[] head = new int[16];
    private int[] size = new int[16];
    private int[] blockedEpsn = new int[16];
    private boolean[] valid = new boolean[16];
    private int[] ring;
    private int highWater;
    private long overwrites;
    private long unmatched;

    PsnRings(int capacity, boolean ringClearsBlocked) {
        this.capacity = capacity;
        this.ringClearsBlocked = ringClearsBlocked;
        this.ring = new int[16 * capacity];
    }

    /** A new queue pair's flow-table entry and ring, for a flow sprayed over {@code nPaths} paths. */
    int newSlot(int nPaths) {
        if (slots == paths.length) {
            int n = slots * 2;
            paths = java.util.Arrays.copyOf(paths, n);
            head = java.util.Arrays.copyOf(head, n);
            size = java.util.Arrays.copyOf(size, n);
            blockedEpsn = java.util.Arrays.copyOf(blockedEpsn, n);
            valid = java.util.Arrays.copyOf(valid, n);
            ring = java.util.Arrays.copyOf(ring, n * capacity);
        }
        paths[slots] = nPaths;
        return slots++;
    }

    /** 3.3: the PSN of a data packet leaving the ToR for the NIC joins the queue pair's ring. */
    void record(int slot, int psn) {
        int base = slot * capacity;
        if (size[slot] == capacity) {
            head[slot] = (head[slot] + 1) % capacity; // overflow: the oldest entry is overwritten
            size[slot]--;
            overwrites++;
        }
        ring[base + (head[slot] + size[slot]) % capacity] = psn;
        size[slot]++;
        highWater = Math.max(highWater, size[slot]);
    }

    /**
     * 3.3: a NACK carrying {@code ePsn} came up from the NIC. Dequeue until the first PSN above the
     * ePSN (the tPSN, dequeued too), then Eq. 3: forward iff tPSN mod N == ePSN mod N. 3.4: a blocked
     * NACK sets BePSN = ePSN and Valid.
     */
    int onNack(int slot, int ePsn) {
        int base = slot * capacity;
        while (size[slot] > 0) {
            int psn = ring[base + head[slot]];
            head[slot] = (head[slot] + 1) % capacity;
            size[slot]--;
            if (psn > ePsn) {
                int n = paths[slot];
                if (psn % n == ePsn % n) {
                    return FORWARD; // Eq. 3: the OOO packet took the expected packet's path, so that one is lost
                }
                blockedEpsn[slot] = ePsn;
                valid[slot] = !(ringClearsBlocked && holds(slot, ePsn));
                return BLOCK;
            }
        }
        unmatched++;
        return UNMATCHED;
    }

    /**
     * 3.4: a data packet arrives for the NIC. With Valid set, the BePSN packet itself clears it; a
     * later packet on the BePSN's path (PSN > BePSN, PSN mod N == BePSN mod N) proves the BePSN packet
     * lost: returns true once, and the ToR sends the NACK for {@link #blockedEpsn} on the NIC's behalf.
     */
    boolean compensate(int slot, int psn) {
        if (!valid[slot]) {
            return false;
        }
        int b = blockedEpsn[slot];
        if (psn == b) {
            valid[slot] = false; // the BePSN packet was not lost
            return false;
        }
        int n = paths[slot];
        if (psn > b && psn % n == b % n) {
            valid[slot] = false; // one NACK per BePSN
            return true;
        }
        return false;
    }

    /** Whether {@code psn} went down to the NIC since the ring's head (after the tPSN: it overtook the NACK on the last hop). */
    private boolean holds(int slot, int psn) {
        int base = slot * capacity;
        for (int i = 0; i < size[slot]; i++) {
            if (ring[base + (head[slot] + i) % capacity] == psn) {
                return true;
            }
        }
        return false;
    }

    int blockedEpsn(int slot) {
        return blockedEpsn[slot];
    }

    boolean valid(int slot) {
        return valid[slot];
    }

    int paths(int slot) {
        return paths[slot];
    }

    /** PSNs held in a slot's ring, oldest first (for tests). */
    int[] contents(int slot) {
        int[] out = new int[size[slot]];
        for (int i = 0; i < out.length; i++) {
            out[i] = ring[slot * capacity + (head[slot] + i) % capacity];
        }
        return out;
    }

    int capacity() {
        return capacity;
    }

    int slots() {
        return slots;
    }

    /** The fullest any ring has been. */
    int highWater() {
        return highWater;
    }

    long overwrites() {
        return overwrites;
    }

    long unmatched() {
        return unmatched;
    }
}
