package org.lbsim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Packet sizes: the values just inside each bound are taken, those just outside refused with the field and its range. */
class PacketSpecRangeTest {
    static Stream<Ranges.Case> cases() {
        return Stream.of(
                refused("mtuBytes", 0, "between 1 and 1048576"), ok("mtuBytes", 1), ok("mtuBytes", 1 << 20), refused("mtuBytes", (1 << 20) + 1, "between 1 and 1048576"),
                refused("headerBytes", -1, "between 0 and 4096"), ok("headerBytes", 0), ok("headerBytes", 4096), refused("headerBytes", 4097, "between 0 and 4096"),
                refused("ackBytes", 0, "between 1 and 4096"), ok("ackBytes", 1), ok("ackBytes", 4096), refused("ackBytes", 4097, "between 1 and 4096"),
                refused("interFrameGapBytes", -1, "between 0 and 4096"), ok("interFrameGapBytes", 0), ok("interFrameGapBytes", 4096),
                refused("interFrameGapBytes", 4097, "between 0 and 4096"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(Ranges.Case c) {
        c.check(PacketSpec.defaults());
    }

    @Test
    void everyNumericFieldIsCheckedOnBothSidesOfABound() {
        assertThat(Ranges.fieldsWithBothVerdicts(cases())).isEqualTo(Ranges.numericFields(PacketSpec.class));
    }
}
