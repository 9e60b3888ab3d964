package org.lbsim.transport;

import java.util.Arrays;

/**
 * Pending starts ordered by time, then by when they were queued (deterministic ties): a binary
 * heap over primitive arrays. An entry is a connection, or -1 - q for a single queue pair q.
 */
final class StartHeap {
    private long[] timePs = new long[16];
    private long[] order = new long[16];
    private int[] connection = new int[16];
    private int size;
    private long pushed;

    boolean isEmpty() {
        return size == 0;
    }

    long topPs() {
        return timePs[0];
    }

    void push(long t, int c) {
        if (size == timePs.length) {
            timePs = Arrays.copyOf(timePs, size * 2);
            order = Arrays.copyOf(order, size * 2);
            connection = Arrays.copyOf(connection, size * 2);
        }
        int i = size++;
        long o = pushed++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(t, o, timePs[parent], order[parent])) {
                break;
            }
            set(i, timePs[parent], order[parent], connection[parent]);
            i = parent;
        }
        set(i, t, o, c);
    }

    int pop() {
        int top = connection[0];
        size--;
        long t = timePs[size];
        long o = order[size];
        int c = connection[size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(timePs[child + 1], order[child + 1], timePs[child], order[child])) {
                child++;
            }
            if (!before(timePs[child], order[child], t, o)) {
                break;
            }
            set(i, timePs[child], order[child], connection[child]);
            i = child;
        }
        if (size > 0) {
            set(i, t, o, c);
        }
        return top;
    }

    private static boolean before(long t1, long o1, long t2, long o2) {
        return t1 < t2 || (t1 == t2 && o1 < o2);
    }

    private void set(int i, long t, long o, int c) {
        timePs[i] = t;
        order[i] = o;
        connection[i] = c;
    }
}
