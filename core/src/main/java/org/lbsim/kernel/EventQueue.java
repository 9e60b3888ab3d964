package org.lbsim.kernel;

import java.util.Arrays;

/**
 * The sequential kernel's event set: events ordered by time and then by insertion sequence, so events
 * at equal times run in the order they were scheduled. A calendar queue (R. Brown, CACM 31(10), 1988)
 * with that exact order, chosen over the former 4-ary heap by replaying the recorded event traces of
 * S1-S3 and k = 24 (issue 21; bench/README.md, "Session 10"): almost every event lands 0.84 or
 * 41.78 ns after now, among 1 000-60 000 pending ones, so a pop and a push cost a few memory accesses
 * here instead of a sift over 5-8 heap levels.
 *
 * <ul>
 *   <li>A ring of {@code 2^bits} buckets of {@code 2^shift} ps. Bucket {@code n mod 2^bits} holds the
 *   events of absolute bucket number {@code n = time >> shift} for {@code cur <= n < cur + 2^bits},
 *   {@code cur} being the earliest event's bucket; each bucket is a list sorted by (time, sequence),
 *   with its tail kept because almost every new event goes last (ties of a synchronised fabric too).
 *   A bitmap of non-empty buckets lets a pop skip empty ones 64 at a time.</li>
 *   <li>Events at or beyond {@code cur + 2^bits} (the 80 us retransmission timers) wait in a heap
 *   ({@link TimeSeqHeap}) with their sequence number and move into the ring as {@code cur} advances,
 *   so their order among equal times is kept.</li>
 *   <li>An event earlier than bucket {@code cur} (the kernel's clock stopped at a time limit, or a
 *   test) moves {@code cur} back; buckets that would then wrap around go to the heap.</li>
 *   <li>Every {@link #TUNE_POPS} pops the bucket width is set to about twice the mean time between
 *   pops (changed only when off by a factor of four or more, so it does not flap) and the ring to about
 *   twice the pending events; either change reinserts every event.</li>
 * </ul>
 * Nodes live in parallel arrays with a free list, so nothing is allocated per event once the arrays
 * have grown to the working size.
 */
public final class EventQueue {
    private static final int STRIDE = 4;
    private static final int MIN_BITS = 10;
    private static final int MAX_BITS = 20;
    private static final int INITIAL_SHIFT = 4;
    private static final int TUNE_POPS = 1 << 14;

    private int bits;
    private int mask;
    private int shift;
    private int[] bucketHead;
    private int[] bucketTail;
    private long[] occupied;
    /** Node i: (time, sequence, handler and kind, tag) at {@code STRIDE * i}; {@code next[i]} the bucket's next node or the free list's. */
    private long[] node;
    private int[] next;
    private int freeNode = -1;
    private int nodesUsed;
    private final TimeSeqHeap far = new TimeSeqHeap(16);
    private int ringCount;
    private int size;
    private long nextSeq;
    /** Absolute bucket number of the earliest event (meaningful while {@code size > 0}). */
    private long cur;
    private int popsSinceTune;
    private long tuneWindowStartPs;
    private int rebuilds;

    public EventQueue(int initialCapacity) {
        int capacity = Math.max(16, initialCapacity);
        node = new long[capacity * STRIDE];
        next = new int[capacity];
        shift = INITIAL_SHIFT;
        allocateRing(bitsFor(capacity));
    }

    private static int bitsFor(int events) {
        int want = 64 - Long.numberOfLeadingZeros(Math.max(1, 2L * events - 1));
        return Math.max(MIN_BITS, Math.min(MAX_BITS, want));
    }

    private void allocateRing(int newBits) {
        bits = newBits;
        mask = (1 << newBits) - 1;
        bucketHead = new int[1 << newBits];
        bucketTail = new int[1 << newBits];
        Arrays.fill(bucketHead, -1);
        occupied = new long[(1 << newBits) >>> 6];
    }

    /** How many times the bucket width or the ring size changed (for tests). */
    int rebuilds() {
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

    private void insert(long t, long s, long m, long g, int bucket) {
        int n = freeNode;
        if (n >= 0) {
            freeNode = next[n];
        } else {
            if (nodesUsed == next.length) {
                next = Arrays.copyOf(next, nodesUsed * 2);
                node = Arrays.copyOf(node, nodesUsed * 2 * STRIDE);
            }
            n = nodesUsed++;
        }
        long[] a = node;
        int nb = n * STRIDE;
        a[nb] = t;
        a[nb + 1] = s;
        a[nb + 2] = m;
        a[nb + 3] = g;
        ringCount++;
        int h = bucketHead[bucket];
        if (h < 0) {
            next[n] = -1;
            bucketHead[bucket] = n;
            bucketTail[bucket] = n;
            occupied[bucket >>> 6] |= 1L << bucket;
            return;
        }
        int tail = bucketTail[bucket];
        int tb = tail * STRIDE;
        if (t > a[tb] || (t == a[tb] && s > a[tb + 1])) {
            next[n] = -1;
            next[tail] = n;
            bucketTail[bucket] = n;
            return;
        }
        int hb = h * STRIDE;
        if (t < a[hb] || (t == a[hb] && s < a[hb + 1])) {
            next[n] = h;
            bucketHead[bucket] = n;
            return;
        }
        // somewhere strictly between head and tail
        int prev = h;
        while (true) {
            int x = next[prev];
            int xb = x * STRIDE;
            if (t < a[xb] || (t == a[xb] && s < a[xb + 1])) {
                next[n] = x;
                next[prev] = n;
                return;
            }
            prev = x;
        }
    }

    public long peekTime() {
        return node[bucketHead[(int) cur & mask] * STRIDE];
    }

    public int peekHandler() {
        return (int) (node[bucketHead[(int) cur & mask] * STRIDE + 2] >>> 32);
    }

    public int peekKind() {
        return (int) node[bucketHead[(int) cur & mask] * STRIDE + 2];
    }

    public long peekTag() {
        return node[bucketHead[(int) cur & mask] * STRIDE + 3];
    }

    /** Removes the earliest event; read it first with the peek methods. */
    public void pop() {
        int i = (int) cur & mask;
        int n = bucketHead[i];
        int after = next[n];
        bucketHead[i] = after;
        next[n] = freeNode;
        freeNode = n;
        ringCount--;
        if (--size == 0) {
            occupied[i >>> 6] &= ~(1L << i);
            return;
        }
        if (after < 0) {
            occupied[i >>> 6] &= ~(1L << i);
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
        TimeSeqHeap f = far;
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
        if (to - from > span) {
            from = to - span;
        }
        cur = bn;
        for (long b = from; b < to; b++) {
            spill((int) b & mask);
        }
    }

    /** Moves one bucket's events to the heap. */
    private void spill(int bucket) {
        int n = bucketHead[bucket];
        if (n < 0) {
            return;
        }
        bucketHead[bucket] = -1;
        occupied[bucket >>> 6] &= ~(1L << bucket);
        long[] a = node;
        while (n >= 0) {
            int x = next[n];
            int nb = n * STRIDE;
            far.push(a[nb], a[nb + 1], a[nb + 2], a[nb + 3]);
            next[n] = freeNode;
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
