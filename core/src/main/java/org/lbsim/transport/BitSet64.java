package org.lbsim.transport;

/** A growable bit set over non-negative ints, without the boxing or bounds policy of java.util.BitSet. */
final class BitSet64 {
    private long[] words;

    BitSet64(int initialBits) {
        words = Bits.words(initialBits);
    }

    boolean get(int i) {
        return Bits.get(words, i);
    }

    void set(int i) {
        words = Bits.set(words, i);
    }

    void clear(int i) {
        Bits.clear(words, i);
    }

    /** 64 bits starting at bit {@code from}: bit k of the result is bit from + k. */
    long window(int from) {
        return Bits.window(words, from);
    }

    /** First clear bit at or after {@code from}. */
    int nextClear(int from) {
        return Bits.nextClear(words, from);
    }
}
