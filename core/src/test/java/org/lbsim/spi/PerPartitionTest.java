package org.lbsim.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Simulator;

/**
 * A piece takes the instance of its node's partition: pieces at nodes of one partition share it,
 * pieces of two partitions never do, and {@link PerPartition#all} holds each instance once.
 */
class PerPartitionTest {

    /** A simulator whose nodes are cut into partitions as {@code partitionOfNode} says. */
    private static final class Cut extends Simulator {
        private final int[] partitionOfNode;
        private final int partitions;

        Cut(int[] partitionOfNode, int partitions) {
            this.partitionOfNode = partitionOfNode;
            this.partitions = partitions;
        }

        @Override
        public int partitionOfNode(int node) {
            return partitionOfNode[node];
        }

        @Override
        public int partitionCount() {
            return partitions;
        }
    }

    private static final class Count {
        long n;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void piecesOfOnePartitionShareAnInstanceAndPiecesOfTwoNeverDo(long seed) {
        Random r = new Random(seed);
        int partitions = 1 + r.nextInt(8);
        int[] cut = new int[64];
        for (int node = 0; node < cut.length; node++) {
            cut[node] = r.nextInt(partitions);
        }
        Simulator sim = new Cut(cut, partitions);
        AtomicInteger made = new AtomicInteger();
        PerPartition<Count> counts = new PerPartition<>(() -> {
            made.incrementAndGet();
            return new Count();
        });
        long[] expected = new long[partitions];
        for (int i = 0; i < 500; i++) {
            int node = r.nextInt(cut.length);
            counts.at(sim, node).n++;
            expected[cut[node]]++;
        }
        for (int a = 0; a < cut.length; a++) {
            for (int b = 0; b < cut.length; b++) {
                assertThat(counts.at(sim, a) == counts.at(sim, b)).as("nodes %d and %d", a, b).isEqualTo(cut[a] == cut[b]);
            }
        }
        long total = 0;
        for (Count c : counts.all()) {
            total += c.n;
        }
        assertThat(total).isEqualTo(500);
        assertThat(counts.all()).hasSize(made.get()).doesNotHaveDuplicates();
        for (int node = 0; node < cut.length; node++) {
            assertThat(counts.at(sim, node).n).as("node %d", node).isEqualTo(expected[cut[node]]);
        }
    }
}
