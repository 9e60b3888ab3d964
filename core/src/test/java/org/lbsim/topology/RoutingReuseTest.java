package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;

/**
 * Routing reuses a destination's distances for the next destination attached the same way (the
 * k = 32 FIB in a fraction of the time); the FIB must be the one the full computation builds,
 * array for array (groups, their order and local indices, classes), on healthy and failed fabrics.
 */
class RoutingReuseTest {
    private static final LinkSpec L = new LinkSpec(400, 1000);

    static Stream<Arguments> fabrics() {
        List<Arguments> cases = new ArrayList<>();
        List<TopologySpec> specs = List.of(new TopologySpec.FatTree(4, L, L, L), new TopologySpec.FatTree(6, L, L, L), new TopologySpec.FatTree(8, L, L, L),
                new TopologySpec.FatTree(4, 4, 2, L, L, L), new TopologySpec.FatTree(8, 10, 1, L, L, L), new TopologySpec.LeafSpine(4, 2, 2, 2, 1, L, L),
                new TopologySpec.RailLeafSpine(4, 2, 2, 3, 2, L, L));
        for (TopologySpec spec : specs) {
            for (double failed : new double[] {0, 0.02, 0.1, 0.3}) {
                cases.add(Arguments.of(spec, failed, 1 + cases.size()));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, {1} of the links down, seed {2}")
    @MethodSource("fabrics")
    void reusingTheNeighboursDistancesBuildsTheSameFibAsComputingEveryDestination(TopologySpec spec, double failed, long seed) {
        Topology t = Topologies.build(spec);
        SplittableRandom rng = new SplittableRandom(seed);
        boolean[] down = new boolean[t.linkCount()];
        for (int l = 0; l < down.length; l++) {
            down[l] = rng.nextDouble() < failed; // access links included: their hosts get classes of their own
        }
        Fib full = Routing.compute(t, down, false);
        Fib reused = Routing.compute(t, down, true);
        assertThat(reused).usingRecursiveComparison().isEqualTo(full);
        assertThat(full.destinationClasses()).isPositive();
    }
}
