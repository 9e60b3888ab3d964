package org.lbsim.bench.eventset;

import java.util.Arrays;

/**
 * A calendar queue (Brown 1988) with the exact (time, sequence) order: a ring of {@code 2^bits}
 * buckets of {@code 2^shift} ps each; bucket i holds, as a list sorted by (time, sequence), the
 * events of absolute bucket number {@code cur <= n < cur + 2^bits} with {@code n mod 2^bits = i}.
 * Events a "year" or more ahead wait in a heap and move into the calendar as {@code cur} advances,
 * keeping their sequence. The bucket width adapts: every {@link #TUNE_POPS} pops, if a pop skipped
 * more than two empty buckets on average the width doubles, if an insertion walked past more than
 * two entries on average it halves (everything is reinserted then).
 */
public final class CalendarQueue {
    private static final int STRIDE = 4;
    private static final int TUNE_POPS = 1 << 16;

    private final int bits;
    private final int mask;
    private int shift;
    private final int[] bucketHead;
    /** The last node of each non-empty bucket: most new events go after it (ties in a synchronised fabric). */
    private final int[] bucketTail;
    /** Nodes: (time, sequence, meta, tag) at 4 * node, the next node of the bucket in {@code next}. */
    private long[] node;
    private int[] next;
    private int freeNode = -1;
    private int nodesUsed;
    private final SeqHeap far;
    private int calendarCount;
    private int size;
    private long nextSeq;
    /** Absolute bucket number of the earliest event (valid when size > 0). */
    private long cur;
    private long skips;
    private long walks;
    private long pushesSinceTune;
    private long popsSinceTune;
    private int rebuilds;

    private final boolean adaptive;

    public CalendarQueue(int initialCapacity, int bits, int shift) {
        this(initialCapacity, bits, shift, true);
    }

    /** {@code adaptive} false: the bucket width stays {@code 2^shift} ps. */
    public CalendarQueue(int initialCapacity, int bits, int shift, boolean adaptive) {
        this.adaptive = adaptive;
        this.bits = bits;
        this.mask = (1 << bits) - 1;
        this.shift = shift;
        bucketHead = new int[1 << bits];
        bucketTail = new int[1 << bits];
        Arrays.fill(bucketHead, -1);
        node = new long[Math.max(16, initialCapacity) * STRIDE];
        next = new int[Math.max(16, initialCapacity)];
        far = new SeqHeap(16);
    }

    public int size() {
        return size;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        long seq = nextSeq++;
        long meta = ((long) handler << 32) | (kind & 0xFFFFFFFFL);
        long bn = timePs >>> shift;
        if (size == 0) {
            cur = bn;
        } else if (bn < cur) {
            rewind(bn);
        }
        size++;
        pushesSinceTune++;
        place(timePs, seq, meta, tag, bn);
    }

    private void place(long t, long s, long m, long g, long bn) {
        if (bn - cur < (1L << bits)) {
            insert(t, s, m, g, (int) (bn & mask));
        } else {
            far.push(t, s, m, g);
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
        int b = n * STRIDE;
        a[b] = t;
        a[b + 1] = s;
        a[b + 2] = m;
        a[b + 3] = g;
        calendarCount++;
        int h = bucketHead[bucket];
        if (h < 0) {
            next[n] = -1;
            bucketHead[bucket] = n;
            bucketTail[bucket] = n;
            return;
        }
        int tl = bucketTail[bucket] * STRIDE;
        if (t > a[tl] || (t == a[tl] && s > a[tl + 1])) {
            next[n] = -1;
            next[bucketTail[bucket]] = n;
            bucketTail[bucket] = n;
            return;
        }
        if (t < a[h * STRIDE] || (t == a[h * STRIDE] && s < a[h * STRIDE + 1])) {
            next[n] = h;
            bucketHead[bucket] = n;
            return;
        }
        int prev = h;
        int walked = 0;
        while (true) {
            int x = next[prev];
            // x >= 0: the tail is later than the new event
            if (t < a[x * STRIDE] || (t == a[x * STRIDE] && s < a[x * STRIDE + 1])) {
                next[n] = x;
                next[prev] = n;
                walks += walked;
                return;
            }
            prev = x;
            walked++;
        }
    }

    /** An event earlier than the current bucket: move the buckets that would wrap around into the heap. */
    private void rewind(long bn) {
        long from = Math.max(bn + (1L << bits), cur);
        long to = cur + (1L << bits);
        cur = bn;
        if (to - from >= (1L << bits)) {
            from = to - (1L << bits);
        }
        for (long b = from; b < to; b++) {
            int i = (int) (b & mask);
            int n = bucketHead[i];
            bucketHead[i] = -1;
            while (n >= 0) {
                int x = next[n];
                int nb = n * STRIDE;
                far.push(node[nb], node[nb + 1], node[nb + 2], node[nb + 3]);
                free(n);
                calendarCount--;
                n = x;
            }
        }
        if (calendarCount == 0) {
            migrate();
        }
    }

    private void free(int n) {
        next[n] = freeNode;
        freeNode = n;
    }

    private void migrate() {
        SeqHeap f = far;
        while (f.size() > 0 && (f.topTime() >>> shift) - cur < (1L << bits)) {
            long t = f.topTime();
            insert(t, f.topSeq(), f.topMeta(), f.topTag(), (int) ((t >>> shift) & mask));
            f.pop();
        }
    }

    public long peekTime() {
        return node[bucketHead[(int) (cur & mask)] * STRIDE];
    }

    public int peekHandler() {
        return (int) (node[bucketHead[(int) (cur & mask)] * STRIDE + 2] >>> 32);
    }

    public int peekKind() {
        return (int) node[bucketHead[(int) (cur & mask)] * STRIDE + 2];
    }

    public long peekTag() {
        return node[bucketHead[(int) (cur & mask)] * STRIDE + 3];
    }

    public void pop() {
        int i = (int) (cur & mask);
        int n = bucketHead[i];
        bucketHead[i] = next[n];
        free(n);
        calendarCount--;
        size--;
        if (size == 0) {
            return;
        }
        while (bucketHead[(int) (cur & mask)] < 0) {
            if (calendarCount == 0) {
                cur = far.topTime() >>> shift;
            } else {
                cur++;
                skips++;
            }
            migrate();
        }
        if (++popsSinceTune == TUNE_POPS && adaptive) {
            tune();
        }
    }

    private void tune() {
        int newShift = shift;
        if (skips > 2 * popsSinceTune && shift < 40) {
            newShift = shift + 1;
        } else if (walks > 2 * pushesSinceTune && shift > 0) {
            newShift = shift - 1;
        }
        skips = 0;
        walks = 0;
        popsSinceTune = 0;
        pushesSinceTune = 0;
        if (newShift != shift) {
            rebuild(newShift);
        }
    }

    /** Reinserts every event under a new bucket width. */
    private void rebuild(int newShift) {
        for (int i = 0; i <= mask; i++) {
            int n = bucketHead[i];
            bucketHead[i] = -1;
            while (n >= 0) {
                int x = next[n];
                int nb = n * STRIDE;
                far.push(node[nb], node[nb + 1], node[nb + 2], node[nb + 3]);
                free(n);
                n = x;
            }
        }
        calendarCount = 0;
        shift = newShift;
        rebuilds++;
        cur = far.topTime() >>> shift;
        migrate();
    }

    @Override
    public String toString() {
        return "CalendarQueue{bucketPs=" + (1L << shift) + ", buckets=" + (mask + 1) + ", calendar=" + calendarCount + ", far=" + far.size() + ", rebuilds=" + rebuilds + "}";
    }
}
