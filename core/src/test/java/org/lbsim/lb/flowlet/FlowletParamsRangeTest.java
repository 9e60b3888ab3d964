package org.lbsim.lb.flowlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;

/** CONGA's and LetFlow's numeric parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class FlowletParamsRangeTest {
    static final Conga.Params CONGA = new Conga.Params(100, 50, 0.2, 3, 500, 4);
    static final LetFlow.Params LETFLOW = new LetFlow.Params(100);

    static Stream<Ranges.Case> congaCases() {
        return Stream.of(
                refused("flowletTimeoutUs", 0.0, "must be > 0"), ok("flowletTimeoutUs", Double.MIN_VALUE),
                refused("dreUs", 0.0, "must be > 0"), ok("dreUs", Double.MIN_VALUE),
                refused("alpha", 0.0, "must be in (0, 1)"), ok("alpha", Double.MIN_VALUE), ok("alpha", Math.nextDown(1.0)), refused("alpha", 1.0, "must be in (0, 1)"),
                refused("quantizeBits", 0, "must be 1..7"), ok("quantizeBits", 1), ok("quantizeBits", 7), refused("quantizeBits", 8, "must be 1..7"),
                refused("agingUs", 0.0, "must be > 0"), ok("agingUs", Double.MIN_VALUE),
                refused("candidatePaths", 0, "must be >= 1"), ok("candidatePaths", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("congaCases")
    void eachCongaBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(CONGA);
    }

    @Test
    void everyNumericParameterOfCongaIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(congaCases())).isEqualTo(Ranges.numericFields(Conga.Params.class));
    }

    @Test
    void letFlowsTimeoutMustBePositive() {
        refused("flowletTimeoutUs", 0.0, "must be > 0").check(LETFLOW);
        ok("flowletTimeoutUs", Double.MIN_VALUE).check(LETFLOW);
    }
}
