package org.lbsim.cli.ledger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.plot.Stats;

/**
 * The comparison a claim declares before any result is seen: a bound on its metric's numbers
 * ({@code atLeast}, {@code atMost}, {@code above}, {@code below}, {@code between}) or an order of its
 * items ({@code ascending}: the first item's value is the smallest), applied {@code in} one of
 * three ways: to every seed's value ({@code every-seed}), to the mean over seeds ({@code mean}),
 * or to the mean's whole 95 % Student-t interval ({@code interval}, needs at least 3 seeds). A
 * metric with keys (one value per load, per size ...) must hold for every key.
 */
public record Expectation(Kind kind, double low, double high, List<String> order, Over over) {
    public enum Kind { AT_LEAST, AT_MOST, ABOVE, BELOW, BETWEEN, ASCENDING }

    public enum Over {
        EVERY_SEED("every-seed"), MEAN("mean"), INTERVAL("interval");

        final String word;

        Over(String word) {
            this.word = word;
        }
    }

    /** Fewest seeds a 95 % interval is drawn from; below it an {@code interval} claim is not judged. */
    public static final int MIN_INTERVAL_SEEDS = 3;

    private static final Set<String> KEYS = Set.of("atLeast", "atMost", "above", "below", "between", "ascending", "in");

    /** One row of a claim's metric: a seed, an optional key (a group such as a load), an optional item (for orders) and the number. */
    public record Value(long seed, String key, String item, double value) {
    }

    /** The outcome for one key: whether it holds, and the numbers behind it. */
    public record KeyOutcome(String key, boolean holds, String shown) {
    }

    /** The outcome over every key; {@code judged} is false when there is nothing to judge (no values, too few seeds). */
    public record Outcome(boolean judged, boolean holds, List<KeyOutcome> keys, String why) {
        public static Outcome notJudged(String why) {
            return new Outcome(false, false, List.of(), why);
        }
    }

    /** Parses a claim's {@code expect} map; {@code file} and {@code field} name it in errors. */
    public static Expectation parse(Object spec, String file, String field) {
        return parse(spec, f -> file, field);
    }

    /** As {@link #parse(Object, String, String)}, every error starting with {@code at} of the field at fault (file:line:column). */
    public static Expectation parse(Object spec, UnaryOperator<String> at, String field) {
        if (!(spec instanceof Map<?, ?> m)) {
            throw UserError.at(at.apply(field), field, "expected a map such as {atLeast: 1.9, in: every-seed}");
        }
        for (Object k : m.keySet()) {
            if (!KEYS.contains(String.valueOf(k))) {
                throw UserError.at(at.apply(field + "." + k), field + "." + k, "unknown key; expected one of atLeast, atMost, above, below, between, ascending and in");
            }
        }
        Object inText = m.get("in");
        Over over = null;
        for (Over o : Over.values()) {
            if (o.word.equals(inText)) {
                over = o;
            }
        }
        if (over == null) {
            throw UserError.at(at.apply(field + ".in"), field + ".in", "expected every-seed, mean or interval, got " + inText);
        }
        List<String> bounds = new ArrayList<>(m.keySet().stream().map(String::valueOf).filter(k -> !k.equals("in")).toList());
        if (bounds.size() != 1) {
            throw UserError.at(at.apply(field), field, "expected exactly one of atLeast, atMost, above, below, between, ascending, got " + bounds);
        }
        String b = bounds.get(0);
        Object v = m.get(b);
        return switch (b) {
            case "atLeast" -> new Expectation(Kind.AT_LEAST, number(v, at, field + "." + b), Double.NaN, List.of(), over);
            case "atMost" -> new Expectation(Kind.AT_MOST, Double.NaN, number(v, at, field + "." + b), List.of(), over);
            case "above" -> new Expectation(Kind.ABOVE, number(v, at, field + "." + b), Double.NaN, List.of(), over);
            case "below" -> new Expectation(Kind.BELOW, Double.NaN, number(v, at, field + "." + b), List.of(), over);
            case "between" -> {
                if (!(v instanceof List<?> l) || l.size() != 2) {
                    throw UserError.at(at.apply(field + ".between"), field + ".between", "expected [low, high]");
                }
                double lo = number(l.get(0), at, field + ".between");
                double hi = number(l.get(1), at, field + ".between");
                if (!(lo < hi)) {
                    throw UserError.at(at.apply(field + ".between"), field + ".between", "expected low < high, got [" + l.get(0) + ", " + l.get(1) + "]");
                }
                yield new Expectation(Kind.BETWEEN, lo, hi, List.of(), over);
            }
            default -> {
                if (!(v instanceof List<?> l) || l.size() < 2) {
                    throw UserError.at(at.apply(field + ".ascending"), field + ".ascending", "expected a list of at least two items, smallest value first");
                }
                if (over != Over.EVERY_SEED && over != Over.MEAN) {
                    throw UserError.at(at.apply(field + ".in"), field + ".in", "an order is judged in every-seed or on the mean");
                }
                yield new Expectation(Kind.ASCENDING, Double.NaN, Double.NaN, l.stream().map(String::valueOf).toList(), over);
            }
        };
    }

    private static double number(Object v, UnaryOperator<String> at, String field) {
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw UserError.at(at.apply(field), field, "expected a finite number, got " + v);
    }

    /** The rule in words, as the ledger shows it next to the verdict. */
    public String describe() {
        String what = switch (over) {
            case EVERY_SEED -> "every seed";
            case MEAN -> "mean";
            case INTERVAL -> "95 % interval of the mean";
        };
        return switch (kind) {
            case AT_LEAST -> what + " >= " + fmt(low);
            case AT_MOST -> what + " <= " + fmt(high);
            case ABOVE -> what + " > " + fmt(low);
            case BELOW -> what + " < " + fmt(high);
            case BETWEEN -> what + " in [" + fmt(low) + ", " + fmt(high) + "]";
            case ASCENDING -> String.join(" < ", order) + " (" + what + ")";
        };
    }

    /** Judges a metric's values. */
    public Outcome judge(List<Value> values) {
        if (values.isEmpty()) {
            return Outcome.notJudged("no values");
        }
        Map<String, List<Value>> byKey = new LinkedHashMap<>();
        for (Value v : values) {
            byKey.computeIfAbsent(v.key() == null ? "" : v.key(), k -> new ArrayList<>()).add(v);
        }
        List<KeyOutcome> outcomes = new ArrayList<>();
        for (Map.Entry<String, List<Value>> e : byKey.entrySet()) {
            KeyOutcome o = kind == Kind.ASCENDING ? judgeOrder(e.getKey(), e.getValue()) : judgeBound(e.getKey(), e.getValue());
            if (o == null) {
                return Outcome.notJudged("an interval needs at least " + MIN_INTERVAL_SEEDS + " seeds");
            }
            outcomes.add(o);
        }
        return new Outcome(true, outcomes.stream().allMatch(KeyOutcome::holds), outcomes, "");
    }

    private KeyOutcome judgeBound(String key, List<Value> vs) {
        double[] x = vs.stream().mapToDouble(Value::value).toArray();
        Stats.Summary s = Stats.Summary.of(x);
        String shown = String.format(Locale.ROOT, "%s [%s, %s] (n=%d)", fmt(s.mean()), fmt(s.min()), fmt(s.max()), s.n());
        boolean holds;
        switch (over) {
            case EVERY_SEED -> {
                holds = true;
                for (double v : x) {
                    holds &= inBound(v, v);
                }
            }
            case MEAN -> holds = inBound(s.mean(), s.mean());
            default -> {
                if (s.n() < MIN_INTERVAL_SEEDS) {
                    return null;
                }
                double h = s.ci95HalfWidth();
                shown = String.format(Locale.ROOT, "%s ± %s [%s, %s] (n=%d)", fmt(s.mean()), fmt(h), fmt(s.min()), fmt(s.max()), s.n());
                holds = inBound(s.mean() - h, s.mean() + h);
            }
        }
        return new KeyOutcome(key, holds, shown);
    }

    /** Whether the range [lo, hi] (one value when equal) lies inside the bound. */
    private boolean inBound(double lo, double hi) {
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            return false;
        }
        return switch (kind) {
            case AT_LEAST -> lo >= low;
            case AT_MOST -> hi <= high;
            case ABOVE -> lo > low;
            case BELOW -> hi < high;
            case BETWEEN -> lo >= low && hi <= high;
            case ASCENDING -> throw new IllegalStateException();
        };
    }

    private KeyOutcome judgeOrder(String key, List<Value> vs) {
        // per seed: item -> value
        Map<Long, Map<String, Double>> bySeed = new LinkedHashMap<>();
        Map<String, List<Double>> byItem = new LinkedHashMap<>();
        for (Value v : vs) {
            bySeed.computeIfAbsent(v.seed(), k -> new LinkedHashMap<>()).put(v.item(), v.value());
            byItem.computeIfAbsent(String.valueOf(v.item()), k -> new ArrayList<>()).add(v.value());
        }
        StringBuilder shown = new StringBuilder();
        Map<String, Double> means = new LinkedHashMap<>();
        for (String item : order) {
            List<Double> l = byItem.getOrDefault(item, List.of());
            double mean = l.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            means.put(item, mean);
            shown.append(shown.length() > 0 ? " / " : "").append(item).append(' ').append(fmt(mean));
        }
        boolean holds;
        if (over == Over.MEAN) {
            holds = ascending(means);
            shown.append(String.format(Locale.ROOT, " (mean of n=%d)", bySeed.size()));
        } else {
            int ok = 0;
            for (Map<String, Double> seed : bySeed.values()) {
                ok += ascending(seed) ? 1 : 0;
            }
            holds = ok == bySeed.size();
            shown.append(String.format(Locale.ROOT, " (means; in order in %d of %d seeds)", ok, bySeed.size()));
        }
        return new KeyOutcome(key, holds, shown.toString());
    }

    private boolean ascending(Map<String, Double> values) {
        for (int i = 1; i < order.size(); i++) {
            Double a = values.get(order.get(i - 1));
            Double b = values.get(order.get(i));
            if (a == null || b == null || a.isNaN() || b.isNaN() || !(a < b)) {
                return false;
            }
        }
        return true;
    }

    /** Three significant digits, plain notation for ordinary magnitudes. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a != 0 && (a >= 1e7 || a < 1e-3)) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
    }
}
