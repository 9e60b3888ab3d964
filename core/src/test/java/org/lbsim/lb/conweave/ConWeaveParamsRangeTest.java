package org.lbsim.lb.conweave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;

/** ConWeave's numeric parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class ConWeaveParamsRangeTest {
    static Stream<Ranges.Case> cases() {
        return Stream.of(
                refused("replyDeadlineExtraUs", -Double.MIN_VALUE, "must be >= 0"), ok("replyDeadlineExtraUs", 0.0),
                refused("pathPauseUs", -Double.MIN_VALUE, "must be >= 0"), ok("pathPauseUs", 0.0),
                refused("txExpiryUs", 0.0, "must be > 0"), ok("txExpiryUs", Double.MIN_VALUE),
                refused("reorderFlushExtraUs", -Double.MIN_VALUE, "must be >= 0"), ok("reorderFlushExtraUs", 0.0),
                refused("defaultReorderWaitUs", -Double.MIN_VALUE, "must be >= 0"), ok("defaultReorderWaitUs", 0.0),
                refused("reorderQueuesPerPort", -1, "must be >= 0 (0 = unlimited)"), ok("reorderQueuesPerPort", 0),
                refused("controlBytes", 63, "must be >= 64"), ok("controlBytes", 64));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(ConWeave.Params.defaults());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(ConWeave.Params.class));
    }
}
