package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lbsim.scenario.Ranges.Case.ok;
import static org.lbsim.scenario.Ranges.Case.refused;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.Ranges;
import org.lbsim.scenario.ScenarioException;

/**
 * The numeric parameters of the schemes of this package (REPS, PLB, AR, HOST FLOWLET AR, SUBFLOW,
 * SWITCH PKT / SIMPLE RR, FLOW, DRILL): the values just inside each bound are taken, those just
 * outside refused with the field and its range; SWITCH PKT AR's bin edges and the named readings too.
 */
class LbParamsRangeTest {
    private static final String PERIOD = "between 0.000001 (1 ps) and 1000000000";

    /** One case on the defaults of one scheme's parameters. */
    record On(Record base, Ranges.Case c) {
        @Override
        public String toString() {
            return base.getClass().getName().replace("org.lbsim.lb.", "") + " " + c;
        }
    }

    private static final Reps.Params REPS = new Reps.Params(8, 10_000, 1, Reps.TIMEOUT_ON_REUSE, 10, 16_000);
    private static final Plb.Params PLB = Plb.Params.defaults();
    private static final AdaptiveRouting.Params AR = new AdaptiveRouting.Params(1, 8);
    private static final HostFlowletAr.Params FLOWLET = new HostFlowletAr.Params(0, 0.4);
    private static final Subflows.Params SUBFLOW = new Subflows.Params(4);
    private static final SwitchRoundRobin.Params RR = new SwitchRoundRobin.Params(5, false);
    private static final FlowEcmp.Params FLOW = FlowEcmp.Params.defaults();
    private static final SwitchQueueScheme.DrillParams DRILL = new SwitchQueueScheme.DrillParams(2);

    static Stream<On> cases() {
        return Stream.of(
                on(REPS, refused("cacheSize", 0, "between 1 and 65536")), on(REPS, ok("cacheSize", 1)), on(REPS, ok("cacheSize", 1 << 16)),
                on(REPS, refused("cacheSize", (1 << 16) + 1, "between 1 and 65536")),
                on(REPS, refused("freezeUs", 0.0000004, PERIOD)), on(REPS, ok("freezeUs", 0.0)), on(REPS, ok("freezeUs", 0.000001)),
                on(REPS, ok("freezeUs", 1e9)), on(REPS, refused("freezeUs", Math.nextUp(1e9), PERIOD)),
                on(REPS, refused("exploreRtts", -Double.MIN_VALUE, "must be >= 0")), on(REPS, ok("exploreRtts", 0.0)),
                on(REPS, refused("exploreRtts", Double.POSITIVE_INFINITY, "must be >= 0")), on(REPS, refused("exploreRtts", Double.NaN, "must be >= 0")),
                on(REPS, refused("minRtoUs", 0.0, PERIOD)), on(REPS, ok("minRtoUs", 0.000001)), on(REPS, ok("minRtoUs", 1e9)),
                on(REPS, refused("minRtoUs", Math.nextUp(1e9), PERIOD)),
                on(REPS, refused("entropyValues", 1, "between 2 and 65536")), on(REPS, ok("entropyValues", 2)), on(REPS, ok("entropyValues", 1 << 16)),
                on(REPS, refused("entropyValues", (1 << 16) + 1, "between 2 and 65536")),

                on(PLB, refused("congestedShare", -Double.MIN_VALUE, "between 0 and 1")), on(PLB, ok("congestedShare", 0.0)),
                on(PLB, ok("congestedShare", 1.0)), on(PLB, refused("congestedShare", Math.nextUp(1.0), "between 0 and 1")),
                on(PLB, refused("rehashRounds", 0, "between 1 and 31")), on(PLB, ok("rehashRounds", 1)), on(PLB, ok("rehashRounds", 31)),
                on(PLB, refused("rehashRounds", 32, "between 1 and 31")),
                on(PLB, refused("idleRehashRounds", -1, "between 0 and 31")), on(PLB, ok("idleRehashRounds", 0)), on(PLB, ok("idleRehashRounds", 31)),
                on(PLB, refused("idleRehashRounds", 32, "between 0 and 31")),
                on(PLB, refused("suspendAfterTimeoutUs", -1L, "between 0 and 255000000")), on(PLB, ok("suspendAfterTimeoutUs", 0L)),
                on(PLB, ok("suspendAfterTimeoutUs", 255_000_000L)), on(PLB, refused("suspendAfterTimeoutUs", 255_000_001L, "between 0 and 255000000")),

                on(AR, refused("refreshUs", 0.0, PERIOD)), on(AR, ok("refreshUs", 0.000001)), on(AR, ok("refreshUs", 1e9)),
                on(AR, refused("refreshUs", Math.nextUp(1e9), PERIOD)),
                on(AR, refused("levels", 1, "between 2 and 64")), on(AR, ok("levels", 2)), on(AR, ok("levels", 64)), on(AR, refused("levels", 65, "between 2 and 64")),

                on(FLOWLET, refused("alphaPackets", -1, "must be >= 0")), on(FLOWLET, ok("alphaPackets", 0)),
                on(FLOWLET, refused("beta", -Double.MIN_VALUE, "between 0 and 1")), on(FLOWLET, ok("beta", 0.0)), on(FLOWLET, ok("beta", 1.0)),
                on(FLOWLET, refused("beta", Math.nextUp(1.0), "between 0 and 1")),

                on(SUBFLOW, refused("subflows", 0, "between 1 and 1024")), on(SUBFLOW, ok("subflows", 1)), on(SUBFLOW, ok("subflows", 1024)),
                on(SUBFLOW, refused("subflows", 1025, "between 1 and 1024")),

                on(RR, refused("permuteEvery", -1, "must be >= 0")), on(RR, ok("permuteEvery", 0)),

                on(FLOW, refused("htsimSeed", -1, "non-negative")), on(FLOW, ok("htsimSeed", 0)),

                on(DRILL, refused("samples", 0, "must be >= 1")), on(DRILL, ok("samples", 1)));
    }

    private static On on(Record base, Ranges.Case c) {
        return new On(base, c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachBoundTakesTheValueJustInsideAndRefusesTheOneJustOutside(On on) {
        on.c().check(on.base());
    }

    @Test
    void everyNumericParameterIsCheckedOnBothSidesOfABound() {
        Map<Class<?>, List<Ranges.Case>> byRecord = cases().collect(Collectors.groupingBy(o -> o.base().getClass(),
                Collectors.mapping(On::c, Collectors.toList())));
        for (Record base : List.of(REPS, PLB, AR, FLOWLET, SUBFLOW, RR, FLOW, DRILL)) {
            assertThat(Ranges.fieldsWithBothVerdicts(byRecord.get(base.getClass()).stream())).as(base.getClass().getName())
                    .isEqualTo(Ranges.numericFields(base.getClass()));
        }
    }

    private static ScenarioException refusal(Runnable make) {
        ScenarioException e = catchThrowableOfType(make::run, ScenarioException.class);
        assertThat(e).isNotNull();
        return e;
    }

    @Test
    void anUnknownTimeoutReadingOrHashIsRefusedNamingTheField() {
        ScenarioException reps = refusal(() -> Ranges.with(REPS, "timeoutFrom", "rto"));
        assertThat(reps.field()).isEqualTo("timeoutFrom");
        assertThat(reps.problem()).isEqualTo("must be 'reuse' or 'loss-recovery', got 'rto'");
        assertThat(Ranges.with(REPS, "timeoutFrom", Reps.TIMEOUT_FROM_LOSS_RECOVERY).timeoutFrom()).isEqualTo("loss-recovery");
        ScenarioException flow = refusal(() -> Ranges.with(FLOW, "hash", "crc"));
        assertThat(flow.field()).isEqualTo("hash");
        assertThat(flow.problem()).isEqualTo("must be 'mix64' or 'htsim', got 'crc'");
        assertThat(Ranges.with(FLOW, "hash", FlowEcmp.Params.HTSIM).hash()).isEqualTo("htsim");
    }

    @Test
    void flowsDefaultsAreLbsimsOwnHashWithHtsimsDefaultSeed() {
        assertThat(FlowEcmp.Params.defaults()).isEqualTo(new FlowEcmp.Params(FlowEcmp.Params.MIX64, 13));
    }

    @Test
    void binEdgesMustIncreaseWithinZeroToOne() {
        assertThat(new SwitchQueueScheme.QuantizedParams(List.of(0.05, 0.1, 1.0)).quanta()).containsExactly(0.05, 0.1, 1.0);
        assertThat(new SwitchQueueScheme.QuantizedParams(List.of(Double.MIN_VALUE)).quanta()).containsExactly(Double.MIN_VALUE);
        assertThat(refusal(() -> new SwitchQueueScheme.QuantizedParams(List.of())).field()).isEqualTo("quanta");
        assertThat(refusal(() -> new SwitchQueueScheme.QuantizedParams(null)).field()).isEqualTo("quanta");
        ScenarioException zero = refusal(() -> new SwitchQueueScheme.QuantizedParams(List.of(0.0, 0.5)));
        assertThat(zero.field()).isEqualTo("quanta[0]");
        assertThat(zero.problem()).isEqualTo("bin edges must increase within (0, 1], got 0.0");
        assertThat(refusal(() -> new SwitchQueueScheme.QuantizedParams(List.of(0.2, 0.2))).field()).isEqualTo("quanta[1]");
        assertThat(refusal(() -> new SwitchQueueScheme.QuantizedParams(List.of(0.2, 0.1))).field()).isEqualTo("quanta[1]");
        assertThat(refusal(() -> new SwitchQueueScheme.QuantizedParams(List.of(0.5, Math.nextUp(1.0)))).field()).isEqualTo("quanta[1]");
    }
}
