package org.lbsim.lb.pro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/** The paths PRO numbers on a fabric (III-A, V): PathIDs and their inverse, the limits of the 12-bit PathID, the fabrics it refuses. */
class ProFabricTest {
    private static Topology leafSpine(int hostsPerLeaf, int leaves, int spines, int parallel) {
        return Topologies.leafSpine(hostsPerLeaf, leaves, spines, parallel, LinkSpec.defaults(), LinkSpec.defaults());
    }

    @Test
    void everyPathIdThatNamesNoPathMapsToNoIndex() {
        ProFabric f = new ProFabric(leafSpine(4, 2, 4, 2));
        assertThat(f.paths).isEqualTo(16);
        int named = 0;
        for (int id = 0; id < f.indexOfPathId.length; id++) {
            int index = f.indexOfPathId[id];
            if (index >= 0) {
                assertThat(f.pathIdOfIndex[index]).isEqualTo(id);
                named++;
            } else {
                assertThat(index).as("PathID %d", id).isEqualTo(-1);
            }
        }
        assertThat(named).isEqualTo(16);
    }

    @Test
    void sixtyFourParallelLinksFillBothPathIdFieldsAndSixtyFiveAreRefused() {
        ProFabric full = new ProFabric(leafSpine(1, 2, 1, 64));
        assertThat(full.uplinks).isEqualTo(64);
        assertThat(full.downlinks).isEqualTo(64);
        assertThat(full.paths).isEqualTo(4096);
        assertThat(full.pathIdOfIndex[4095]).isEqualTo(PathIds.of(63, 63));
        assertThatThrownBy(() -> new ProFabric(leafSpine(1, 2, 1, 65))).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("at most 64 ToR uplinks and 64 parallel Aggr downlinks, got 65 and 65");
    }

    /** A rail-optimized leaf has every nics-th host: no destination range covers them, so PRO's ToR rules cannot be written. */
    @Test
    void aToRWhoseHostsAreNotConsecutiveIsRefused() {
        Topology t = Topologies.railLeafSpine(2, 1, 2, 2, 1, LinkSpec.defaults(), LinkSpec.defaults());
        ProFabric f = new ProFabric(t);
        int l0 = t.hostSwitch(0);
        assertThat(t.hostSwitch(2)).isEqualTo(l0);
        assertThatThrownBy(() -> f.hostRange(l0)).isInstanceOf(ScenarioException.class).hasMessageContaining("numbered consecutively");
        Topology consecutive = leafSpine(2, 3, 2, 1);
        assertThat(new ProFabric(consecutive).hostRange(consecutive.hostSwitch(2))).containsExactly(2, 3);
    }
}
