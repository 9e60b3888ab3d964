package org.lbsim.lb.dnlb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * CTCCL 3.3 on the numbers of one fabric (2 leaves of 2 hosts, 2 spines, 2 parallel links each: 4
 * uplinks per leaf): which uplinks the library knows are down, read off converged routes, and where a
 * queue pair whose uplink is down sends its remaining data.
 */
class UplinkHealthTest {
    private static final LinkSpec LINK = new LinkSpec(100, 100);
    private final Topology t = Topologies.leafSpine(2, 2, 2, 2, LINK, LINK);
    private final LeafPlan plan = new LeafPlan(t);
    private final boolean[] linkDown = new boolean[t.linkCount()];

    /** Routes converged with leaf 0's uplink {@code n} down (or all up for -1). */
    private Fib routesWithout(int n) {
        java.util.Arrays.fill(linkDown, false);
        if (n >= 0) {
            linkDown[t.linkOf(plan.uplink(0, n))] = true;
        }
        return Routing.compute(t, linkDown);
    }

    private static int[] segments(int[] ports, int uplinks) {
        int[] s = new int[ports.length];
        for (int q = 0; q < ports.length; q++) {
            s[q] = PortSegments.segmentOf(ports[q], uplinks);
        }
        return s;
    }

    /** The 4 queue pairs of NIC 0's connection: Eq. 3 gives queue pair q the first port of segment q. */
    private final int[] ports = {PortSegments.sourcePort(0, 4, 0, 4), PortSegments.sourcePort(0, 4, 1, 4), PortSegments.sourcePort(0, 4, 2, 4),
        PortSegments.sourcePort(0, 4, 3, 4)};

    @Test
    void anUplinkNoRouteOfItsLeafUsesIsDownAndEveryChangeCountsOnce() {
        UplinkHealth health = new UplinkHealth(plan, routesWithout(-1));
        int start = health.version();
        assertThat(health.changes()).isZero();
        assertThat(health.update(routesWithout(0))).isTrue();
        assertThat(health.isDown(0, 0)).isTrue();
        for (int n = 1; n < 4; n++) {
            assertThat(health.isDown(0, n)).isFalse();
            assertThat(health.isDown(1, n)).as("leaf 1 still reaches leaf 0 over every spine").isFalse();
        }
        assertThat(health.isDown(1, 0)).isFalse();
        assertThat(health.changes()).isEqualTo(1);
        assertThat(health.version()).isNotEqualTo(start);
        int afterFailure = health.version();
        assertThat(health.update(routesWithout(0))).as("the same routes again").isFalse();
        assertThat(health.version()).isEqualTo(afterFailure);
        assertThat(health.changes()).isEqualTo(1);
        assertThat(health.update(routesWithout(-1))).isTrue();
        assertThat(health.isDown(0, 0)).isFalse();
        assertThat(health.changes()).isEqualTo(2);
    }

    @Test
    void aLinkDownFromTheStartIsKnownButIsNoChange() {
        UplinkHealth health = new UplinkHealth(plan, routesWithout(2));
        assertThat(health.isDown(0, 2)).isTrue();
        assertThat(health.changes()).isZero();
    }

    /**
     * Uplink 0 fails after queue pair 0's policy is made but before its first packet: that packet already
     * goes out with a working sibling's port, sibling (rotation 1) mod 3 = the second of 1, 2, 3, and the
     * queue pair counts as moved once; when the uplink is back it returns to its own port.
     */
    @Test
    void aQueuePairWhoseUplinkIsDownSendsWithAWorkingSiblingsPortUntilItIsBack() {
        UplinkHealth health = new UplinkHealth(plan, routesWithout(-1));
        Dnlb.Tally tally = new Dnlb.Tally();
        DnlbEntropy qp0 = new DnlbEntropy(ports, segments(ports, 4), 0, 0, -1, 1, health, tally);
        DnlbEntropy qp1 = new DnlbEntropy(ports, segments(ports, 4), 1, 0, -1, 1, health, tally);
        health.update(routesWithout(0));
        assertThat(qp0.entropyFor(0, false)).isEqualTo(ports[2]);
        assertThat(qp0.moved()).isTrue();
        assertThat(qp0.entropyFor(1, false)).isEqualTo(ports[2]);
        assertThat(qp1.entropyFor(0, false)).as("its own uplink works").isEqualTo(ports[1]);
        assertThat(qp1.moved()).isFalse();
        assertThat(tally.movedQueuePairs).isEqualTo(1);
        health.update(routesWithout(-1));
        assertThat(qp0.entropyFor(2, false)).isEqualTo(ports[0]);
        assertThat(qp0.moved()).isFalse();
        health.update(routesWithout(0));
        assertThat(qp0.entropyFor(3, false)).isEqualTo(ports[2]);
        assertThat(tally.movedQueuePairs).as("moved again after coming back").isEqualTo(2);
    }

    /** Across virtual spines the path also uses the destination leaf's uplink of the same index: its failure moves leaf 1's queue pair 0. */
    @Test
    void theDestinationLeafsUplinkOfTheSameVirtualSpineCountsToo() {
        UplinkHealth health = new UplinkHealth(plan, routesWithout(-1));
        Dnlb.Tally tally = new Dnlb.Tally();
        DnlbEntropy coupled = new DnlbEntropy(ports, segments(ports, 4), 0, 1, 0, 0, health, tally);
        DnlbEntropy uncoupled = new DnlbEntropy(ports, segments(ports, 4), 0, 1, -1, 0, health, tally);
        health.update(routesWithout(0));
        assertThat(coupled.entropyFor(0, false)).isEqualTo(ports[1]);
        assertThat(uncoupled.entropyFor(0, false)).isEqualTo(ports[0]);
    }

    /** With every sibling's path down as well there is nowhere to move: the queue pair keeps its port. */
    @Test
    void withNoWorkingSiblingTheQueuePairStays() {
        int[] alone = {ports[0]};
        UplinkHealth health = new UplinkHealth(plan, routesWithout(-1));
        Dnlb.Tally tally = new Dnlb.Tally();
        DnlbEntropy qp = new DnlbEntropy(alone, segments(alone, 4), 0, 0, -1, 0, health, tally);
        health.update(routesWithout(0));
        assertThat(qp.entropyFor(0, false)).isEqualTo(ports[0]);
        assertThat(qp.moved()).isFalse();
        assertThat(tally.movedQueuePairs).isZero();
    }
}
