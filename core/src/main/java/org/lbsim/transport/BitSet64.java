package org.lbsim.transport;

import java.util.Arrays;

/** A growable bit set over non-negative ints, without the boxing or bounds policy of java.util.BitSet. */
final class BitSet64 {
    private long[] words;

    BitSet64(int initialBits) {
        words = new long[Math.max(1, (initialBits + 63) >>> 6)];
    }

    boolean get(int i) {
        int w = i >>> 6;
        return w < words.length && (words[w] & (1L << i)) != 0;
    }

    void set(int i) {
        int w = i >>> 6;
        if (w >= words.length) {
            words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
        }
        words[w] |= 1L << i;
    }

    void clear(int i) {
        int w = i >>> 6;
        if (w < words.length) {
            words[w] &= ~(1L << i);
        }
    }

    /** 64 bits starting at bit {@code from}: bit k of the result is bit from + k. */
    long window(int from) {
        int w = from >>> 6;
        int shift = from & 63;
        long lo = w < words.length ? words[w] >>> shift : 0;
        if (shift == 0) {
            return lo;
        }
        long hi = w + 1 < words.length ? words[w + 1] << (64 - shift) : 0;
        return lo | hi;
    }

    /** First clear bit at or after {@code from}. */
    int nextClear(int from) {
        int w = from >>> 6;
        if (w >= words.length) {
            return from;
        }
        long word = ~words[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == words.length) {
                return w << 6;
            }
            word = ~words[w];
        }
    }
}
