package org.lbsim.bench.eventset;

import java.util.Arrays;

/**
 * A calendar queue (R. Brown, CACM 31(10), 1988) with the kernel's exact order (time, then insertion
 * sequence): a candidate for the kernel's event heap (tried there at commit 5ad5ba2), not used
 * because end to end it was not reliably faster (bench/README.md, "Event set"). 3-6x faster than the
 * 4-ary heap on the replayed traces.
 *
 * <ul>
 *   <li>A ring of {@code 2^bits} buckets of {@code 2^shift} ps. Bucket {@code n mod 2^bits} holds the
 *   events of absolute bucket number {@code n = time >> shift} for {@code cur <= n < cur + 2^bits},
 *   {@code cur} being the earliest event's bucket; each bucket is a list sorted by (time, sequence),
 *   with its tail kept because almost every new event goes last (ties of a synchronised fabric too).
 *   A bitmap of non-empty buckets lets a pop skip empty ones 64 at a time.</li>
 *   <li>Events at or beyond {@code cur + 2^bits} (the 80 us retransmission timers) wait in a heap
 *   ({@link SeqHeap}) with their sequence number and move into the ring as {@code cur} advances,
 *   so their order among equal times is kept.</li>
 *   <li>An event earlier than bucket {@code cur} (the kernel's clock stopped at a time limit, or a
 *   test) moves {@code cur} back; buckets that would then wrap around go to the heap.</li>
 *   <li>Every {@link #TUNE_POPS} pops the bucket width is set to about twice the mean time between
 *   pops (changed only when off by a factor of four or more, so it does not flap) and the ring to about
 *   twice the pending events; either change reinserts every event.</li>
 * </ul>
 * Nodes are five longs each in one array with a free list; a bucket is two longs (head and tail, the
 * tail's time), so a push touches the bucket and the tail node, a pop the bucket and the head node.
 */
public final class CalendarQueue {
    /** A node: time, sequence, handler and kind, tag, next node of its bucket (or of the free list). */
    private static final int STRIDE = 5;
    private static final int NEXT = 4;
    private static final long NO_NODES = -1L;
    private static final int MIN_BITS = 10;
    private static final int MAX_BITS = 20;
    private static final int INITIAL_SHIFT = 4;
    private static final int TUNE_POPS = 1 << 14;

    private int bits;
    private int mask;
    private int shift;
    /**
     * Per bucket two longs: (tail node << 32 | head node), -1 when empty; and the tail's time, so that
     * appending reads no node but the tail's sequence on an exact tie.
     */
    private long[] bucket;
    private long[] occupied;
    private long[] node;
    private int freeNode = -1;
    private int nodesUsed;
    private final SeqHeap far = new SeqHeap(16);
    private int ringCount;
    private int size;
    private long nextSeq;
    /** Absolute bucket number of the earliest event (meaningful while {@code size > 0}). */
    private long cur;
    private int popsSinceTune;
    private long tuneWindowStartPs;
    private int rebuilds;

    public CalendarQueue(int initialCapacity) {
        node = new long[Math.max(16, initialCapacity) * STRIDE];
        shift = INITIAL_SHIFT;
        allocateRing(bitsFor(Math.max(16, initialCapacity)));
    }

    private static int bitsFor(int events) {
        int want = 64 - Long.numberOfLeadingZeros(Math.max(1, 2L * events - 1));
        return Math.max(MIN_BITS, Math.min(MAX_BITS, want));
    }

    private void allocateRing(int newBits) {
        bits = newBits;
        mask = (1 << newBits) - 1;
        bucket = new long[2 << newBits];
        for (int i = 0; i < bucket.length; i += 2) {
            bucket[i] = NO_NODES;
        }
        occupied = new long[(1 << newBits) >>> 6];
    }

    /** How many times the bucket width or the ring size changed (for tests). */
    public int rebuilds() {
        return rebuilds;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        long seq = nextSeq++;
        long meta = ((long) handler << 32) | (kind & 0xFFFFFFFFL);
        long bn = timePs >> shift;
        if (size == 0) {
            cur = bn;
        } else if (bn < cur) {
            rewind(bn);
        }
        size++;
        if (bn - cur < (1L << bits)) {
            insert(timePs, seq, meta, tag, (int) bn & mask);
        } else {
            far.push(timePs, seq, meta, tag);
        }
    }

    private void insert(long t, long s, long m, long g, int b) {
        long[] a = node;
        int n = freeNode;
        if (n >= 0) {
            freeNode = (int) a[n * STRIDE + NEXT];
        } else {
            if ((nodesUsed + 1) * STRIDE > a.length) {
                a = Arrays.copyOf(a, a.length * 2);
                node = a;
            }
            n = nodesUsed++;
        }
        int nb = n * STRIDE;
        a[nb] = t;
        a[nb + 1] = s;
        a[nb + 2] = m;
        a[nb + 3] = g;
        ringCount++;
        long[] bk = bucket;
        int i = b << 1;
        long headTail = bk[i];
        int head = (int) headTail;
        if (head < 0) {
            a[nb + NEXT] = -1;
            bk[i] = ((long) n << 32) | n;
            bk[i + 1] = t;
            occupied[b >>> 6] |= 1L << b;
            return;
        }
        int tail = (int) (headTail >>> 32);
        long tailTime = bk[i + 1];
        if (t > tailTime || (t == tailTime && s > a[tail * STRIDE + 1])) {
            a[nb + NEXT] = -1;
            a[tail * STRIDE + NEXT] = n;
            bk[i] = ((long) n << 32) | head;
            bk[i + 1] = t;
            return;
        }
        int hb = head * STRIDE;
        if (t < a[hb] || (t == a[hb] && s < a[hb + 1])) {
            a[nb + NEXT] = head;
            bk[i] = (headTail & 0xFFFFFFFF00000000L) | n;
            return;
        }
        // strictly between head and tail
        int prev = head;
        while (true) {
            int x = (int) a[prev * STRIDE + NEXT];
            int xb = x * STRIDE;
            if (t < a[xb] || (t == a[xb] && s < a[xb + 1])) {
                a[nb + NEXT] = x;
                a[prev * STRIDE + NEXT] = n;
                return;
            }
            prev = x;
        }
    }

    private int headNode() {
        return (int) bucket[((int) cur & mask) << 1];
    }

    public long peekTime() {
        return node[headNode() * STRIDE];
    }

    public int peekHandler() {
        return (int) (node[headNode() * STRIDE + 2] >>> 32);
    }

    public int peekKind() {
        return (int) node[headNode() * STRIDE + 2];
    }

    public long peekTag() {
        return node[headNode() * STRIDE + 3];
    }

    /** Removes the earliest event; read it first with the peek methods. */
    public void pop() {
        int b = (int) cur & mask;
        int i = b << 1;
        long headTail = bucket[i];
        int n = (int) headTail;
        long[] a = node;
        int after = (int) a[n * STRIDE + NEXT];
        a[n * STRIDE + NEXT] = freeNode;
        freeNode = n;
        ringCount--;
        size--;
        if (after >= 0) {
            bucket[i] = (headTail & 0xFFFFFFFF00000000L) | after;
        } else {
            bucket[i] = NO_NODES;
            occupied[b >>> 6] &= ~(1L << b);
            if (size == 0) {
                return;
            }
            advance();
        }
        if (++popsSinceTune == TUNE_POPS) {
            tune();
        }
    }

    /** Moves {@code cur} to the earliest non-empty bucket, bringing in the heap's events that come within reach. */
    private void advance() {
        if (ringCount == 0) {
            cur = far.topTime() >> shift;
        } else {
            int idx = (int) cur & mask;
            int w = idx >>> 6;
            long word = occupied[w] & (-1L << idx);
            int lastWord = occupied.length - 1;
            while (word == 0) {
                w = (w + 1) & lastWord;
                word = occupied[w];
            }
            int slot = (w << 6) + Long.numberOfTrailingZeros(word);
            cur += (slot - idx) & mask;
        }
        migrate();
    }

    /** Moves the heap's events of buckets below {@code cur + 2^bits} into the ring; they all lie after bucket {@code cur}. */
    private void migrate() {
        SeqHeap f = far;
        long limit = cur + (1L << bits);
        while (f.size() > 0 && (f.topTime() >> shift) < limit) {
            long t = f.topTime();
            insert(t, f.topSeq(), f.topMeta(), f.topTag(), (int) (t >> shift) & mask);
            f.pop();
        }
    }

    /** An event before bucket {@code cur}: {@code cur} moves back to it, the buckets that would wrap around go to the heap. */
    private void rewind(long bn) {
        long span = 1L << bits;
        long to = cur + span;
        long from = Math.max(bn + span, cur);
        cur = bn;
        for (long x = from; x < to; x++) {
            spill((int) x & mask);
        }
    }

    /** Moves one bucket's events to the heap. */
    private void spill(int b) {
        int i = b << 1;
        int n = (int) bucket[i];
        if (n < 0) {
            return;
        }
        bucket[i] = NO_NODES;
        occupied[b >>> 6] &= ~(1L << b);
        long[] a = node;
        while (n >= 0) {
            int nb = n * STRIDE;
            int x = (int) a[nb + NEXT];
            far.push(a[nb], a[nb + 1], a[nb + 2], a[nb + 3]);
            a[nb + NEXT] = freeNode;
            freeNode = n;
            ringCount--;
            n = x;
        }
    }

    /** Sets the bucket width to about twice the mean time between the last pops and the ring to about twice the pending events. */
    private void tune() {
        long nowPs = peekTime();
        long gapPs = (nowPs - tuneWindowStartPs) / TUNE_POPS;
        tuneWindowStartPs = nowPs;
        popsSinceTune = 0;
        int wantShift = 64 - Long.numberOfLeadingZeros(Math.max(1, 2 * gapPs - 1));
        wantShift = Math.min(wantShift, 40);
        int wantBits = bitsFor(size);
        boolean reshift = Math.abs(wantShift - shift) >= 2;
        boolean resize = wantBits > bits || wantBits < bits - 2;
        if (reshift || resize) {
            rebuild(reshift ? wantShift : shift, resize ? wantBits : bits);
        }
    }

    /** Reinserts every event under a new bucket width and ring size. */
    private void rebuild(int newShift, int newBits) {
        long[] occ = occupied;
        for (int w = 0; w < occ.length; w++) {
            while (occ[w] != 0) {
                spill((w << 6) + Long.numberOfTrailingZeros(occ[w]));
            }
        }
        if (newBits != bits) {
            allocateRing(newBits);
        }
        shift = newShift;
        rebuilds++;
        cur = far.topTime() >> shift;
        migrate();
    }
}
