package org.lbsim.kernel;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Named random streams split from one master seed. A stream depends only on the seed and its
 * name, so adding a new consumer of randomness never shifts the numbers another one sees.
 */
public final class RandomStreams {
    private final long masterSeed;

    public RandomStreams(long masterSeed) {
        this.masterSeed = masterSeed;
    }

    public long masterSeed() {
        return masterSeed;
    }

    public SplittableRandom stream(String name) {
        return new SplittableRandom(mix(masterSeed ^ fnv1a(name)));
    }

    /** A stream for one of many similar components, such as switch number {@code index}. */
    public SplittableRandom stream(String name, long index) {
        return new SplittableRandom(mix(mix(masterSeed ^ fnv1a(name)) + index * 0x9E3779B97F4A7C15L));
    }

    private static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64 finalizer. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
