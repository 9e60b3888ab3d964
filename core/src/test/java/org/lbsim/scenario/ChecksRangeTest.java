package org.lbsim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The shared checks of delays and the way refused values are written back: as a file would say them. */
class ChecksRangeTest {
    static Stream<Arguments> delays() {
        return Stream.of(Arguments.of(-Double.MIN_VALUE, false), Arguments.of(0.0, true), Arguments.of(1e9, true),
                Arguments.of(Math.nextUp(1e9), false), Arguments.of(Double.NaN, false), Arguments.of(Double.POSITIVE_INFINITY, false));
    }

    @ParameterizedTest
    @MethodSource("delays")
    void aDelayIsBetweenZeroAndOneSecond(double ns, boolean accepted) {
        if (accepted) {
            assertThatCode(() -> Checks.delayNs(ns, "delayNs")).doesNotThrowAnyException();
            return;
        }
        ScenarioException e = catchThrowableOfType(() -> Checks.delayNs(ns, "delayNs"), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("delayNs");
        assertThat(e.problem()).isEqualTo("must be a number of nanoseconds between 0 and 1000000000 (1 s), got " + Checks.plain(ns));
    }

    static Stream<Arguments> plain() {
        return Stream.of(Arguments.of(0.0009, "0.0009"), Arguments.of(1e-9, "0.000000001"), Arguments.of(Math.nextDown(1e-9), "9.999999999999999E-10"),
                Arguments.of(-0.0005, "-0.0005"), Arguments.of(-1e-10, "-1.0E-10"), Arguments.of(0.0, "0"), Arguments.of(1.01, "1.01"),
                Arguments.of(Math.nextDown(1e15), "999999999999999.9"), Arguments.of(1e15, "1.0E15"), Arguments.of(-1e15, "-1.0E15"),
                Arguments.of(Double.NaN, "NaN"), Arguments.of(Double.POSITIVE_INFINITY, "Infinity"));
    }

    @ParameterizedTest
    @MethodSource("plain")
    void aValueIsWrittenInDecimalUnlessVeryLargeOrSmall(double v, String text) {
        assertThat(Checks.plain(v)).isEqualTo(text);
    }

    static Stream<Arguments> fmt() {
        return Stream.of(Arguments.of(1e6, "1000000"), Arguments.of(999999999999999.0, "999999999999999"), Arguments.of(1e15, "1.0E15"),
                Arguments.of(-3.0, "-3"), Arguments.of(0.5, "0.5"), Arguments.of(1e30, "1.0E30"), Arguments.of(Double.NaN, "NaN"));
    }

    @ParameterizedTest
    @MethodSource("fmt")
    void wholeNumbersBelowTenToTheFifteenHaveNoDecimalPoint(double v, String text) {
        assertThat(Checks.fmt(v)).isEqualTo(text);
    }
}
