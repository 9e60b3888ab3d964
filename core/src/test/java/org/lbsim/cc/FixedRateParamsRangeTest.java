package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;
import org.lbsim.scenario.ScenarioException;

/** The fixed-rate sender's rate: 0 (the line rate) or a rate within the shared bounds, the values just outside refused with the field and its range. */
class FixedRateParamsRangeTest {
    private static final FixedRate.Params BASE = new FixedRate.Params(false, 0);
    private static final String RATE = "between 0.001 and 1000000";

    static Stream<Ranges.Case> cases() {
        return Stream.of(ok("rateGbps", 0.0), refused("rateGbps", -1.0, RATE), refused("rateGbps", Math.nextDown(0.001), RATE),
                ok("rateGbps", 0.001), ok("rateGbps", 1e6), refused("rateGbps", Math.nextUp(1e6), RATE),
                refused("rateGbps", Double.NaN, RATE), refused("rateGbps", Double.POSITIVE_INFINITY, RATE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(BASE);
    }

    @Test
    void aGivenRateTogetherWithRhoMaxIsRefused() {
        assertThat(new FixedRate.Params(true, 0).rhoMax()).isTrue();
        ScenarioException e = catchThrowableOfType(() -> new FixedRate.Params(true, 50), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("rateGbps");
        assertThat(e.problem()).contains("rhoMax");
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(FixedRate.Params.class));
    }
}
