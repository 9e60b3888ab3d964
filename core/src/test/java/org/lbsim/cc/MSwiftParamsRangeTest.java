package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;

/** MSwift's numeric parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class MSwiftParamsRangeTest {
    private static final MSwift.Params BASE = new MSwift.Params(113_000, 1, 0.8, 0.5, 1);

    static Stream<Ranges.Case> cases() {
        return Stream.of(
                refused("queueAllowanceBytes", -1L, "must be >= 0"), ok("queueAllowanceBytes", 0L), ok("queueAllowanceBytes", Long.MAX_VALUE),
                refused("additiveIncrease", 0.0, "must be > 0"), ok("additiveIncrease", Double.MIN_VALUE), refused("additiveIncrease", Double.NaN, "must be > 0"),
                refused("beta", 0.0, "must be in (0, 1]"), ok("beta", Double.MIN_VALUE), ok("beta", 1.0), refused("beta", Math.nextUp(1.0), "must be in (0, 1]"),
                refused("maxDecrease", 0.0, "must be in (0, 1)"), ok("maxDecrease", Double.MIN_VALUE), ok("maxDecrease", Math.nextDown(1.0)),
                refused("maxDecrease", 1.0, "must be in (0, 1)"),
                refused("minWindowPackets", 0.0, "must be > 0"), ok("minWindowPackets", Double.MIN_VALUE), refused("minWindowPackets", -1.0, "must be > 0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(BASE);
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(MSwift.Params.class));
    }
}
