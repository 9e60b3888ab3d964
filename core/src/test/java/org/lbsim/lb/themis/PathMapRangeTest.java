package org.lbsim.lb.themis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioBuilder;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.PreparedRun;

/**
 * The PathMap's numeric limits (3.2): every ECMP group a ToR's packets meet is a power of two (a
 * CRC slice modulo the group is linear only then), and the relative paths fit the 16-bit source port
 * (at most 2^16). On a leaf-spine the leaf's group is its spines x linksPerLeafSpine uplinks and, with
 * parallel links, a spine's group of links down to the leaf is a second stage.
 */
class PathMapRangeTest {
    private static Themis crc() {
        Themis.Params d = Themis.Params.defaults();
        return new Themis(d.with(Themis.Params.CRC32, d.observeDataAt()));
    }

    private static ScenarioBuilder leafSpine(int spines, int linksPerLeafSpine) {
        return Lbsim.scenario().leafSpine(1, 2, spines).set("topology.linksPerLeafSpine", linksPerLeafSpine).permutation(4096);
    }

    private static PathMap pathMap(ScenarioBuilder s) {
        Themis themis = crc();
        PreparedRun run = s.prepare(themis);
        return themis.tor(run.topology().nodeByName("l0")).pathMap();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8, 64})
    void aPowerOfTwoGroupHasOneEntryPerMember(int spines) {
        assertThat(pathMap(leafSpine(spines, 1)).entries()).isEqualTo(spines);
    }

    @Test
    void aGroupOfOneIsNoStage() {
        PathMap map = pathMap(leafSpine(1, 1));
        assertThat(map.entries()).isEqualTo(1);
        assertThat(map.stageSizes()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5, 7, 9, 63, 65})
    void aGroupNextToAPowerOfTwoIsRefusedNamingItsSize(int spines) {
        ScenarioException e = catchThrowableOfType(() -> pathMap(leafSpine(spines, 1)), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("loadBalancing.switchHash");
        assertThat(e.problem()).contains("needs power-of-two ECMP groups").contains("meets a group of " + spines + " at tier");
    }

    @Test
    void parallelLinksAreASecondStage() {
        PathMap map = pathMap(leafSpine(4, 2));
        assertThat(map.stageSizes()).containsExactly(8, 2);
        assertThat(map.entries()).isEqualTo(16);
    }

    @Test
    void twoToTheFifteenPathsOnOneStageAreAllReached() {
        PathMap map = pathMap(leafSpine(1 << 15, 1));
        assertThat(map.stageSizes()).containsExactly(1 << 15);
        assertThat(map.entries()).isEqualTo(1 << 15);
        for (int rel = 0; rel < map.entries(); rel += 1021) {
            assertThat(PathMap.relativePath(map.stageTiers(), map.stageSizes(), map.mask(rel))).isEqualTo(rel);
        }
    }

    /** 2^16 paths fit the source port's 16 bits, but the CRC slices the switches use move only 2^15 of them. */
    @Test
    void twoToTheSixteenPathsPassTheSourcePortBoundAndAreRefusedForTheMasksTheyLack() {
        ScenarioException e = catchThrowableOfType(() -> pathMap(leafSpine(1 << 14, 2)), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("loadBalancing.switchHash");
        assertThat(e.problem()).isEqualTo("Themis's PathMap (3.2): the source-port masks reach only 32768 of the 65536 relative paths of l0;"
                + " 'mix64' sprays the ToR's uplinks only");
    }

    @Test
    void twoToTheSeventeenPathsAreRefused() {
        ScenarioException e = catchThrowableOfType(() -> pathMap(leafSpine(1 << 15, 2)), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("loadBalancing.switchHash");
        assertThat(e.problem()).contains("steers at most 2^16 paths with a 16-bit source port, got 2^17");
    }

    /** With l2's link to s0 down from the start, l0 reaches l1's host over 8 spines and l2's over 7: not one PathMap for both. */
    @Test
    void destinationsWhoseStagesDifferAreRefused() {
        ScenarioException e = catchThrowableOfType(() -> pathMap(leafSpine(8, 1).leafSpine(1, 3, 8).failLink("l2", "s0")), ScenarioException.class);
        assertThat(e).isNotNull();
        assertThat(e.field()).isEqualTo("loadBalancing.switchHash");
        assertThat(e.problem()).contains("needs every destination's hash stages to be a prefix of the farthest one's").contains("l0 to host 2 differs");
    }
}
