package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Simulator;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.net.PortSelector;
import org.lbsim.net.PortStates;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.spi.SwitchContext;
import org.lbsim.topology.Fib;
import org.lbsim.topology.Routing;
import org.lbsim.topology.Topologies;
import org.lbsim.topology.Topology;

/**
 * AR (PRO's Tomahawk baseline): port qualities refresh every 1 us, so a burst is seen only after
 * the next refresh; DRILL: per packet, the shortest queue among d random candidates and the last
 * choice. Both driven by hand at the uplinks of an edge switch of a k = 8 fat tree, with queue
 * lengths and transmitted bytes set by the test.
 */
class AdaptiveSelectorsTest {
    private static final long BUFFER = 800_000;

    /** Port state the test writes. */
    private static final class FakePorts implements PortStates {
        final long[] queue;
        final long[] tx;
        boolean txBytesWatched;

        FakePorts(int ports) {
            queue = new long[ports];
            tx = new long[ports];
        }

        @Override
        public long queueBytes(int port) {
            return queue[port];
        }

        @Override
        public long txBytes(int port) {
            return tx[port];
        }

        @Override
        public long bufferBytes(int port) {
            return BUFFER;
        }

        @Override
        public void watchTxBytes() {
            txBytesWatched = true;
        }
    }

    private final ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(8);
    private final int edge = fabric.edge(0);
    private final int group = fabric.group(edge, fabric.topology().hostCount() - 1);
    private final int offset = fabric.fib().groupOffset(group);
    private final int count = fabric.fib().groupSize(group);
    private final int[] uplinks = Arrays.copyOfRange(fabric.fib().groupPorts(), offset, offset + count);
    private final FakePorts ports = new FakePorts(fabric.topology().portCount());
    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();

    private SwitchContext context(long seed) {
        return new SwitchContext(edge, fabric.topology(), fabric.fib(), new SplittableRandom(seed), ports, sim);
    }

    /** How often each uplink is chosen over {@code n} packets. */
    private long[] choices(PortSelector sel, int n) {
        long[] c = new long[count];
        Packet p = ChoiceRecorder.packet(pool, 0, fabric.topology().hostCount() - 1, Packet.DATA);
        for (int i = 0; i < n; i++) {
            int port = sel.select(p, group, fabric.fib().groupPorts(), offset, count);
            c[Arrays.binarySearch(uplinks, port)]++;
        }
        pool.release(p);
        return c;
    }

    @Test
    void arAsksForExactSentByteCountsWhenItIsBuiltSinceItReadsThemEveryRefresh() {
        assertThat(ports.txBytesWatched).isFalse();
        ChoiceRecorder.scheme("ar").newPortSelector(context(1));
        assertThat(ports.txBytesWatched).isTrue();
    }

    @Test
    void arSeesABurstOnlyAfterTheNextOneMicrosecondRefresh() {
        assertThat(count).isEqualTo(4);
        PortSelector ar = ChoiceRecorder.scheme("ar").newPortSelector(context(1));

        // 0.3 us: a burst fills uplink 0; the qualities were last computed at time 0 (all empty)
        ChoiceRecorder.advanceTo(sim, Time.ns(300));
        ports.queue[uplinks[0]] = BUFFER;
        long[] stale = choices(ar, 400);
        // 1.3 us: the 1 us refresh has seen it
        ChoiceRecorder.advanceTo(sim, Time.ns(1300));
        long[] fresh = choices(ar, 400);
        // the burst moves to uplink 1 at 1.3 us: until 2 us AR still avoids 0 and still uses 1
        ports.queue[uplinks[0]] = 0;
        ports.queue[uplinks[1]] = BUFFER;
        ChoiceRecorder.advanceTo(sim, Time.ns(1900));
        long[] moved = choices(ar, 400);
        ChoiceRecorder.advanceTo(sim, Time.ns(2100));
        long[] after = choices(ar, 400);
        // link load counts as well: uplink 2 sent a full microsecond's worth between 2 and 3 us
        ports.queue[uplinks[1]] = 0;
        ports.tx[uplinks[2]] += 100_000; // 800 Gb/s x 1 us
        ChoiceRecorder.advanceTo(sim, Time.ns(3100));
        long[] loaded = choices(ar, 400);

        String msg = String.format("choices of uplinks 0..3 per 400 packets: burst on 0 before the refresh %s, after %s;"
                        + " burst moved to 1, before the refresh %s, after %s; uplink 2 at full load %s", Arrays.toString(stale),
                Arrays.toString(fresh), Arrays.toString(moved), Arrays.toString(after), Arrays.toString(loaded));
        System.out.println("[ar] " + msg);
        assertThat(Arrays.stream(stale).min().orElseThrow()).as(msg + ": stale qualities, uniform tie-break").isGreaterThan(60);
        assertThat(fresh[0]).as(msg).isZero();
        assertThat(moved[0]).as(msg).isZero();
        assertThat(moved[1]).as(msg).isGreaterThan(80);
        assertThat(after[1]).as(msg).isZero();
        assertThat(after[0]).as(msg).isGreaterThan(80);
        assertThat(loaded[2]).as(msg).isZero();
        assertThat(loaded[1]).as(msg).isGreaterThan(80);
    }

    @Test
    void arPrefersTheBestQualityBandAndTreatsPortsInOneBandAlike() {
        PortSelector ar = ChoiceRecorder.scheme("ar").newPortSelector(context(2));
        // 8 bands of 100 KB: 30 KB and 90 KB share band 0; 150 KB is band 1; 790 KB band 7
        ports.queue[uplinks[0]] = 30_000;
        ports.queue[uplinks[1]] = 90_000;
        ports.queue[uplinks[2]] = 150_000;
        ports.queue[uplinks[3]] = 790_000;
        ChoiceRecorder.advanceTo(sim, Time.ns(1500));
        long[] c = choices(ar, 1000);
        String msg = "choices with queues 30, 90, 150, 790 KB: " + Arrays.toString(c);
        System.out.println("[ar] " + msg);
        assertThat(c[2] + c[3]).as(msg).isZero();
        assertThat(c[0]).as(msg).isBetween(400L, 600L);
    }

    @Test
    void arCountsOnlyTheBytesSentSinceTheLastRefreshAndTreatsLoadsWithinOneBandAlike() {
        PortSelector ar = ChoiceRecorder.scheme("ar").newPortSelector(context(3));
        ports.tx[uplinks[0]] += 5_000; // 5 % of a microsecond at 800 Gb/s: band 0 of 8, like an idle port
        ports.tx[uplinks[1]] += 100_000; // a full microsecond: band 7
        ChoiceRecorder.advanceTo(sim, Time.ns(1500));
        long[] loaded = choices(ar, 400);
        ChoiceRecorder.advanceTo(sim, Time.ns(2500)); // the 2 us refresh: nothing sent since the one at 1 us
        long[] quiet = choices(ar, 400);
        String msg = String.format("choices per 400 packets after 5 KB and 100 KB sent on uplinks 0 and 1 %s, one refresh later %s",
                Arrays.toString(loaded), Arrays.toString(quiet));
        assertThat(loaded[1]).as(msg).isZero();
        assertThat(loaded[0]).as(msg).isGreaterThan(80);
        assertThat(Arrays.stream(quiet).min().orElseThrow()).as(msg).isGreaterThan(60);
    }

    @Test
    void arPutsAFullQueueInTheTopBandWithAlmostFullOnes() {
        PortSelector ar = ChoiceRecorder.scheme("ar").newPortSelector(context(4));
        ports.queue[uplinks[0]] = 700_000; // 7 / 8 of the buffer: band 7
        ports.queue[uplinks[1]] = 700_000;
        ports.queue[uplinks[2]] = BUFFER;
        ports.queue[uplinks[3]] = BUFFER;
        ChoiceRecorder.advanceTo(sim, Time.ns(1500));
        long[] c = choices(ar, 400);
        assertThat(Arrays.stream(c).min().orElseThrow()).as("choices %s: all in band 7", Arrays.toString(c)).isGreaterThan(60);
    }

    @Test
    void arMeasuresEachPortsLoadAgainstItsOwnRate() {
        // hosts on 400 Gb/s links, the fabric at 800 Gb/s: an uplink's microsecond is 100 KB
        Topology t = Topologies.fatTree(8, new LinkSpec(400, 500), LinkSpec.defaults(), LinkSpec.defaults());
        Fib fib = Routing.compute(t, new boolean[t.linkCount()]);
        int e0 = t.nodeByName("e0");
        int g = fib.group(e0, t.hostCount() - 1);
        int[] up = Arrays.copyOfRange(fib.groupPorts(), fib.groupOffset(g), fib.groupOffset(g) + fib.groupSize(g));
        FakePorts fake = new FakePorts(t.portCount());
        PortSelector ar = ChoiceRecorder.scheme("ar").newPortSelector(new SwitchContext(e0, t, fib, new SplittableRandom(5), fake, sim));
        for (int u : up) {
            fake.queue[u] = 300_000; // 3 / 8 of the buffer: band 3
        }
        fake.tx[up[3]] += 40_000; // 40 % of 100 KB: band 3 as well (it would be 80 % of a 400 Gb/s port's 50 KB)
        ChoiceRecorder.advanceTo(sim, Time.ns(1500));
        long[] c = new long[up.length];
        Packet p = ChoiceRecorder.packet(pool, 0, t.hostCount() - 1, Packet.DATA);
        for (int i = 0; i < 400; i++) {
            c[Arrays.binarySearch(up, ar.select(p, g, fib.groupPorts(), fib.groupOffset(g), up.length))]++;
        }
        pool.release(p);
        assertThat(Arrays.stream(c).min().orElseThrow()).as("choices %s: all in band 3", Arrays.toString(c)).isGreaterThan(60);
    }

    @Test
    void switchPktArBinsQueuesByTheirShareOfTheBufferAnEdgeOpeningTheUpperBin() {
        // Table 2's edges: 5 %, 10 %, 20 % of the 800 KB buffer (40, 80, 160 KB)
        QueueAwareSelectors.QuantizedQueue q = new QueueAwareSelectors.QuantizedQueue(context(8), new double[] {0.05, 0.10, 0.20});
        long[][] binOf = {{0, 0}, {39_999, 0}, {40_000, 1}, {79_999, 1}, {80_000, 2}, {160_000, 3}, {BUFFER, 3}};
        for (long[] c : binOf) {
            ports.queue[uplinks[0]] = c[0];
            assertThat(q.of(uplinks[0])).as("%d bytes queued", c[0]).isEqualTo(c[1]);
        }
        ports.queue[uplinks[0]] = 39_999;
        ports.queue[uplinks[1]] = 0;
        ports.queue[uplinks[2]] = 40_000;
        ports.queue[uplinks[3]] = 300_000;
        long[] c = choices(ChoiceRecorder.scheme("switch-pkt-ar").newPortSelector(context(8)), 400);
        assertThat(c[2] + c[3]).as("choices %s: only the lowest bin", Arrays.toString(c)).isZero();
        assertThat(Math.min(c[0], c[1])).as("choices %s: one bin, a random tie-break", Arrays.toString(c)).isGreaterThan(150);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void drillTakesTheShortestOfItsSampledQueuesAndItsLastChoice(long seed) {
        SplittableRandom twin = new SplittableRandom(seed); // the selector's stream, replayed
        PortSelector drill = ChoiceRecorder.scheme("drill").newPortSelector(context(seed));
        SplittableRandom script = new SplittableRandom(~seed);
        Packet p = ChoiceRecorder.packet(pool, 0, fabric.topology().hostCount() - 1, Packet.DATA);
        int memory = -1;
        int keptMemory = 0;
        for (int i = 0; i < 2000; i++) {
            for (int u : uplinks) {
                ports.queue[u] = script.nextInt(5) * 10_000L; // ties are frequent
            }
            int expected = memory;
            long best = memory >= 0 ? ports.queue[memory] : Long.MAX_VALUE;
            long[] sampled = new long[2];
            for (int s = 0; s < 2; s++) {
                int port = uplinks[twin.nextInt(count)];
                sampled[s] = ports.queue[port];
                if (ports.queue[port] < best) {
                    best = ports.queue[port];
                    expected = port;
                }
            }
            int chosen = drill.select(p, group, fabric.fib().groupPorts(), offset, count);
            String what = String.format("seed %d packet %d: queues %s, sampled %s, last choice %d", seed, i, Arrays.toString(
                    Arrays.stream(uplinks).mapToLong(u -> ports.queue[u]).toArray()), Arrays.toString(sampled), memory);
            assertThat(chosen).as(what).isEqualTo(expected);
            assertThat(ports.queue[chosen]).as(what).isLessThanOrEqualTo(Math.min(sampled[0], sampled[1]));
            keptMemory += chosen == memory ? 1 : 0;
            memory = chosen;
        }
        pool.release(p);
        assertThat(keptMemory).as("seed %d: times the remembered port won", seed).isPositive();
    }

    @Test
    void underWecmpWeightsDrillComparesWithinTheDrawnWeightClassAndForgetsAPortOfAnotherClass() {
        // a0 - c0 failed: e0 reaches the other pods through a0 (three cores left) and a1 .. a3 (four each)
        Topology t = fabric.topology();
        boolean[] down = new boolean[t.linkCount()];
        down[t.linkOf(t.portsBetween(t.nodeByName("a0"), t.nodeByName("c0"))[0])] = true;
        Fib fib = Routing.compute(t, down);
        int g = fib.group(edge, t.hostCount() - 1);
        assertThat(fib.uniform(g)).isFalse();
        long seed = 6;
        SplittableRandom twin = new SplittableRandom(seed); // the selector's stream, replayed
        PortSelector drill = ChoiceRecorder.scheme("drill").newPortSelector(new SwitchContext(edge, t, fib, new SplittableRandom(seed), ports, sim));
        SplittableRandom script = new SplittableRandom(~seed);
        Packet p = ChoiceRecorder.packet(pool, 0, t.hostCount() - 1, Packet.DATA);
        int memory = -1;
        int forgotten = 0;
        for (int i = 0; i < 2000; i++) {
            for (int c = 0; c < count; c++) {
                ports.queue[fib.port(g, c)] = script.nextInt(5) * 10_000L;
            }
            int cls = fib.weight(g, fib.member(g, twin.nextInt(fib.totalWeight(g)))); // a weight class, drawn by weight
            int expected = -1;
            int members = 0;
            for (int c = 0; c < count; c++) {
                members += fib.weight(g, c) == cls ? 1 : 0;
                expected = fib.port(g, c) == memory && fib.weight(g, c) == cls ? memory : expected;
            }
            forgotten += memory >= 0 && expected < 0 ? 1 : 0;
            long best = expected >= 0 ? ports.queue[expected] : Long.MAX_VALUE;
            for (int s = 0; s < 2; s++) {
                int k = twin.nextInt(members); // the k-th candidate of the class
                for (int c = 0; c < count; c++) {
                    if (fib.weight(g, c) == cls && k-- == 0 && ports.queue[fib.port(g, c)] < best) {
                        best = ports.queue[fib.port(g, c)];
                        expected = fib.port(g, c);
                    }
                }
            }
            int chosen = drill.select(p, g, fib.groupPorts(), fib.groupOffset(g), count);
            assertThat(chosen).as("packet %d, class %d, last choice %d", i, cls, memory).isEqualTo(expected);
            memory = chosen;
        }
        pool.release(p);
        assertThat(forgotten).as("times the last choice was of another class").isPositive();
    }

    @Test
    void withSteadyQueuesDrillSettlesOnTheShortestOnceItHasSampledIt() {
        PortSelector drill = ChoiceRecorder.scheme("drill").newPortSelector(context(9));
        for (int i = 0; i < count; i++) {
            ports.queue[uplinks[i]] = 10_000L * (count - i); // uplink 3 is the shortest
        }
        long[] c = choices(drill, 1000);
        String msg = "choices with queues 40, 30, 20, 10 KB: " + Arrays.toString(c);
        System.out.println("[drill] " + msg);
        assertThat(c[3]).as(msg).isGreaterThan(990);
        assertThat(c[0]).as(msg + ": the longest only if both first samples were it").isLessThanOrEqualTo(1);
    }
}
