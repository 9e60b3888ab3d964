package org.lbsim.config;

import org.lbsim.scenario.SetException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lbsim.config.ScenarioBinderTest.map;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.ScenarioException;

/** One reading of unquoted numbers for files and --set, units spelled as lbsim spells them, and numbers that bind exactly. */
class ScalarsTest {

    static Stream<Arguments> readings() {
        return Stream.of(
                Arguments.of("42", 42), Arguments.of("-7", -7), Arguments.of("+3", 3), Arguments.of("0", 0), Arguments.of("-0", 0),
                Arguments.of("5000000000", 5_000_000_000L), Arguments.of("99999999999999999999", new BigInteger("99999999999999999999")),
                Arguments.of("0.5", 0.5), Arguments.of(".5", 0.5), Arguments.of("1.", 1.0), Arguments.of("1e6", 1e6), Arguments.of("1.0E+20", 1e20),
                Arguments.of("1.5e-3", 1.5e-3), Arguments.of("-.5", -0.5), Arguments.of("0e5", 0.0),
                Arguments.of("true", true), Arguments.of("True", true), Arguments.of("FALSE", false),
                Arguments.of("yes", "yes"), Arguments.of("off", "off"), Arguments.of("host-spray", "host-spray"), Arguments.of("2001-12-14", "2001-12-14"),
                Arguments.of("NaN", "NaN"), Arguments.of("0x", "0x"), Arguments.of("e0", "e0"), Arguments.of("1.2.3", "1.2.3"), Arguments.of("h0 s0", "h0 s0"));
    }

    @ParameterizedTest
    @MethodSource("readings")
    void decimalNumbersBooleansAndTextReadTheSameInFilesAndSets(String text, Object expected) {
        assertThat(Scalars.plain(text)).isEqualTo(expected);
        assertThat(Overrides.scalar(text)).isEqualTo(expected);
    }

    @Test
    void nullsAreTheYamlCoreOnes() {
        for (String s : List.of("~", "null", "Null", "NULL", "")) {
            assertThat(Scalars.plain(s)).as(s).isNull();
        }
        assertThat(Overrides.scalar("")).isEqualTo(""); // an empty --set value stays the empty string
    }

    @ParameterizedTest
    @ValueSource(strings = {"010", "-010", "+07", "00", "08", "00.5", "09.5", "007e3", "0x400", "0x_1A", "-0x10",
            "0o17", "0b101", "1_024", "1_000.5", "1__0", "1_", "1:30", "12:30:00", "-1:20", "190:20:30.15", ".inf", "-.inf", "+.Inf", ".nan",
            ".NaN", "1e400", "-1e400", "1e-400"})
    void ambiguousNumbersAreRefusedInFilesAndSetsAlike(String text) {
        assertThatThrownBy(() -> Scalars.plain(text)).isInstanceOf(Scalars.Refused.class);
        assertThatThrownBy(() -> Overrides.parse("workload.messageBytes=" + text)).isInstanceOf(SetException.class)
                .hasMessageStartingWith("--set workload.messageBytes=" + text + ": workload.messageBytes: ");
    }

    @Test
    void refusalsSayWhatTheTextCouldMeanAndWhatIsAllowed() {
        assertThat(refusal("010")).isEqualTo("'010' has a leading zero, which YAML 1.1 reads as octal (8) and other readers as 10; " + Scalars.ALLOWED);
        assertThat(refusal("08")).isEqualTo("'08' has a leading zero, which some readers take for octal, others for 8 or for text; " + Scalars.ALLOWED);
        assertThat(refusal("0x400")).isEqualTo("'0x400' is a hexadecimal number (1024 in decimal); " + Scalars.ALLOWED);
        assertThat(refusal("0o17")).startsWith("'0o17' is an octal number (15 in decimal); ");
        assertThat(refusal("1_024")).startsWith("'1_024' has '_' digit separators");
        assertThat(refusal("1:30")).startsWith("'1:30' is a base-60 number in YAML 1.1");
        assertThat(refusal(".nan")).isEqualTo("must be a finite number; .nan, .inf and -.inf are not allowed");
        assertThat(refusal("1e400")).startsWith("'1e400' is beyond the largest number");
        assertThat(refusal("1e-400")).startsWith("'1e-400' is too small to tell from 0");
        assertThat(Overrides.scalar("'010'")).isEqualTo("010"); // quoted: text, as in a file
    }

    /** Random decimal texts: the reading is the JDK's for plain decimals, and any leading zero is refused. */
    @Test
    void randomDecimalsReadExactlyAndLeadingZerosNever() {
        Random rng = new Random(14);
        for (int i = 0; i < 2000; i++) {
            long v = rng.nextLong() >> (1 + rng.nextInt(63));
            String digits = Long.toString(Math.abs(v));
            String sign = v < 0 ? "-" : rng.nextBoolean() ? "+" : "";
            String integer = sign + digits;
            Object read = Scalars.plain(integer);
            assertThat(((Number) read).longValue()).as(integer).isEqualTo(v);
            String decimal = integer + "." + rng.nextInt(1000) + (rng.nextBoolean() ? "e" + (rng.nextInt(40) - 20) : "");
            assertThat(Scalars.plain(decimal)).as(decimal).isEqualTo(Double.parseDouble(decimal));
            String zeros = sign + "0".repeat(1 + rng.nextInt(3)) + digits + (rng.nextBoolean() ? "" : ".5");
            if (!zeros.replaceFirst("^[-+]", "").equals("0")) {
                assertThatThrownBy(() -> Scalars.plain(zeros)).as(zeros).isInstanceOf(Scalars.Refused.class);
            }
        }
    }

    @Test
    void unitSuggestionsPreferTheSameUnitInAnotherCase() {
        assertThat(unitError("workload.messageBytes", "64kib")).contains("unknown unit 'kib', did you mean 'KiB'?");
        assertThat(unitError("workload.messageBytes", "64mib")).contains("did you mean 'MiB'?");
        assertThat(unitError("workload.messageBytes", "64kb")).contains("did you mean 'KB'?");
        assertThat(unitError("topology.hostLink.rateGbps", "100gbps")).contains("unknown unit 'gbps', did you mean 'Gbps'?");
        assertThat(unitError("topology.hostLink.rateGbps", "100MBPS")).contains("did you mean 'Mbps'?");
        assertThat(unitError("topology.hostLink.delayNs", "5US")).contains("did you mean 'us'?");
        assertThat(unitError("topology.hostLink.delayNs", "1sec")).contains("did you mean 's'?");
        assertThat(unitError("workload.messageBytes", "64bytes")).contains("did you mean 'B'?");
        assertThat(unitError("topology.hostLink.rateGbps", "100Gb/s")).contains("did you mean 'Gbps'?");
        assertThat(unitError("topology.hostLink.rateGbps", "10gb")).contains("unknown unit 'gb' (GB is a size)");
        assertThat(unitError("topology.hostLink.delayNs", "010ns")).contains("'010ns' has a leading zero").contains("such as 10ns");
    }

    @Test
    void aCaseOnlyDifferenceWinsOverAShorterNameAtOneEdit() {
        assertThat(Suggestions.closest("kib", List.of("B", "KB", "KiB"))).contains("KiB");
        assertThat(Suggestions.closest("gbps", List.of("bps", "Kbps", "Gbps"))).contains("Gbps");
        assertThat(Suggestions.closest("KiB", List.of("KB", "KiB"))).isEmpty();
    }

    @Test
    void integersWrittenAsDecimalsBeyondTwoToTheFiftyThreeAreRefusedNotRounded() {
        // 9007199254740993 written as a decimal is the double 9007199254740992: one off, silently
        assertThat(bindError(map("seed", 9.007199254740993e15))).contains("seed: expected an integer written out in digits");
        assertThat(ScenarioBinder.bind(map("seed", 9007199254740993L)).seed()).isEqualTo(9007199254740993L);
        assertThat(ScenarioBinder.bind(map("seed", 1e6)).seed()).isEqualTo(1_000_000L);
        assertThat(bindError(map("topology", map("k", 1e20)))).contains("topology.k: expected an integer between");
    }

    private static String refusal(String text) {
        try {
            Scalars.plain(text);
        } catch (Scalars.Refused e) {
            return e.getMessage();
        }
        throw new AssertionError(text + " was not refused");
    }

    private static String unitError(String path, String value) {
        return bindError(Overrides.apply(map(), List.of(path + "=" + value)));
    }

    private static String bindError(Map<String, Object> tree) {
        try {
            ScenarioBinder.bind(tree);
        } catch (ScenarioException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a ScenarioException for " + tree);
    }
}
