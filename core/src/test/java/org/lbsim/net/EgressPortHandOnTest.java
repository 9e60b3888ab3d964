package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * When a port may hand frames on at enqueue (no PFC, a private buffer, no stage, no dequeue marking, no control queue, no
 * reordering overflow policy, a link that is up and longer than the gap), what takes it back to the exact path, what it
 * refuses once it has admitted a frame, and its counter reads at the instant a waiting frame starts. {@link PortBench}: a
 * 1000 B frame holds the 100 Gb/s line 81,600 ps with its 1,600 ps gap.
 */
class EgressPortHandOnTest {
    private static final EgressStage WATCHER = new EgressStage() {
        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    };
    private static final OverflowPolicy KEEPS_ORDER = (port, p) -> false;

    private static boolean handsOnAfter(Consumer<PortBench> setUp) {
        PortBench b = PortBench.lossy(10_000);
        setUp.accept(b);
        return b.port.handOnAtEnqueue();
    }

    @Test
    void onlyAPortThatNeedsNoDequeueInstantHandsFramesOnAtEnqueue() {
        assertThat(handsOnAfter(b -> { })).isTrue();
        assertThat(handsOnAfter(b -> b.port.setStage(EgressStage.NONE))).isTrue();
        assertThat(handsOnAfter(b -> b.net.setOverflowPolicy(KEEPS_ORDER))).isTrue();
        assertThat(handsOnAfter(b -> b.net.setLinkDown(b.topology.linkOf(b.port.port()), true))).isFalse();
        assertThat(handsOnAfter(b -> b.port.setStage(WATCHER))).isFalse();
        assertThat(handsOnAfter(b -> b.net.setEcnMarkAtDequeue(true))).isFalse();
        assertThat(handsOnAfter(b -> b.net.setPriorityKind(100))).isFalse();
        assertThat(handsOnAfter(b -> b.net.setOverflowPolicy(new PacketTrimming(b.net, 62)))).isFalse();
        assertThat(handsOnAfter(b -> b.port.handOnAtEnqueue())).as("asked twice").isFalse();
        assertThat(handsOnAfter(b -> b.port.enqueue(b.data(1000, 0)))).as("a frame still holds the buffer").isFalse();
        assertThat(new PortBench(BufferModel.sharedDynamic(100_000, 1), EcnMarker.off(), null).port.handOnAtEnqueue()).as("shared buffer").isFalse();
        assertThat(new PortBench(BufferModel.perPort(100_000), EcnMarker.off(), new Network.PfcConfig(20_000, 10_000, 0, 10_000)).port.handOnAtEnqueue())
                .as("PFC").isFalse();
    }

    /** The lazy path is safe only if a frame's predecessor is still on the link when it starts: a link longer than the gap. */
    @Test
    void aLinkNoLongerThanTheGapKeepsThePortExact() {
        assertThat(new PortBench(BufferModel.perPort(10_000), EcnMarker.off(), null, 1.6).port.handOnAtEnqueue()).isFalse();
        assertThat(new PortBench(BufferModel.perPort(10_000), EcnMarker.off(), null, 1.601).port.handOnAtEnqueue()).isTrue();
    }

    /** Before the run, a lazy port goes back to the exact path for whatever needs the dequeue instant, and then works as one. */
    @Test
    void anIdleLazyPortGoesBackToTheExactPathAndThenSendsAsOne() {
        for (Consumer<PortBench> needsExact : List.<Consumer<PortBench>>of(
                b -> b.port.setStage(WATCHER),
                b -> b.net.setPriorityKind(100),
                b -> b.net.setEcnMarkAtDequeue(true),
                b -> b.net.setOverflowPolicy(new PacketTrimming(b.net, 62)),
                b -> b.net.setLinkDown(b.topology.linkOf(b.port.port()), true))) {
            PortBench b = PortBench.lossy(10_000);
            assertThat(b.port.handOnAtEnqueue()).isTrue();
            needsExact.accept(b);
            assertThat(b.port.handsOnAtEnqueue()).isFalse();
            b.net.setLinkDown(b.topology.linkOf(b.port.port()), false);
            b.send(0, 1000, 0).send(0, 1000, 1);
            b.at(1, () -> b.port.setPaused(true)); // only the exact path can pause
            b.at(200_000, () -> b.port.setPaused(false));
            b.run();
            assertThat(b.arrivalTimes()).containsExactly(80_000 + PortBench.LINK_PS, 200_000 + 80_000 + PortBench.LINK_PS);
        }
        PortBench b = PortBench.lossy(10_000);
        assertThat(b.port.handOnAtEnqueue()).isTrue();
        b.port.setStage(EgressStage.NONE);
        b.net.setOverflowPolicy(KEEPS_ORDER);
        assertThat(b.port.handsOnAtEnqueue()).as("neither needs the dequeue instant").isTrue();
    }

    @Test
    void aLazyPortThatHasAdmittedAFrameRefusesWhatNeedsTheExactPath() {
        PortBench b = PortBench.lossy(10_000);
        assertThat(b.port.handOnAtEnqueue()).isTrue();
        b.send(0, 1000, 0);
        b.run();
        assertThat(b.port.queueBytes()).as("its gap ended long ago").isZero();
        int link = b.topology.linkOf(b.port.port());
        for (Runnable r : List.<Runnable>of(
                () -> b.port.setStage(WATCHER),
                () -> b.net.setPriorityKind(100),
                () -> b.net.setEcnMarkAtDequeue(true),
                () -> b.net.setOverflowPolicy(new PacketTrimming(b.net, 62)),
                () -> b.net.setLinkDown(link, true),
                () -> b.port.setPaused(true),
                () -> b.port.setRateMbps(50_000),
                () -> b.net.failLink(link),
                () -> b.port.enqueuePriority(b.data(62, 1)))) {
            assertThatThrownBy(r::run).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + b.port.port() + " hands frames on at enqueue").hasMessageContaining("needs the exact path");
        }
        assertThat(b.port.handsOnAtEnqueue()).isTrue();
        b.port.setPaused(false); // not paused: nothing to do
        b.port.setStage(EgressStage.NONE);
        assertThatThrownBy(() -> b.port.onEvent(EgressPort.WAKE, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schedules no wake-up");
    }

    /**
     * Three frames at 0 and one at 200,000 on a lazy port: frame 2 (waited) starts at 163,200, frame 3 at 244,800 (waited),
     * a frame 4 at 400,000 at once. A read at the instant a frame that waited starts, with no enqueue at the port in that
     * instant, is ambiguous (the exact path's answer depends on the order of the events); not one at the instant a frame
     * starts on its own enqueue, nor one after an enqueue in the same instant.
     */
    @Test
    void onlyAReadAtTheInstantAWaitingFrameStartsWithNoEnqueueThenIsAmbiguous() {
        PortBench b = PortBench.lossy(10_000);
        assertThat(b.port.handOnAtEnqueue()).isTrue();
        b.send(0, 1000, 0).send(0, 1000, 1).send(0, 1000, 2);
        b.send(200_000, 1000, 3);
        b.send(400_000, 1000, 4);
        long[] reads = new long[9];
        b.at(163_200, () -> {
            reads[0] = b.port.txPackets();
            reads[1] = b.net.ambiguousCounterReads();
            reads[8] = b.port.queuePackets();
        });
        b.at(163_201, () -> {
            reads[2] = b.port.txBytes();
            reads[3] = b.port.ambiguousCounterReads();
        });
        b.at(244_800, () -> b.port.enqueue(b.data(100, 9))); // an enqueue at the instant frame 3 starts: later reads then are not ambiguous
        b.at(244_800, () -> reads[4] = b.port.txPackets() * 10 + b.port.ambiguousCounterReads());
        b.at(400_000, () -> reads[5] = b.port.txBytes() * 10 + b.port.ambiguousCounterReads());
        b.at(1_000_000, () -> {
            reads[6] = b.port.txPackets();
            reads[7] = b.port.txBytes();
        });
        b.run();

        assertThat(reads[0]).as("frame 2 counted as started").isEqualTo(3);
        assertThat(reads[1]).isEqualTo(1);
        assertThat(reads[8]).as("frame 2 starting is not waiting").isZero();
        assertThat(reads[2]).isEqualTo(3000);
        assertThat(reads[3]).isEqualTo(1);
        assertThat(reads[4]).as("frames 0..3 started; the 100 B one behind frame 3 not yet").isEqualTo(4 * 10 + 1);
        assertThat(reads[5]).as("frame 4 started at its enqueue").isEqualTo(5100 * 10 + 1);
        assertThat(reads[6]).isEqualTo(6);
        assertThat(reads[7]).isEqualTo(5100);
    }
}
