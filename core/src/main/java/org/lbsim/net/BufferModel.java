package org.lbsim.net;

/**
 * Admission control of one switch's packet memory: a fixed share per port, or one shared pool
 * with the Choudhury-Hahne dynamic threshold (a port may hold up to alpha x free memory).
 */
public final class BufferModel {
    private final long perPortBytes;
    private final long sharedTotalBytes;
    private final double alpha;
    private long sharedUsedBytes;
    private long maxSharedUsedBytes;

    private BufferModel(long perPortBytes, long sharedTotalBytes, double alpha) {
        this.perPortBytes = perPortBytes;
        this.sharedTotalBytes = sharedTotalBytes;
        this.alpha = alpha;
    }

    public static BufferModel perPort(long bytes) {
        return new BufferModel(bytes, 0, 0);
    }

    public static BufferModel sharedDynamic(long totalBytes, double alpha) {
        return new BufferModel(Long.MAX_VALUE, totalBytes, alpha);
    }

    public boolean isShared() {
        return sharedTotalBytes > 0;
    }

    /** Largest queue a port may ever hold, for the invariant checks. */
    public long portLimitBytes() {
        return isShared() ? sharedTotalBytes : perPortBytes;
    }

    boolean admit(long portQueueBytes, int size) {
        if (sharedTotalBytes == 0) {
            return portQueueBytes + size <= perPortBytes;
        }
        long free = sharedTotalBytes - sharedUsedBytes;
        return size <= free && portQueueBytes + size <= alpha * free;
    }

    void add(int size) {
        if (sharedTotalBytes > 0) {
            sharedUsedBytes += size;
            if (sharedUsedBytes > maxSharedUsedBytes) {
                maxSharedUsedBytes = sharedUsedBytes;
            }
        }
    }

    /** Most shared memory ever in use. */
    public long maxSharedUsedBytes() {
        return maxSharedUsedBytes;
    }

    /** Whether a frame fits in the shared memory at all (the hard limit that even lossless traffic obeys). */
    boolean fitsShared(int size) {
        return sharedTotalBytes == 0 || sharedUsedBytes + size <= sharedTotalBytes;
    }

    void remove(int size) {
        if (sharedTotalBytes > 0) {
            sharedUsedBytes -= size;
        }
    }

    public long sharedUsedBytes() {
        return sharedUsedBytes;
    }

    public long sharedTotalBytes() {
        return sharedTotalBytes;
    }
}
