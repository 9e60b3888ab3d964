package org.lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.lb.pro.Pro;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.FailureSpec.DroppedPacket;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.ReceiverQp;

/**
 * The MPRDMA-style receiver with {@code mprdmaBeyondBitmap: drop} at the edge of its bitmap of L = 4 slots: on two
 * hosts with PSN 2 lost, PSNs 3, 4 and 5 (1 to 3 beyond rcv_nxt = 2) have slots and are kept; PSN 6, exactly L beyond,
 * has none: it is dropped, NACKed and resent.
 */
class MprdmaBitmapEdgeTest {
    @TempDir
    Path dir;

    @Test
    void thePsnExactlyLBeyondTheExpectedOneHasNoSlot() {
        Pro.Params d = Pro.Params.defaults();
        ComponentSpec pro = new ComponentSpec("pro", new Pro.Params(d.rtoUs(), d.batchPackets(), d.destinationAware(), d.interQpOrchestration(),
                d.roundRobinStart(), d.initialWindow(), Pro.Params.MPRDMA, 4, 2, d.rtoRestart(), d.mprdmaRetransmit(), d.mprdmaSlowPaths(),
                d.mprdmaWindow(), d.mprdmaInitialWindow(), d.mprdmaProbe(), Pro.Params.DROP));
        WireTap[] tap = new WireTap[1];
        CheckedRun run = CheckedRun.of(ForcedTimeoutTest.twoHosts(dir, pro, TestScenarios.erasure(), 12, List.of(new DroppedPacket(0, 2))), dir,
                r -> tap[0] = WireTap.attach(r));
        assertThat(run.result().flowsFinished()).isEqualTo(1);
        assertThat(tap[0].sends(0, 2)).as("the lost PSN").isEqualTo(2);
        for (int psn : new int[] {0, 1, 3, 4, 5}) {
            assertThat(tap[0].sends(0, psn)).as("PSN %d: in order or inside the bitmap", psn).isEqualTo(1);
        }
        assertThat(tap[0].sends(0, 6)).as("PSN 6 = rcv_nxt + L: dropped at the receiver, resent").isEqualTo(2);
        ReceiverQp rx = run.prepared().transport().receiverOf(0);
        assertThat(rx.discarded()).isEqualTo(rx.nacks()).isPositive();
        assertThat(run.result().schemeCounters().get("pro.mprdmaBitmapDrops").longValue()).isEqualTo(rx.discarded());
    }
}
