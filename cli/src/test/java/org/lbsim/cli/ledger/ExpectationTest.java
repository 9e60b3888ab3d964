package org.lbsim.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.cli.errors.UserError;

class ExpectationTest {
    private static Expectation parse(Map<String, Object> spec) {
        return Expectation.parse(spec, "f.yaml", "claims[0].expect");
    }

    private static List<Expectation.Value> seeds(double... values) {
        List<Expectation.Value> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            out.add(new Expectation.Value(i + 1, null, null, values[i]));
        }
        return out;
    }

    static Stream<Arguments> bounds() {
        return Stream.of(
                Arguments.of(Map.of("atLeast", 1.9, "in", "every-seed"), new double[] {1.9, 2.0, 2.5}, true),
                Arguments.of(Map.of("atLeast", 1.9, "in", "every-seed"), new double[] {1.89, 2.0, 2.5}, false),
                Arguments.of(Map.of("atLeast", 1.9, "in", "mean"), new double[] {1.8, 2.0, 2.5}, true),
                Arguments.of(Map.of("atMost", 1.0, "in", "every-seed"), new double[] {1.0, 0.5}, true),
                Arguments.of(Map.of("atMost", 1.0, "in", "every-seed"), new double[] {1.01, 0.5}, false),
                Arguments.of(Map.of("above", 1, "in", "every-seed"), new double[] {1.0, 2.0}, false),
                Arguments.of(Map.of("above", 1, "in", "every-seed"), new double[] {1.001, 2.0}, true),
                Arguments.of(Map.of("below", 1, "in", "mean"), new double[] {0.5, 1.4}, true),
                Arguments.of(Map.of("below", 1, "in", "mean"), new double[] {0.5, 1.5}, false),
                Arguments.of(Map.of("between", List.of(0.9, 1.1), "in", "mean"), new double[] {0.8, 1.2, 1.0}, true),
                Arguments.of(Map.of("between", List.of(0.9, 1.1), "in", "every-seed"), new double[] {0.8, 1.2, 1.0}, false),
                // interval: mean 1.0, s = 0.01, t(2) = 4.30: half width 0.0248 inside [0.9, 1.1]
                Arguments.of(Map.of("between", List.of(0.9, 1.1), "in", "interval"), new double[] {0.99, 1.0, 1.01}, true),
                // same mean, s = 0.1: half width 0.248 reaches outside
                Arguments.of(Map.of("between", List.of(0.9, 1.1), "in", "interval"), new double[] {0.9, 1.0, 1.1}, false),
                Arguments.of(Map.of("atLeast", 6.8, "in", "interval"), new double[] {7.0, 7.1, 7.2}, true),
                Arguments.of(Map.of("atLeast", 6.8, "in", "interval"), new double[] {6.0, 7.5, 9.0}, false));
    }

    @ParameterizedTest
    @MethodSource("bounds")
    void boundsHoldExactlyWhenTheRuleSays(Map<String, Object> spec, double[] values, boolean holds) {
        Expectation.Outcome o = parse(spec).judge(seeds(values));
        assertThat(o.judged()).isTrue();
        assertThat(o.holds()).isEqualTo(holds);
    }

    @Test
    void anIntervalNeedsThreeSeeds() {
        Expectation.Outcome o = parse(Map.of("atLeast", 1, "in", "interval")).judge(seeds(2, 3));
        assertThat(o.judged()).isFalse();
        assertThat(o.why()).contains("3 seeds");
    }

    @Test
    void noValuesIsNotJudged() {
        assertThat(parse(Map.of("atLeast", 1, "in", "mean")).judge(List.of()).judged()).isFalse();
    }

    @Test
    void everyKeyMustHold() {
        Expectation e = parse(Map.of("above", 1, "in", "every-seed"));
        List<Expectation.Value> v = List.of(new Expectation.Value(1, "50%", null, 1.2), new Expectation.Value(1, "80%", null, 0.9),
                new Expectation.Value(2, "50%", null, 1.3), new Expectation.Value(2, "80%", null, 0.95));
        Expectation.Outcome o = e.judge(v);
        assertThat(o.holds()).isFalse();
        assertThat(o.keys()).extracting(Expectation.KeyOutcome::key).containsExactly("50%", "80%");
        assertThat(o.keys()).extracting(Expectation.KeyOutcome::holds).containsExactly(true, false);
    }

    @Test
    void anOrderInEverySeedFailsOnOneSeedOutOfOrder() {
        Expectation e = parse(Map.of("ascending", List.of("pro", "ar", "ecmp"), "in", "every-seed"));
        List<Expectation.Value> good = List.of(v(1, "pro", 1), v(1, "ar", 2), v(1, "ecmp", 3), v(2, "pro", 1), v(2, "ar", 2.5), v(2, "ecmp", 3));
        assertThat(e.judge(good).holds()).isTrue();
        List<Expectation.Value> bad = List.of(v(1, "pro", 1), v(1, "ar", 2), v(1, "ecmp", 3), v(2, "pro", 1), v(2, "ar", 3.5), v(2, "ecmp", 3));
        assertThat(e.judge(bad).holds()).isFalse();
        // on the mean the same values are in order (ar 2.75 < ecmp 3)
        assertThat(parse(Map.of("ascending", List.of("pro", "ar", "ecmp"), "in", "mean")).judge(bad).holds()).isTrue();
        // an item with no value breaks the order
        assertThat(e.judge(List.of(v(1, "pro", 1), v(1, "ar", 2))).holds()).isFalse();
    }

    private static Expectation.Value v(long seed, String item, double value) {
        return new Expectation.Value(seed, null, item, value);
    }

    /** Property: for random values, every-seed holds iff min/max respect the bound, and every-seed implies mean. */
    @ParameterizedTest
    @MethodSource("randomSeeds")
    void everySeedImpliesMean(long seed) {
        Random rng = new Random(seed);
        double bound = rng.nextDouble() * 4;
        double[] values = rng.doubles(2 + rng.nextInt(8), 0, 5).toArray();
        boolean every = parse(Map.of("atLeast", bound, "in", "every-seed")).judge(seeds(values)).holds();
        boolean mean = parse(Map.of("atLeast", bound, "in", "mean")).judge(seeds(values)).holds();
        assertThat(every).isEqualTo(java.util.Arrays.stream(values).min().orElseThrow() >= bound);
        if (every) {
            assertThat(mean).isTrue();
        }
    }

    static Stream<Long> randomSeeds() {
        return Stream.iterate(1L, s -> s + 1).limit(40);
    }

    @Test
    void badSpecsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> parse(Map.of("atLeast", 1))).isInstanceOf(UserError.class).hasMessageContaining("claims[0].expect.in");
        assertThatThrownBy(() -> parse(Map.of("atLeast", 1, "atMost", 2, "in", "mean"))).isInstanceOf(UserError.class).hasMessageContaining("exactly one");
        assertThatThrownBy(() -> parse(Map.of("between", List.of(2, 1), "in", "mean"))).isInstanceOf(UserError.class).hasMessageContaining("low < high");
        assertThatThrownBy(() -> parse(Map.of("ascending", List.of("a"), "in", "mean"))).isInstanceOf(UserError.class);
        assertThatThrownBy(() -> parse(Map.of("ascending", List.of("a", "b"), "in", "interval"))).isInstanceOf(UserError.class);
        assertThatThrownBy(() -> parse(Map.of("atleast", 1, "in", "mean"))).isInstanceOf(UserError.class).hasMessageContaining("unknown key");
        assertThatThrownBy(() -> parse(Map.of("atLeast", "x", "in", "mean"))).isInstanceOf(UserError.class).hasMessageContaining("finite number");
    }

    @Test
    void theRuleIsDescribedAsDeclared() {
        assertThat(parse(Map.of("between", List.of(32.3, 52.3), "in", "mean")).describe()).isEqualTo("mean in [32.3, 52.3]");
        assertThat(parse(Map.of("atLeast", 1.9, "in", "interval")).describe()).isEqualTo("95 % interval of the mean >= 1.9");
        assertThat(parse(Map.of("ascending", List.of("a", "b"), "in", "every-seed")).describe()).isEqualTo("a < b (every seed)");
    }

    /** A table cell whose value is NULL in every run (a job unfinished by the time limit) reads "no value", not an internal error. */
    @Test
    void aTableCellWithoutAValueSaysSo() {
        assertThat(LedgerTables.tableCell("", "", "", "3")).isEqualTo("no value (n=3)");
        assertThat(LedgerTables.tableCell("1.5", "1", "2", "2")).isEqualTo("1.50 [1.00, 2.00] (n=2)");
    }
}
