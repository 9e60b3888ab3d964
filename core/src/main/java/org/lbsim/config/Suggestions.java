package org.lbsim.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and type names, by edit distance. */
public final class Suggestions {
    private Suggestions() {
    }

    /**
     * The allowed name closest to {@code given}, if it is close enough to be a plausible typo:
     * at most 1 edit for names up to 4 characters, 2 up to 8, 3 beyond. A name that differs only
     * in case wins over every other ({@code kib} is {@code KiB}, not {@code KB}; {@code gbps} is
     * {@code Gbps}, not {@code bps}); other case differences are free to spot but still count as one
     * edit in total. Ties go to the first name in {@code allowed}.
     */
    public static Optional<String> closest(String given, Collection<String> allowed) {
        if (allowed.contains(given)) {
            return Optional.empty();
        }
        for (String candidate : allowed) {
            if (candidate.equalsIgnoreCase(given)) {
                return Optional.of(candidate);
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String g = given.toLowerCase(Locale.ROOT);
        for (String candidate : allowed) {
            int d = distance(g, candidate.toLowerCase(Locale.ROOT));
            if (d == 0 && !candidate.equals(given)) {
                d = 1; // differs only in case
            }
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        if (best == null || bestDistance == 0) {
            return Optional.empty();
        }
        int len = Math.max(given.length(), best.length());
        int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
        return bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    /** ", did you mean 'x'?" or the empty string. */
    static String didYouMean(String given, Collection<String> allowed) {
        return closest(given, allowed).map(s -> ", did you mean '" + s + "'?").orElse("");
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    public static int distance(String a, String b) {
        int n = a.length();
        int m = b.length();
        int[][] d = new int[n + 1][m + 1];
        for (int i = 0; i <= n; i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= m; j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[n][m];
    }
}
