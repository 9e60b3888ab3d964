package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.net.Packet;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.topology.Topology;

/**
 * HOST DR source-routes through waypoints computed from the routes its hosts know
 * ({@code HostContext.convergedFib}); when routing converges during the run
 * ({@code LoadBalancer.onRoutingChange}) the hosts recompute them, so after a0-c0 fails and routes
 * converge, nobody sends towards c0 for pod 0 any more, while before the failure c0 was a waypoint.
 */
class HostDrLearnsNewRoutesTest {

    @Test
    void afterRoutingConvergesHostsStopUsingAWaypointThatCanNoLongerReachTheDestination() {
        double failAtUs = 5;
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "host-dr", new WorkloadSpec.Permutation(256 * 4096, 0), 5);
        s = TestScenarios.withFailures(s, new FailureSpec(List.of(), 0, 0, List.of(), -1,
                List.of(FailureSpec.Event.link(failAtUs, "a0", "c0", 0, "down", 0)), 0, 0, 0));
        long[] viaC0ForPod0 = new long[2]; // [0] labelled before the failure, [1] labelled after it (G = 0: routes converged then)
        long[] stampedAfter = new long[1];
        CheckedRun run = CheckedRun.of(s, null, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            int c0 = t.nodeByName("c0");
            return (node, p, port) -> {
                if ((p.kind != Packet.DATA && p.kind != Packet.ACK) || node != t.hostSwitch(p.src) || p.hops != 1) {
                    return;
                }
                // a data packet is labelled when the NIC sends it; an ACK when the receiver makes it (its
                // data packet's arrival), and it may wait in the host's control queue past the failure
                long labelledPs = p.kind == Packet.ACK ? p.echoNicRxPs : p.sentPs;
                boolean after = labelledPs > Time.us(failAtUs);
                stampedAfter[0] += after ? 1 : 0;
                if (p.pathId == c0 && (t.pod(p.src) == 0 || t.pod(p.dst) == 0)) {
                    viaC0ForPod0[after ? 1 : 0]++;
                }
            };
        }));
        assertThat(run.result().flowsFinished()).isEqualTo(16);
        assertThat(run.result().failureEvents().get(0).convergedAtPs()).isEqualTo(Time.us(failAtUs));
        assertThat(viaC0ForPod0[0]).as("c0 was a waypoint for pod 0 before the failure").isPositive();
        assertThat(stampedAfter[0]).as("the run went on after the failure").isPositive();
        assertThat(viaC0ForPod0[1]).as("packets sent after convergence through c0 to or from pod 0").isZero();
    }
}
