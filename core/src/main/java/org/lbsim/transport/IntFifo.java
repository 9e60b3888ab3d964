package org.lbsim.transport;

/**
 * A first-in first-out queue of ints on a ring that doubles when full: the PSNs a sender has been
 * asked to resend. Nothing is allocated once it has grown to the largest backlog of the run.
 */
public final class IntFifo {
    private int[] ring;
    private int head;
    private int size;

    public IntFifo(int initialCapacity) {
        ring = new int[Math.max(1, initialCapacity)];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The oldest element; only when not empty. */
    public int peek() {
        return ring[head];
    }

    /** Drops the oldest element; only when not empty. */
    public void poll() {
        head = (head + 1) % ring.length;
        size--;
    }

    public void add(int value) {
        if (size == ring.length) {
            int[] bigger = new int[ring.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = ring[(head + i) % ring.length];
            }
            ring = bigger;
            head = 0;
        }
        ring[(head + size) % ring.length] = value;
        size++;
    }
}
