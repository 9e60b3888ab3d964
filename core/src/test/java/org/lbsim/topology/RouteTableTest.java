package org.lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;

/**
 * The FIB is stored per destination class: every (switch, destination host) lookup must
 * still return exactly the group that was computed for that pair, host-specific routes included.
 */
class RouteTableTest {
    private static final LinkSpec L = LinkSpec.defaults();

    /** A Fib over {@code groups} one-port groups, built from columns given per destination. */
    private static Fib fibOf(int switches, int groups, int[][] columns, int[][] attached) {
        RouteTable table = new RouteTable(switches, columns.length, columns.length);
        for (int d = 0; d < columns.length; d++) {
            table.add(d, columns[d], attached[d], attached[d].length);
        }
        int[] start = new int[groups + 1];
        int[] ports = new int[groups];
        int[] weights = new int[groups];
        int[] local = new int[groups];
        for (int g = 0; g < groups; g++) {
            start[g + 1] = g + 1;
            ports[g] = g;
            weights[g] = 1;
            local[g] = g;
        }
        int[] perSwitch = new int[switches];
        java.util.Arrays.fill(perSwitch, groups);
        return new Fib(columns.length, table.classCount(), table.classOf(), table.switchMajor(), table.hostStart(), table.hostGroups(),
                start, ports, weights, local, perSwitch);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyLookupReturnsTheGroupItsColumnHadWhateverTheSharing(int seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int switches = 1 + rng.nextInt(12);
        int hosts = 1 + rng.nextInt(40);
        int groups = 1 + rng.nextInt(6);
        // a few template columns, so that many destinations share all or most of theirs
        int[][] templates = new int[1 + rng.nextInt(4)][switches];
        for (int[] tpl : templates) {
            for (int s = 0; s < switches; s++) {
                tpl[s] = rng.nextInt(groups);
            }
        }
        int[][] columns = new int[hosts][];
        int[][] attached = new int[hosts][];
        for (int d = 0; d < hosts; d++) {
            columns[d] = templates[rng.nextInt(templates.length)].clone();
            int[] att = rng.ints(0, switches).limit(rng.nextInt(Math.min(3, switches) + 1)).distinct().sorted().toArray();
            attached[d] = new int[att.length];
            for (int i = 0; i < att.length; i++) {
                attached[d][i] = hosts + att[i];
                columns[d][att[i]] = rng.nextInt(groups); // the last hop: host-specific
            }
            if (rng.nextInt(5) == 0) {
                columns[d][rng.nextInt(switches)] = rng.nextInt(groups); // a host-specific route elsewhere
            }
        }
        Fib fib = fibOf(switches, groups, columns, attached);
        for (int d = 0; d < hosts; d++) {
            for (int s = 0; s < switches; s++) {
                assertThat(fib.group(hosts + s, d)).as("switch %d, destination %d", s, d).isEqualTo(columns[d][s]);
            }
        }
        assertThat(fib.destinationClasses()).isBetween(1, hosts);
    }

    @Test
    void destinationsThatDifferOnlyAtTheirOwnSwitchShareAClass() {
        int[][] columns = {{0, 1, 2}, {0, 1, 3}, {0, 4, 2}, {0, 1, 2}};
        int[][] attached = {{4 + 2}, {4 + 2}, {4 + 2}, {4 + 1}};
        Fib fib = fibOf(3, 5, columns, attached);
        // 0 and 1 differ only at their switch 2; 2 differs at switch 1, which it is not attached to;
        // 3 equals 0's column but is attached to switch 1, so its key differs
        assertThat(fib.destinationClasses()).isEqualTo(3);
        assertThat(fib.group(4 + 2, 1)).isEqualTo(3);
        assertThat(fib.group(4 + 1, 2)).isEqualTo(4);
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {4, 8})
    void aHealthyFatTreeHasOneClassPerToR(int k) {
        Topology t = Topologies.fatTree(k, L, L, L);
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        assertThat(fib.destinationClasses()).isEqualTo(k * k / 2);
    }

    @Test
    void aFailedAccessLinkGivesItsHostAClassOfItsOwnAndAnEmptyGroupAtItsToR() {
        Topology t = Topologies.fatTree(4, L, L, L);
        boolean[] down = new boolean[t.linkCount()];
        int host = 5;
        down[t.linkOf(t.hostPort(host))] = true;
        Fib fib = Routing.compute(t, down);
        assertThat(fib.destinationClasses()).isEqualTo(4 * 4 / 2 + 1);
        assertThat(fib.groupSize(fib.group(t.hostSwitch(host), host))).isZero();
        int neighbour = host ^ 1; // the other host of its ToR (k = 4: two per ToR)
        assertThat(t.hostSwitch(neighbour)).isEqualTo(t.hostSwitch(host));
        assertThat(fib.groupSize(fib.group(t.hostSwitch(host), neighbour))).isEqualTo(1);
        assertThat(t.peerNode(fib.port(fib.group(t.hostSwitch(host), neighbour), 0))).isEqualTo(neighbour);
    }

    @Test
    void aStaticRouteForOneHostKeepsItsOwnNextHop() {
        // two hosts on switch a, b between a and c; a static route sends h1's traffic at c via b, h0's goes direct
        Topology t = Topologies.build(new TopologySpec.Custom(3, List.of("a", "b", "c"),
                List.of("h0 a", "h1 a", "h2 c", "a b", "b c", "a c"), 100, 1000, List.of("c h1 b"), 1));
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int c = t.nodeByName("c");
        assertThat(t.peerNode(fib.port(fib.group(c, 0), 0))).isEqualTo(t.nodeByName("a"));
        assertThat(fib.groupSize(fib.group(c, 1))).isEqualTo(1);
        assertThat(t.peerNode(fib.port(fib.group(c, 1), 0))).isEqualTo(t.nodeByName("b"));
    }
}
