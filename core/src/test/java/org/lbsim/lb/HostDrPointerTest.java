package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketPool;
import org.lbsim.spi.AckPolicy;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.QpContext;
import org.lbsim.topology.Topology;

/**
 * HOST DR's pointers, driven by hand on a k = 4 fat tree: the first queue pair of a (source,
 * destination, class) starts the pointer at a random waypoint, drawn from its own stream after its
 * entropy; later queue pairs of the pair go on from where the pointer is; data and ACKs, and the
 * two directions, have pointers of their own; hosts under one edge switch have no waypoint.
 */
class HostDrPointerTest {
    private final ChoiceRecorder.Fabric fabric = ChoiceRecorder.Fabric.fatTree(4);
    private final Topology t = fabric.topology();
    private final PacketPool pool = new PacketPool();

    private HostContext context(int qp, int src, int dst, long seed) {
        QpContext ctx = new QpContext(qp, src, dst, 64 * 4096, 64, 4096, 62, 20, 800_000, Time.us(8), 800_000);
        return new HostContext(ctx, t, fabric.fib(), new SplittableRandom(seed), null);
    }

    private int stamp(EntropyPolicy policy) {
        Packet p = ChoiceRecorder.packet(pool, 0, 0, Packet.DATA);
        policy.stamp(p);
        int pathId = p.pathId;
        assertThat(p.entropy).isEqualTo(policy.entropyFor(0, false));
        pool.release(p);
        return pathId;
    }

    @Test
    void theFirstQueuePairOfAPairStartsThePointerAtARandomWaypointAndTheNextGoesOnFromThere() {
        HostDestinationRotation dr = new HostDestinationRotation();
        int src = 0;
        int dst = 4; // pod 1: the four cores are the waypoints
        int[] cores = HostDestinationRotation.interleave(t, HostDestinationRotation.waypointsFor(context(0, src, dst, 1)), src);
        assertThat(cores).hasSize(4);
        assertThat(dr.pointer(false, src, dst)).as("no rotation yet").isEqualTo(-1);

        long seed = 3;
        SplittableRandom twin = new SplittableRandom(seed);
        int entropy = twin.nextInt(1 << 16);
        int start = twin.nextInt(4);
        assertThat(start).as("a seed whose random phase is not the first waypoint").isNotZero();
        EntropyPolicy first = dr.newEntropyPolicy(context(0, src, dst, seed));
        assertThat(first.entropyFor(7, true)).as("one entropy for every packet").isEqualTo(entropy);
        assertThat(dr.pointer(false, src, dst)).isEqualTo(start);
        assertThat(dr.pointer(false, src, 5)).as("another destination of the same source").isEqualTo(-1);
        for (int i = 0; i < 6; i++) {
            assertThat(stamp(first)).as("packet %d", i).isEqualTo(cores[(start + i) % 4]);
        }

        EntropyPolicy second = dr.newEntropyPolicy(context(1, src, dst, 4));
        assertThat(dr.pointer(false, src, dst)).as("the pointer keeps its place").isEqualTo((start + 6) % 4);
        assertThat(stamp(second)).isEqualTo(cores[(start + 6) % 4]);
        assertThat(stamp(first)).as("both queue pairs share the pointer").isEqualTo(cores[(start + 7) % 4]);
        assertThat(dr.pointer(true, src, dst)).as("data only: no ACK pointer").isEqualTo(-1);
    }

    @Test
    void acksRotateOnTheirOwnPointerFromTheReceiverAndEchoTheDataEntropy() {
        HostDestinationRotation dr = new HostDestinationRotation();
        HostContext receiver = context(0, 0, 4, 5);
        SplittableRandom twin = new SplittableRandom(5);
        twin.nextInt(1 << 16);
        int start = twin.nextInt(4);
        AckPolicy acks = dr.newAckPolicy(receiver);
        int[] cores = HostDestinationRotation.interleave(t, HostDestinationRotation.waypoints(t, fabric.fib(), 4, 0), 4);
        assertThat(dr.pointer(true, 4, 0)).as("kept at the receiver h4, towards h0").isEqualTo(start);
        assertThat(dr.pointer(false, 4, 0)).isEqualTo(-1);
        assertThat(dr.pointer(true, 0, 4)).isEqualTo(-1);
        for (int i = 0; i < 5; i++) {
            Packet ack = ChoiceRecorder.packet(pool, 4, 0, Packet.ACK);
            acks.stampAck(ack, 1000 + i);
            assertThat(ack.entropy).isEqualTo(1000 + i);
            assertThat(ack.pathId).as("ACK %d", i).isEqualTo(cores[(start + i) % 4]);
            pool.release(ack);
        }
    }

    @Test
    void hostsUnderOneEdgeSwitchHaveNoWaypointAndNoPointer() {
        HostDestinationRotation dr = new HostDestinationRotation();
        EntropyPolicy local = dr.newEntropyPolicy(context(0, 0, 1, 6));
        assertThat(stamp(local)).isEqualTo(-1);
        assertThat(dr.pointer(false, 0, 1)).as("nothing to rotate over: no random phase drawn").isEqualTo(-1);
    }

    private org.lbsim.topology.Fib without(String... links) {
        boolean[] down = new boolean[t.linkCount()];
        for (int i = 0; i < links.length; i += 2) {
            down[t.linkOf(t.portsBetween(t.nodeByName(links[i]), t.nodeByName(links[i + 1]))[0])] = true;
        }
        return org.lbsim.topology.Routing.compute(t, down);
    }

    @Test
    void aRouteChangeWrapsThePointerIntoTheNewWaypointsAndAPairLeftWithoutAnySendsWithoutOne() {
        HostDestinationRotation dr = new HostDestinationRotation();
        EntropyPolicy policy = dr.newEntropyPolicy(context(0, 0, 4, 3));
        for (int i = 0; i < 3; i++) {
            stamp(policy);
        }
        int at = dr.pointer(false, 0, 4);
        org.lbsim.topology.Fib failed = without("a0", "c0");
        int[] three = HostDestinationRotation.interleave(t, HostDestinationRotation.waypoints(t, failed, 0, 4), 0);
        assertThat(three).hasSize(3).doesNotContain(t.nodeByName("c0"));
        dr.onRoutingChange(failed);
        assertThat(dr.pointer(false, 0, 4)).as("pointer %d wrapped into three waypoints", at).isEqualTo(at % 3);
        assertThat(stamp(policy)).isEqualTo(three[at % 3]);

        dr.onRoutingChange(without("e0", "a0", "e0", "a1")); // h0's edge switch cut off from the fabric
        assertThat(stamp(policy)).as("no waypoint left").isEqualTo(-1);
        assertThat(dr.pointer(false, 0, 4)).as("the pointer keeps its place").isEqualTo((at % 3 + 1) % 3);
    }
}
