package org.lbsim.lb;

import java.util.SplittableRandom;
import org.lbsim.topology.Fib;

/**
 * The one way switch schemes respect W-ECMP weights (OFAN 5.2: after convergence "W-ECMP weights now
 * correctly distribute traffic across all available capacity"). A group's member table repeats each
 * candidate as often as its weight ({@link Fib#member}): hashing and random draws index that table,
 * round robins walk an interleaved weighted schedule of it ({@link Fib#iwrr}).
 *
 * <p>Queue-aware schemes see only their own queues, which say nothing about the capacity lost
 * downstream, so comparing queues across next hops of different weights would undo the weights.
 * They first draw a weight class (the candidates of one weight; in a fat tree these lead to equally
 * many surviving paths, so they are symmetric for the destination) with probability proportional to
 * the class's share of the group's weight, then compare queues within that class only. This is the
 * reading recorded in docs/schemes.md; DRILL's own paper treats asymmetric fabrics in the same spirit
 * (weights across symmetric components, queue comparisons within each). With equal weights there is
 * one class, no extra random draw, and every scheme draws exactly what its unweighted version drew.
 */
final class WeightedChoice {
    private WeightedChoice() {
    }

    /** Scores candidates for {@link #lowest}; implemented by the selector itself, so nothing is allocated per packet. */
    interface Score {
        long of(int port);
    }

    /** Candidate index for a hash value (weighted hash buckets: hash modulo the member count). */
    static int byHash(Fib fib, int group, long nonNegativeHash) {
        return fib.member(group, (int) (nonNegativeHash % fib.totalWeight(group)));
    }

    /** Candidate index drawn with probability proportional to its weight. */
    static int byRandom(Fib fib, int group, SplittableRandom rng) {
        return fib.member(group, rng.nextInt(fib.totalWeight(group)));
    }

    /**
     * The weight class a queue-aware choice is restricted to: 0 (all candidates) when the weights are
     * equal, else the weight of a member drawn at random, so class c is drawn with probability
     * (its candidates x c) / total weight.
     */
    static int weightClass(Fib fib, int group, SplittableRandom rng) {
        return fib.uniform(group) ? 0 : fib.weight(group, byRandom(fib, group, rng));
    }

    /** Whether candidate {@code i} belongs to weight class {@code cls} (0 = every candidate). */
    static boolean inClass(Fib fib, int group, int i, int cls) {
        return cls == 0 || fib.weight(group, i) == cls;
    }

    /** A candidate index of class {@code cls}, uniformly at random (0 = among all candidates). */
    static int randomInClass(Fib fib, int group, int count, int cls, SplittableRandom rng) {
        if (cls == 0) {
            return rng.nextInt(count);
        }
        int members = 0;
        for (int i = 0; i < count; i++) {
            members += fib.weight(group, i) == cls ? 1 : 0;
        }
        int k = rng.nextInt(members);
        for (int i = 0; i < count; i++) {
            if (fib.weight(group, i) == cls && k-- == 0) {
                return i;
            }
        }
        throw new IllegalStateException("no candidate of weight " + cls);
    }

    /**
     * Within a weight class drawn by {@link #weightClass}, the candidate port with the lowest score,
     * ties broken uniformly at random (reservoir sampling).
     */
    static int lowest(Fib fib, int group, int[] candidates, int offset, int count, Score score, SplittableRandom rng) {
        int cls = weightClass(fib, group, rng);
        long best = Long.MAX_VALUE;
        int chosen = -1;
        int ties = 0;
        for (int i = 0; i < count; i++) {
            if (!inClass(fib, group, i, cls)) {
                continue;
            }
            int port = candidates[offset + i];
            long s = score.of(port);
            if (s < best) {
                best = s;
                chosen = port;
                ties = 1;
            } else if (s == best && rng.nextInt(++ties) == 0) {
                chosen = port;
            }
        }
        return chosen;
    }
}
