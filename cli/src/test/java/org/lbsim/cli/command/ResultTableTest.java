package org.lbsim.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numbers in query results printed to the digits their type holds; a run summary as one CSV row. */
class ResultTableTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "564050411.1999999; 564050411.2",
        "0.30000000000000004; 0.3",
        "24.0; 24",
        "-2.5; -2.5",
        "0.0; 0",
        "1.0E-7; 1E-7",
        "1.5E20; 1.5E+20",
        "123456789012345.67; 123456789012346",
        "0.000001; 0.000001",
    })
    void aDoubleIsPrintedToFifteenSignificantDigits(double v, String printed) {
        assertThat(ResultTable.text(v)).isEqualTo(printed);
    }

    @Test
    void aRealIsPrintedToSixAndNonFiniteValuesByName() {
        assertThat(ResultTable.text(0.1f)).isEqualTo("0.1");
        assertThat(ResultTable.text(Double.NaN)).isEqualTo("nan");
        assertThat(ResultTable.text(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(ResultTable.text(new BigDecimal("1.500"))).isEqualTo("1.500"); // a DECIMAL keeps its scale
    }

    /** Any sum of a few decimals of up to 6 places prints as the exact decimal sum, as long as 15 digits hold it. */
    @Test
    void sumsOfShortDecimalsPrintAsTheirExactDecimalSum() {
        SplittableRandom r = new SplittableRandom(5);
        for (int n = 0; n < 10_000; n++) {
            BigDecimal exact = BigDecimal.ZERO;
            double sum = 0;
            for (int k = 0; k < 3; k++) {
                BigDecimal x = BigDecimal.valueOf(r.nextLong(1_000_000_000L), 6);
                exact = exact.add(x);
                sum += x.doubleValue();
            }
            assertThat(ResultTable.text(sum)).as("%s", exact).isEqualTo(exact.stripTrailingZeros().toPlainString());
        }
    }

    @Test
    void aSummaryIsOneCsvRowWithNestedKeysJoinedByDots() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cctPs", 123L);
        m.put("ending", "completed, at last");
        m.put("counters", Map.of("dropped", 0));
        m.put("layers", List.of(Map.of("layer", "H->E"), Map.of("layer", "E->A")));
        m.put("rhoMaxMbps", null);
        assertThat(ResultTable.csvRow(m)).isEqualTo("cctPs,ending,counters.dropped,layers.0.layer,layers.1.layer,rhoMaxMbps\n"
                + "123,\"completed, at last\",0,H->E,E->A,\n");
    }
}
