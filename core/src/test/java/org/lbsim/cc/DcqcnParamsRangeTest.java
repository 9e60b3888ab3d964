package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;

/** DCQCN's numeric parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class DcqcnParamsRangeTest {
    static final String PERIOD = "between 0.000001 (1 ps) and 1000000000";
    static final String OFF_OR_PERIOD = "must be 0 (off) or a number of microseconds between 0.000001 (1 ps) and 1000000000";
    static final String RATE = "between 0.001 and 1000000";

    static Stream<Ranges.Case> period(String field) {
        return Stream.of(refused(field, 0.0, PERIOD), refused(field, Double.MIN_VALUE, PERIOD), refused(field, 0.0000004, PERIOD),
                ok(field, 0.000001), ok(field, 1e9), refused(field, Math.nextUp(1e9), PERIOD), refused(field, Double.NaN, PERIOD),
                refused(field, Double.POSITIVE_INFINITY, PERIOD));
    }

    static Stream<Ranges.Case> rate(String field) {
        return Stream.of(refused(field, Math.nextDown(0.001), RATE), ok(field, 0.001), ok(field, 1e6), refused(field, Math.nextUp(1e6), RATE),
                refused(field, Double.NaN, RATE));
    }

    static Stream<Ranges.Case> cases() {
        return Stream.of(period("rateIncreaseTimerUs"), period("rateDecreaseIntervalUs"), period("alphaUpdateUs"),
                rate("additiveIncreaseGbps"), rate("hyperIncreaseGbps"), rate("minRateGbps"),
                Stream.of(refused("byteCounterBytes", -1L, "must be >= 0 (0 = off)"), ok("byteCounterBytes", 0L), ok("byteCounterBytes", Long.MAX_VALUE),
                        refused("alphaGain", 0.0, "must be in (0, 1]"), ok("alphaGain", Double.MIN_VALUE), ok("alphaGain", 1.0),
                        refused("alphaGain", Math.nextUp(1.0), "must be in (0, 1]"), refused("alphaGain", Double.NaN, "must be in (0, 1]"),
                        refused("fastRecoveryStages", -1, "must be >= 0"), ok("fastRecoveryStages", 0), ok("fastRecoveryStages", Integer.MAX_VALUE),
                        refused("cnpIntervalUs", -0.000001, OFF_OR_PERIOD), ok("cnpIntervalUs", 0.0), refused("cnpIntervalUs", Double.MIN_VALUE, OFF_OR_PERIOD),
                        refused("cnpIntervalUs", 0.0000004, OFF_OR_PERIOD), ok("cnpIntervalUs", 0.000001), ok("cnpIntervalUs", 1e9),
                        refused("cnpIntervalUs", Math.nextUp(1e9), OFF_OR_PERIOD), refused("cnpIntervalUs", Double.NaN, OFF_OR_PERIOD)))
                .flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(Dcqcn.Params.defaults());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(Dcqcn.Params.class));
    }
}
