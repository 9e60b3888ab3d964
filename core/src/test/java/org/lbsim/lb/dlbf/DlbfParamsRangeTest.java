package org.lbsim.lb.dlbf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.Ranges;
import org.lbsim.scenario.ScenarioException;

/** DLBF's parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class DlbfParamsRangeTest {
    static final String PERIOD = "between 0.000001 (1 ps) and 1000000000";
    static final String PATHS = "must be between 1 and 65536";
    static final String OFFSET = "must be between 0 and 1e9";

    static Stream<Ranges.Case> cases() {
        Stream<Ranges.Case> periods = Stream.of("availUs", "unavailUs", "thetaUs").flatMap(f -> Stream.of(
                refused(f, 0.0, PERIOD), refused(f, 0.0000004, PERIOD), ok(f, 0.000001), ok(f, 1e9), refused(f, Math.nextUp(1e9), PERIOD),
                refused(f, Double.NaN, PERIOD)));
        return Stream.concat(periods, Stream.of(
                refused("paths", 0, PATHS), ok("paths", 1), ok("paths", 65536), refused("paths", 65537, PATHS),
                refused("bufferThresholdPackets", 0, "must be >= 1"), ok("bufferThresholdPackets", 1),
                ok("bufferThresholdPackets", Integer.MAX_VALUE),
                refused("clockOffsetNs", -Double.MIN_VALUE, OFFSET), ok("clockOffsetNs", 0.0), ok("clockOffsetNs", 1e9),
                refused("clockOffsetNs", Math.nextUp(1e9), OFFSET), refused("clockOffsetNs", Double.NaN, OFFSET)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(Dlbf.Params.defaults());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(Dlbf.Params.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {Dlbf.Params.HOST_PAIR, Dlbf.Params.QUEUE_PAIR})
    void bothReadingsOfWhosePathStatesAreTaken(String pathStates) {
        assertThat(Ranges.with(Dlbf.Params.defaults(), "pathStates", pathStates).pathStates()).isEqualTo(pathStates);
    }

    @Test
    void anUnknownOwnerOfThePathStatesIsRefused() {
        ScenarioException e = catchThrowableOfType(() -> Ranges.with(Dlbf.Params.defaults(), "pathStates", "flow"), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("pathStates");
        assertThat(e.problem()).isEqualTo("must be host-pair or queue-pair, got flow");
    }
}
