package org.lbsim.lb.dnlb;

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

/** DNLB's parameters: a DSCP value or -1 (every class), and one of the two readings of where fault avoidance moves data. */
class DnlbParamsRangeTest {
    static final String DSCP = "must be a DSCP value 0-63 or -1 (every class)";
    private static final Dnlb.Params BASE = new Dnlb.Params(26, true, true);

    static Stream<Ranges.Case> cases() {
        return Stream.of(refused("dscp", -2, DSCP), ok("dscp", -1), ok("dscp", 0), ok("dscp", 63), refused("dscp", 64, DSCP));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(BASE);
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(Dnlb.Params.class));
    }

    @Test
    void theShortConstructorSplitsOverTheWorkingQueuePairs() {
        assertThat(BASE.moveDataTo()).isEqualTo(Dnlb.WORKING_QPS);
    }

    @ParameterizedTest
    @ValueSource(strings = {Dnlb.WORKING_QPS, Dnlb.ONE_SIBLING})
    void bothReadingsOfMovingDataAreTaken(String reading) {
        assertThat(Ranges.with(BASE, "moveDataTo", reading).moveDataTo()).isEqualTo(reading);
    }

    @Test
    void anUnknownReadingOfMovingDataIsRefused() {
        ScenarioException e = catchThrowableOfType(() -> Ranges.with(BASE, "moveDataTo", "spread"), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("moveDataTo");
        assertThat(e.problem()).isEqualTo("must be 'working-qps' or 'one-sibling', got 'spread'");
    }
}
