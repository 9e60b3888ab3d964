package org.lbsim.bench.eventset;

/**
 * Two heaps by delay class: events due at least {@link #FAR_PS} after the last popped event (the
 * 80 us RTO timers) wait in their own heap, so the heap of near events (link arrivals, NIC and port
 * wake-ups) stays shallow. The earlier of the two heads is kept in fields for the peeks.
 */
public final class NearFarQueue {
    static final long FAR_PS = 1_000_000;

    private final SeqHeap near;
    private final SeqHeap far;
    private int size;
    private long nextSeq;
    private long lastPopPs;
    private long topTime = Long.MAX_VALUE;
    private long topMeta;
    private long topTag;
    private boolean topFar;

    public NearFarQueue(int initialCapacity) {
        near = new SeqHeap(initialCapacity);
        far = new SeqHeap(initialCapacity);
    }

    public int size() {
        return size;
    }

    public void push(long timePs, int handler, int kind, long tag) {
        long seq = nextSeq++;
        long meta = ((long) handler << 32) | (kind & 0xFFFFFFFFL);
        boolean isFar = timePs - lastPopPs >= FAR_PS;
        (isFar ? far : near).push(timePs, seq, meta, tag);
        size++;
        if (timePs < topTime) {
            topTime = timePs;
            topMeta = meta;
            topTag = tag;
            topFar = isFar;
        }
    }

    public long peekTime() {
        return topTime;
    }

    public int peekHandler() {
        return (int) (topMeta >>> 32);
    }

    public int peekKind() {
        return (int) topMeta;
    }

    public long peekTag() {
        return topTag;
    }

    public void pop() {
        lastPopPs = topTime;
        (topFar ? far : near).pop();
        size--;
        long nt = near.topTime();
        long ft = far.topTime();
        topFar = ft < nt || (ft == nt && far.topSeq() < near.topSeq());
        SeqHeap h = topFar ? far : near;
        topTime = h.topTime();
        topMeta = h.topMeta();
        topTag = h.topTag();
    }
}
