package org.lbsim.lb.themis;

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

/**
 * Themis's numeric parameters: the values just inside each bound are taken, those just outside
 * refused with the field and its range; the ring the formula sizes (section 4) has the bound a given
 * ringEntries has.
 */
class ThemisParamsRangeTest {
    static final String PERIOD = "between 0.000001 (1 ps) and 1000000000";
    static final String MTU = "must be 0 (the run's) or between 64 and 65536";
    static final String RING = "between 0 (from the formula) and 65536";

    static Stream<Ranges.Case> cases() {
        return Stream.of(
                refused("lastHopRttUs", 0.0, PERIOD), refused("lastHopRttUs", Double.MIN_VALUE, PERIOD), refused("lastHopRttUs", 0.0000004, PERIOD),
                ok("lastHopRttUs", 0.000001), ok("lastHopRttUs", 1e9), refused("lastHopRttUs", Math.nextUp(1e9), PERIOD),
                refused("lastHopRttUs", Double.NaN, PERIOD),
                refused("capacityFactor", Math.nextDown(1.0), "between 1 and 16"), ok("capacityFactor", 1.0), ok("capacityFactor", 16.0),
                refused("capacityFactor", Math.nextUp(16.0), "between 1 and 16"), refused("capacityFactor", Double.NaN, "between 1 and 16"),
                refused("mtuBytes", -1, MTU), ok("mtuBytes", 0), refused("mtuBytes", 1, MTU), refused("mtuBytes", 63, MTU), ok("mtuBytes", 64),
                ok("mtuBytes", 65536), refused("mtuBytes", 65537, MTU),
                refused("ringEntries", -1, RING), ok("ringEntries", 0), ok("ringEntries", 65536), refused("ringEntries", 65537, RING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(Themis.Params.defaults());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(Themis.Params.class));
    }

    /** At 8 Gb/s and a 1000-byte MTU with F = 1 the formula gives one entry per microsecond of RTT_last. */
    private static Themis.Params formula(double lastHopRttUs) {
        return new Themis.Params(lastHopRttUs, 1, 1000, 0, true, true, Themis.Params.AUTO, Themis.Params.DEPARTURE);
    }

    @Test
    void theFormulaMayGiveAsManyEntriesAsRingEntriesMayBeGiven() {
        assertThat(formula(65536).entries(8000, 1500)).isEqualTo(65536);
        assertThat(formula(65535).entries(8000, 1500)).isEqualTo(65535);
        assertThat(formula(1).entries(8000, 1500)).isEqualTo(1);
        assertThat(formula(0.001).entries(8000, 1500)).as("never below one entry").isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(doubles = {65537, 1e9})
    void aFormulaGivingMoreEntriesIsRefusedOnRingEntriesWithWhatToChange(double lastHopRttUs) {
        ScenarioException e = catchThrowableOfType(() -> formula(lastHopRttUs).entries(8000, 1500), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("ringEntries");
        assertThat(e.problem()).startsWith("must be between 0 (from the formula) and 65536; 0 gives ceil(BW x RTT_last x F / MTU) = ")
                .contains("for a host link of 8 Gb/s, lastHopRttUs " + org.lbsim.scenario.Checks.plain(lastHopRttUs) + ", capacityFactor 1 and an MTU of 1000 B")
                .endsWith("lower one of these or give ringEntries");
    }

    @Test
    void theRunsMtuSizesTheRingUnlessMtuBytesIsGiven() {
        Themis.Params run = new Themis.Params(65536, 1, 0, 0, true, true, Themis.Params.AUTO, Themis.Params.DEPARTURE);
        assertThat(run.entries(8000, 1000)).isEqualTo(65536);
        assertThat(catchThrowableOfType(() -> run.entries(8000, 999), ScenarioException.class)).isNotNull();
        assertThat(formula(65536).entries(8000, 1)).as("mtuBytes given: the run's MTU plays no part").isEqualTo(65536);
    }
}
