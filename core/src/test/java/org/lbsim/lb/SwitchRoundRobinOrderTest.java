package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Simulator;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * SWITCH PKT (OFAN 3.2 (5), Table 2 "permute every 5 wraparounds") and SIMPLE RR (OFAN 6.1 (i)),
 * driven by hand at one switch: every cycle of {@code count} packets visits each next hop once; the
 * visiting order of SWITCH PKT is re-drawn every 5 wrap-arounds, that of SIMPLE RR never. SWITCH PKT's
 * pointer is shared by data and ACKs (htsim); SIMPLE RR keeps one per packet class.
 */
class SwitchRoundRobinOrderTest {
    private static final int BLOCKS = 200;

    /** The uplink group of the first edge / leaf switch, and the hosts outside it that use that group. */
    private record Site(Topology topology, Fib fib, int node, int group, int[] farHosts) {
        static Site of(Topology t) {
            Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
            int node = t.hostSwitch(0);
            int[] far = java.util.stream.IntStream.range(0, t.hostCount()).filter(h -> t.hostSwitch(h) != node).toArray();
            return new Site(t, fib, node, fib.group(node, far[0]), far);
        }

        int count() {
            return fib.groupSize(group);
        }

        /** Index of {@code port} within the group, in FIB order. */
        int indexOf(int port) {
            for (int i = 0; i < count(); i++) {
                if (fib.port(group, i) == port) {
                    return i;
                }
            }
            throw new AssertionError("port " + port + " is not in the group");
        }
    }

    private static Site site(int uplinks) {
        // a k = 8 fat tree's edge has 4 uplinks; a leaf of a leaf-spine with 8 spines has 8
        return uplinks == 4
                ? Site.of(Topologies.fatTree(8, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults()))
                : Site.of(Topologies.leafSpine(2, 4, uplinks, 1, LinkSpec.defaults(), LinkSpec.defaults()));
    }

    /**
     * Candidate indices chosen for {@code n} packets to hosts drawn from the far hosts (all in the
     * same next-hop group, so they share the group's pointer).
     */
    private static int[] drive(String scheme, Site s, long seed, int n) {
        PortSelector sel = ChoiceRecorder.scheme(scheme).newPortSelector(
                new SwitchContext(s.node(), s.topology(), s.fib(), new SplittableRandom(seed), null, new Simulator()));
        PacketPool pool = new PacketPool();
        SplittableRandom dsts = new SplittableRandom(seed ^ 0x5EEDL);
        int[] chosen = new int[n];
        for (int i = 0; i < n; i++) {
            int dst = s.farHosts()[dsts.nextInt(s.farHosts().length)];
            assertThat(s.fib().group(s.node(), dst)).isEqualTo(s.group());
            Packet p = ChoiceRecorder.packet(pool, 0, dst, isAck(i) ? Packet.ACK : Packet.DATA);
            chosen[i] = s.indexOf(sel.select(p, s.group(), s.fib().groupPorts(), s.fib().groupOffset(s.group()), s.count()));
            pool.release(p);
        }
        return chosen;
    }

    /** Whether {@link #drive} sends packet {@code i} as an ACK: every third packet, the others are data. */
    private static boolean isAck(int i) {
        return i % 3 == 0;
    }

    /** Offsets s in [0, count) such that every full window [s + c * count, s + (c + 1) * count) visits each index once. */
    private static List<Integer> cycleAlignments(int[] chosen, int count) {
        List<Integer> ok = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            boolean all = true;
            for (int start = s; start + count <= chosen.length && all; start += count) {
                all = isPermutation(chosen, start, count);
            }
            if (all) {
                ok.add(s);
            }
        }
        return ok;
    }

    private static boolean isPermutation(int[] a, int from, int count) {
        boolean[] seen = new boolean[count];
        for (int i = from; i < from + count; i++) {
            if (seen[a[i]]) {
                return false;
            }
            seen[a[i]] = true;
        }
        return true;
    }

    /** The visiting order of each full cycle from alignment {@code s}. */
    private static List<int[]> cycles(int[] chosen, int count, int s) {
        List<int[]> out = new ArrayList<>();
        for (int start = s; start + count <= chosen.length; start += count) {
            out.add(Arrays.copyOfRange(chosen, start, start + count));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} uplinks")
    @ValueSource(ints = {4, 8})
    void switchPktVisitsEveryNextHopOncePerCycleAndRedrawsTheOrderEveryFiveWrapArounds(int uplinks) {
        Site s = site(uplinks);
        int count = s.count();
        assertThat(count).isEqualTo(uplinks);
        for (long seed = 1; seed <= 5; seed++) {
            int[] chosen = drive("switch-pkt", s, seed, count * 5 * BLOCKS + count - 1);

            List<Integer> alignments = cycleAlignments(chosen, count);
            assertThat(alignments).as("seed %d: offsets whose every cycle of %d packets visits all %d next hops once", seed, count, count)
                    .hasSize(1); // re-drawn orders break every other alignment
            List<int[]> cycles = cycles(chosen, count, alignments.get(0));

            // cycle c differs from cycle c - 1 only where a new order was drawn
            List<Integer> changes = new ArrayList<>();
            for (int c = 1; c < cycles.size(); c++) {
                if (!Arrays.equals(cycles.get(c), cycles.get(c - 1))) {
                    changes.add(c);
                }
            }
            Set<Integer> phases = new HashSet<>();
            for (int c : changes) {
                phases.add(c % 5);
            }
            int minGap = Integer.MAX_VALUE;
            for (int i = 1; i < changes.size(); i++) {
                minGap = Math.min(minGap, changes.get(i) - changes.get(i - 1));
            }
            Set<String> orders = new HashSet<>();
            for (int[] c : cycles) {
                orders.add(Arrays.toString(c));
            }
            long factorial = java.util.stream.LongStream.rangeClosed(1, count).reduce(1, (a, b) -> a * b);
            String measured = String.format("seed %d: %d cycles, order changed at %d cycle boundaries (phases mod 5 %s, min gap %d), %d distinct orders",
                    seed, cycles.size(), changes.size(), phases, minGap, orders.size());
            assertThat(phases).as(measured + "; all changes in one phase of 5, so the 5 cycles of a block share their order").hasSize(1);
            assertThat(minGap).as(measured).isEqualTo(5);
            // a fresh random order equals the old one with probability 1/count!, so nearly every block boundary shows a change
            assertThat((double) changes.size()).as(measured).isGreaterThan(0.8 * (BLOCKS - 1) * (1 - 1.0 / factorial));
            assertThat((long) orders.size()).as(measured).isGreaterThanOrEqualTo(Math.min(factorial, 40) * 3 / 4);
        }
    }

    @ParameterizedTest(name = "{0} uplinks")
    @ValueSource(ints = {4, 8})
    void simpleRrKeepsOnePointerPerGroupAndPacketClassAndNeverChangesItsOrder(int uplinks) {
        Site s = site(uplinks);
        int count = s.count();
        Set<Integer> firstPorts = new HashSet<>();
        for (long seed = 1; seed <= 20; seed++) {
            int n = count * 5 * 40;
            int[] chosen = drive("simple-rr", s, seed, n);
            // data and ACKs each step through the group in FIB order on their own pointer, whatever the
            // destination, and however the two classes interleave (OFAN 7: one pointer per packet-size class)
            List<Integer> data = new ArrayList<>();
            List<Integer> acks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                (isAck(i) ? acks : data).add(chosen[i]);
            }
            for (List<Integer> cls : List.of(data, acks)) {
                for (int i = 1; i < cls.size(); i++) {
                    assertThat(cls.get(i)).as("seed %d, %s packet %d after %d", seed, cls == data ? "data" : "ACK", i, cls.get(i - 1))
                            .isEqualTo((cls.get(i - 1) + 1) % count);
                }
            }
            int[] dataChosen = data.stream().mapToInt(Integer::intValue).toArray();
            assertThat(cycleAlignments(dataChosen, count)).as("seed %d: every alignment of the data packets is a full cycle", seed).hasSize(count);
            firstPorts.add(dataChosen[0]);
            // with one pointer shared by both classes (as SWITCH PKT's), the ACKs in between would break the data's cycles
            assertThat(cycleAlignments(chosen, count)).as("seed %d: the mixed sequence is not a round robin of its own", seed).hasSizeLessThan(count);
        }
        assertThat(firstPorts).as("random start positions over 20 seeds").hasSizeGreaterThan(1);
    }

    @Test
    void simpleRrKeepsTheGroupsOfOneSwitchOnPointersOfTheirOwn() {
        // k = 4, a0 - c0 failed: e0 reaches e1 through a0 and a1 (equal weights) and the other pods through a0 once and a1 twice
        Topology t = Topologies.fatTree(4, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(t.nodeByName("a0"), t.nodeByName("c0"))[0])] = true;
        Fib fib = Routing.compute(t, down);
        int e0 = t.nodeByName("e0");
        int toE1 = fib.group(e0, 2);
        int toPod3 = fib.group(e0, 15);
        assertThat(fib.totalWeight(toE1)).isEqualTo(2);
        assertThat(fib.totalWeight(toPod3)).isEqualTo(3);
        int light = fib.weight(toPod3, 0) == 1 ? fib.port(toPod3, 0) : fib.port(toPod3, 1);
        PortSelector rr = ChoiceRecorder.scheme("simple-rr").newPortSelector(new SwitchContext(e0, t, fib, new SplittableRandom(3), null, null));
        PacketPool pool = new PacketPool();
        List<Integer> e1 = new ArrayList<>();
        List<Integer> pod3 = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int g = i % 2 == 0 ? toE1 : toPod3; // the two groups' data packets interleaved
            Packet p = ChoiceRecorder.packet(pool, 0, g == toE1 ? 2 : 15, Packet.DATA);
            (g == toE1 ? e1 : pod3).add(rr.select(p, g, fib.groupPorts(), fib.groupOffset(g), fib.groupSize(g)));
            pool.release(p);
        }
        for (int i = 1; i < e1.size(); i++) {
            assertThat(e1.get(i)).as("to e1, packet %d: %s", i, e1).isNotEqualTo(e1.get(i - 1));
        }
        for (int i = 0; i + 3 <= pod3.size(); i++) {
            assertThat(pod3.subList(i, i + 3).stream().filter(port -> port == light).count()).as("to pod 3 from packet %d: %s", i, pod3).isEqualTo(1);
        }
    }
}
