package org.lbsim.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The partitioned kernel: split-independent order of equal-time events, lookahead, payloads, synchronisation points. */
class PartitionedSimulatorTest {
    private static final long LOOKAHEAD = 1_000;

    /**
     * A toy fabric of {@code nodes} components. Each event logs itself, then schedules a few more for
     * itself (delays 0..3 ps: many exact ties) and, now and then, one for another node at least the
     * lookahead ahead, the way a link does. Each node draws from its own random stream.
     */
    private static final class Node implements EventHandler {
        final Simulator sim;
        final int index;
        final SplittableRandom rng;
        final List<String> log = new ArrayList<>();
        int id;
        Node[] all;

        Node(Simulator sim, int index, long seed) {
            this.sim = sim;
            this.index = index;
            this.rng = new SplittableRandom(seed * 31 + index);
        }

        @Override
        public void onEvent(int kind, long tag) {
            long now = sim.nowPs();
            log.add(now + ":" + kind + ":" + tag);
            if (tag > 6) {
                return;
            }
            int local = rng.nextInt(3);
            for (int i = 0; i < local; i++) {
                sim.schedule(id, now + rng.nextInt(4), rng.nextInt(5), tag + 1);
            }
            if (rng.nextInt(3) == 0) {
                Node other = all[rng.nextInt(all.length)];
                sim.schedule(other.id, now + LOOKAHEAD + rng.nextInt(3), 7, tag + 1);
            }
        }
    }

    private static List<List<String>> run(int partitions, int nodes, long seed) {
        PartitionedSimulator sim = new PartitionedSimulator(partitions, LOOKAHEAD, 1 << 20);
        Node[] all = new Node[nodes];
        int[] partitionOfNode = new int[nodes];
        SplittableRandom split = new SplittableRandom(seed);
        for (int i = 0; i < nodes; i++) {
            all[i] = new Node(sim, i, seed);
            all[i].id = sim.register(all[i]);
            sim.place(all[i].id, i);
            partitionOfNode[i] = split.nextInt(partitions); // any split at all
        }
        for (Node n : all) {
            n.all = all;
        }
        sim.setNodePartitions(partitionOfNode);
        for (int i = 0; i < nodes; i++) {
            sim.schedule(all[i].id, split.nextInt(3), 0, 0);
        }
        sim.run(Long.MAX_VALUE);
        List<List<String>> logs = new ArrayList<>();
        for (Node n : all) {
            logs.add(n.log);
        }
        return logs;
    }

    static Stream<Long> seeds() {
        java.util.Random r = new java.util.Random(5);
        return Stream.generate(() -> (long) r.nextInt(1_000_000)).limit(6);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void everyComponentSeesTheSameEventsInTheSameOrderHoweverTheNodesAreSplit(long seed) {
        List<List<String>> one = run(1, 12, seed);
        assertThat(one.stream().mapToInt(List::size).sum()).as("the toy fabric did something").isGreaterThan(12);
        for (int partitions = 2; partitions <= 4; partitions++) {
            assertThat(run(partitions, 12, seed)).as("%d partitions", partitions).isEqualTo(one);
        }
    }

    @ParameterizedTest(name = "partitioned {0}")
    @ValueSource(booleans = {false, true})
    void equalTimeEventsRunByTargetThenCreatorThenTheCreatorsOwnOrderInBothKernels(boolean partitioned) {
        Simulator sim = partitioned ? new PartitionedSimulator(1, LOOKAHEAD, 1 << 20) : new Simulator();
        List<String> order = new ArrayList<>();
        int[] ids = new int[3];
        ids[0] = sim.register((kind, tag) -> order.add("a" + kind));
        ids[1] = sim.register((kind, tag) -> {
            order.add("b" + kind);
            if (kind == 0) {
                // for 20, made at 10: c's before a's would be insertion order; the key puts the target first
                sim.schedule(ids[2], 20, 2, 0);
                sim.schedule(ids[2], 20, 1, 0);
                sim.schedule(ids[0], 20, 1, 0);
            }
        });
        ids[2] = sim.register((kind, tag) -> order.add("c" + kind));
        sim.schedule(ids[1], 10, 0, 0);
        sim.schedule(ids[2], 20, 0, 0); // made outside the event loop: the first creator
        sim.run(Long.MAX_VALUE);
        assertThat(order).containsExactly("b0", "a1", "c0", "c2", "c1");
    }

    @Test
    void anEventForAnotherPartitionInsideTheLookaheadIsRefused() {
        PartitionedSimulator sim = new PartitionedSimulator(2, LOOKAHEAD, 1 << 20);
        int[] ids = new int[2];
        ids[0] = sim.register((kind, tag) -> sim.schedule(ids[1], sim.nowPs() + LOOKAHEAD / 2, 0, 0));
        ids[1] = sim.register((kind, tag) -> { });
        sim.place(ids[0], 0);
        sim.place(ids[1], 1);
        sim.setNodePartitions(new int[] {0, 1});
        sim.schedule(ids[0], 0, 0, 0);
        assertThatThrownBy(() -> sim.run(Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class).hasMessageContaining("lookahead");
    }

    /** A delay line like a link: payloads enter in sending order, each wake-up takes the head. */
    private static final class Line implements PayloadHandler {
        final java.util.ArrayDeque<Object> wire = new java.util.ArrayDeque<>();
        final List<Object> delivered = new ArrayList<>();

        @Override
        public void accept(Object payload) {
            wire.add(payload);
        }

        @Override
        public void onEvent(int kind, long tag) {
            delivered.add(wire.poll());
        }
    }

    @ParameterizedTest
    @MethodSource("partitionCounts")
    void payloadsCrossPartitionsInSendingOrderBeforeTheirWakeUps(int partitions) {
        PartitionedSimulator sim = new PartitionedSimulator(partitions, LOOKAHEAD, 1 << 20);
        Line line = new Line();
        int lineId = sim.register(line);
        sim.place(lineId, 1 % partitions == 0 ? 0 : 1);
        int[] sent = {0};
        int[] sender = new int[1];
        sender[0] = sim.register((kind, tag) -> {
            sim.transfer(lineId, sim.nowPs() + LOOKAHEAD, 0, 0, "p" + sent[0]++);
            if (sent[0] < 50) {
                sim.schedule(sender[0], sim.nowPs() + 7, 0, 0);
            }
        });
        sim.place(sender[0], 0);
        sim.setNodePartitions(partitions == 1 ? new int[] {0, 0} : new int[] {0, 1});
        sim.schedule(sender[0], 0, 0, 0);
        sim.run(Long.MAX_VALUE);
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            expected.add("p" + i);
        }
        assertThat(line.delivered).isEqualTo(expected);
        assertThat(sim.nowPs()).isEqualTo(49 * 7 + LOOKAHEAD);
        assertThat(sim.eventsProcessed()).isEqualTo(100);
    }

    static Stream<Integer> partitionCounts() {
        return Stream.of(1, 2);
    }

    @Test
    void componentsAtSynchronisationPointsSeeEveryEventBeforeTheirTimeAndNoneAtIt() {
        PartitionedSimulator sim = new PartitionedSimulator(2, LOOKAHEAD, 1 << 20);
        long[] seenAt = new long[2];
        int[] counter = {0};
        int worker = sim.register((kind, tag) -> {
            counter[0]++;
            if (tag < 100) {
                sim.schedule(0, sim.nowPs() + 10, 0, tag + 1);
            }
        });
        int observer = sim.register((kind, tag) -> seenAt[kind] = counter[0]);
        sim.place(worker, 1);
        sim.place(observer, Simulator.AT_SYNCHRONISATION_POINTS);
        sim.setNodePartitions(new int[] {0, 1});
        sim.schedule(worker, 0, 0, 0);
        sim.scheduleBackground(observer, 500, 0, 0);
        sim.scheduleBackground(observer, 505, 1, 0);
        sim.run(Long.MAX_VALUE);
        assertThat(seenAt[0]).as("events at 0, 10, .., 490").isEqualTo(50);
        assertThat(seenAt[1]).as("and 500").isEqualTo(51);
        assertThat(counter[0]).isEqualTo(101);
    }
}
