package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;

/** PRO's numeric parameters: the values just inside each bound are taken, those just outside refused with the field and its range. */
class ProParamsRangeTest {
    static final String PERIOD = "between 0.000001 (1 ps) and 1000000000";
    static final String WINDOW = "between 0 (BDP / MTU) and 1048576";

    static Stream<Ranges.Case> cases() {
        return Stream.of(
                refused("rtoUs", 0.0, PERIOD), refused("rtoUs", Double.MIN_VALUE, PERIOD), refused("rtoUs", 0.0000004, PERIOD),
                ok("rtoUs", 0.000001), ok("rtoUs", 1e9), refused("rtoUs", Math.nextUp(1e9), PERIOD), refused("rtoUs", Double.NaN, PERIOD),
                refused("batchPackets", 0, "between 1 and 4096"), ok("batchPackets", 1), ok("batchPackets", 4096), refused("batchPackets", 4097, "between 1 and 4096"),
                refused("initialWindow", -1, WINDOW), ok("initialWindow", 0), ok("initialWindow", 1 << 20), refused("initialWindow", (1 << 20) + 1, WINDOW),
                refused("mprdmaBitmapPackets", -1, WINDOW), ok("mprdmaBitmapPackets", 0), ok("mprdmaBitmapPackets", 1 << 20),
                refused("mprdmaBitmapPackets", (1 << 20) + 1, WINDOW),
                // the default bitmap is 64 packets
                refused("mprdmaDeltaPackets", -1, "below mprdmaBitmapPackets (64)"), ok("mprdmaDeltaPackets", 0), ok("mprdmaDeltaPackets", 63),
                refused("mprdmaDeltaPackets", 64, "must be >= 0 (0 = L / 2) and below mprdmaBitmapPackets (64)"),
                refused("mprdmaInitialWindow", -1, WINDOW), ok("mprdmaInitialWindow", 0), ok("mprdmaInitialWindow", 1 << 20),
                refused("mprdmaInitialWindow", (1 << 20) + 1, WINDOW),
                refused("mprdmaProbe", -Double.MIN_VALUE, "between 0 and 1"), ok("mprdmaProbe", 0.0), ok("mprdmaProbe", 1.0),
                refused("mprdmaProbe", Math.nextUp(1.0), "between 0 and 1"), refused("mprdmaProbe", Double.NaN, "between 0 and 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(Pro.Params.defaults());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(Pro.Params.class));
    }

    @Test
    void withTheBitmapFromTheBdpDeltaIsBoundedBelowOnly() {
        Pro.Params auto = Ranges.with(Pro.Params.defaults(), "mprdmaBitmapPackets", 0);
        Ranges.Case.ok("mprdmaDeltaPackets", 1 << 20).check(auto);
        Ranges.Case.refused("mprdmaDeltaPackets", -1, "must be >= 0 (0 = L / 2)").check(auto);
        Pro.Params small = Ranges.with(Ranges.with(Pro.Params.defaults(), "mprdmaDeltaPackets", 0), "mprdmaBitmapPackets", 1);
        Ranges.Case.ok("mprdmaDeltaPackets", 0).check(small);
        Ranges.Case.refused("mprdmaDeltaPackets", 1, "below mprdmaBitmapPackets (1)").check(small);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"roundRobinStart | one | must be 'random' or 'zero', got 'one'",
        "mprdmaWindow | window | must be 'none' or 'ack-clocked', got 'window'"})
    void anUnknownReadingOfTheStartOrTheWindowIsRefused(String field, String value, String problem) {
        org.lbsim.scenario.ScenarioException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> Ranges.with(Pro.Params.defaults(), field, value), org.lbsim.scenario.ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo(field);
        assertThat(e.problem()).isEqualTo(problem);
    }
}
