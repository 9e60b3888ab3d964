package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.api.Lbsim;
import org.lbsim.lb.FlowEcmp;
import org.lbsim.metrics.FlowResult;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.PortSelector;
import org.lbsim.sim.Invariants;
import org.lbsim.sim.PreparedRun;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.QpContext;
import org.lbsim.spi.SwitchContext;
import org.lbsim.workload.Flow;

/**
 * {@link LoadBalancer#carriesData}: when a dependent connection (a ring step) starts, the queue pairs
 * its scheme leaves out carry nothing and the connection's bytes are split evenly over the others;
 * independent connections keep the configured split. Ring AllReduce over 8 NICs, 4 queue pairs per
 * connection, a scheme that leaves some of its queue pairs out; lossless fabric, so every packet is
 * sent once.
 */
class ConnectionResplitTest {
    @TempDir
    Path dir;

    /** ECMP hashing with one random source port per queue pair; the queue pairs whose index is a bit of {@code skipped} carry nothing. */
    record LeaveOut(int skipped) implements LoadBalancer {
        private static final FlowEcmp ECMP = new FlowEcmp();

        @Override
        public EntropyPolicy newEntropyPolicy(HostContext host) {
            return ECMP.newEntropyPolicy(host);
        }

        @Override
        public PortSelector newPortSelector(SwitchContext sw) {
            return ECMP.newPortSelector(sw);
        }

        @Override
        public boolean carriesData(QpContext qp) {
            return (skipped >> qp.qpIndex() & 1) == 0;
        }
    }

    private PreparedRun prepare(LoadBalancer lb, long bytes) {
        return Lbsim.scenario().baseDir(dir).seed(3)
                .override("topology.type=rail-leaf-spine", "topology.serversPerGroup=4", "nic.qpsPerConnection=4",
                        "workload.type=collective", "workload.op=all-reduce", "workload.algorithm=ring", "workload.bytes=" + bytes,
                        "lossRecovery.type=go-back-n", "switches.pfc.enabled=true")
                .prepare(lb);
    }

    @Test
    void aLeftOutQueuePairSendsNothingAndTheOthersShareItsBytes() {
        for (int skip = 0; skip < 4; skip++) {
            long bytes = 8L * 3 * 1000 * 7 + 8 * 5; // per step: 3 * 7000 + 5 bytes, not a multiple of 3 x MTU
            PreparedRun run = prepare(new LeaveOut(1 << skip), bytes);
            RunResult r = run.run();
            Invariants.check(run);
            assertThat(r.flowsFinished()).isEqualTo(r.flows());
            Transport t = run.transport();
            int mtu = run.scenario().packets().mtuBytes();
            long leftOut = 0;
            for (int c = 0; c < t.connectionCount(); c++) {
                Flow f = run.flows().get(c);
                long sent = 0;
                long expected = 0;
                for (int q = 0; q < t.flowCount(); q++) {
                    if (t.connectionOf(q) != c) {
                        continue;
                    }
                    int index = q - firstQpOf(t, c);
                    sent += t.sentPackets(q);
                    if (f.dependent() && index == skip) {
                        assertThat(t.sentPackets(q)).as("step %d, left-out queue pair", c).isZero();
                        leftOut++;
                    } else {
                        int carriers = f.dependent() ? 3 : 4;
                        int rank = f.dependent() && index > skip ? index - 1 : index;
                        long share = f.bytes() / carriers + (rank < f.bytes() % carriers ? 1 : 0);
                        long packets = (share + mtu - 1) / mtu;
                        assertThat(t.sentPackets(q)).as("step %d, queue pair %d", c, index).isEqualTo(packets);
                        expected += packets;
                    }
                }
                assertThat(sent).isEqualTo(expected);
                FlowResult fr = r.flowResults().get(c);
                assertThat(fr.fctPs()).isPositive();
                assertThat(fr.receiverDonePs()).as("the receiver held every byte of step %d", c).isGreaterThanOrEqualTo(fr.startPs());
            }
            assertThat(leftOut).isEqualTo(run.flows().stream().filter(Flow::dependent).count()).isPositive();
            assertThat(t.idleQueuePairs()).isEqualTo(leftOut);
            assertThat(t.deliveredPayloadBytes()).isEqualTo(run.flows().stream().mapToLong(Flow::bytes).sum());
        }
    }

    @Test
    void noQueuePairLeftOutKeepsTheConfiguredSplit() {
        PreparedRun all = prepare(new LeaveOut(0), 1 << 20);
        RunResult r = all.run();
        Invariants.check(all);
        assertEveryQueuePairCarriesItsConfiguredShare(all, r, 1 << 20);
    }

    @Test
    void queuePairsBuiltBeforeTheirConnectionStartsKeepTheConfiguredSplit() {
        // kept for reading (the sampler's rate series): built up front, so a left-out queue pair still carries its share
        PreparedRun kept = prepare(new LeaveOut(1 << 1), 1 << 20);
        kept.transport().keepAllQueuePairs();
        RunResult r = kept.run();
        Invariants.check(kept);
        assertEveryQueuePairCarriesItsConfiguredShare(kept, r, 1 << 20);
    }

    @Test
    void aShareOfWholePacketsIsSentInExactlyThatManyPackets() {
        // per step 3 x 5 MTU: with queue pair 2 left out each of the other three carries exactly 5 full packets
        int mtu = 4096;
        PreparedRun run = prepare(new LeaveOut(1 << 2), 8L * 3 * 5 * mtu);
        assertThat(run.scenario().packets().mtuBytes()).isEqualTo(mtu);
        RunResult r = run.run();
        Invariants.check(run);
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
        Transport t = run.transport();
        for (int q = 0; q < t.flowCount(); q++) {
            boolean dependent = run.flows().get(t.connectionOf(q)).dependent();
            int index = q - firstQpOf(t, t.connectionOf(q));
            long expected = !dependent ? (3 * 5 * mtu / 4 + mtu - 1) / mtu : index == 2 ? 0 : 5;
            assertThat(t.sentPackets(q)).as("queue pair %d", q).isEqualTo(expected);
        }
    }

    @Test
    void aSchemeThatLeavesEveryQueuePairOutKeepsTheConfiguredSplit() {
        // nothing to re-split over: every queue pair carries its configured share, none is left idle
        PreparedRun none = prepare(new LeaveOut(0b1111), 1 << 20);
        RunResult r = none.run();
        Invariants.check(none);
        assertEveryQueuePairCarriesItsConfiguredShare(none, r, 1 << 20);
    }

    /** Every flow finished, no queue pair idle, each of a connection's four queue pairs sent a quarter of {@code messageBytes} / 8. */
    private static void assertEveryQueuePairCarriesItsConfiguredShare(PreparedRun run, RunResult r, long messageBytes) {
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
        assertThat(run.transport().idleQueuePairs()).isZero();
        int mtu = run.scenario().packets().mtuBytes();
        for (int q = 0; q < run.transport().flowCount(); q++) {
            assertThat(run.transport().sentPackets(q)).as("queue pair %d", q).isEqualTo((messageBytes / 8 / 4 + mtu - 1) / mtu);
        }
    }

    private static int firstQpOf(Transport t, int c) {
        for (int q = 0; q < t.flowCount(); q++) {
            if (t.connectionOf(q) == c) {
                return q;
            }
        }
        throw new AssertionError("connection " + c + " has no queue pair");
    }
}
