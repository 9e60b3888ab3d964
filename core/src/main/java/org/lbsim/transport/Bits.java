package org.lbsim.transport;

import java.util.Arrays;

/**
 * A bit set over non-negative ints held in a bare {@code long[]} by its owner: one object fewer on the
 * packet path than a wrapper (a queue pair's receiver and sender read theirs on every packet, cold in an
 * all-to-all of a million queue pairs). {@link BitSet64} is the same set as an object.
 */
final class Bits {
    private Bits() {
    }

    /** Words for {@code bits} bits (at least one). */
    static long[] words(int bits) {
        return new long[Math.max(1, (bits + 63) >>> 6)];
    }

    static boolean get(long[] words, int i) {
        int w = i >>> 6;
        return w < words.length && (words[w] & (1L << i)) != 0;
    }

    /** Sets bit {@code i}; returns the words, grown if {@code i} lay beyond them. */
    static long[] set(long[] words, int i) {
        int w = i >>> 6;
        if (w >= words.length) {
            words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
        }
        words[w] |= 1L << i;
        return words;
    }

    static void clear(long[] words, int i) {
        int w = i >>> 6;
        if (w < words.length) {
            words[w] &= ~(1L << i);
        }
    }

    /** 64 bits starting at bit {@code from}: bit k of the result is bit from + k. */
    static long window(long[] words, int from) {
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
    static int nextClear(long[] words, int from) {
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
