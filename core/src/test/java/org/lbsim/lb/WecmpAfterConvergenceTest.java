package org.lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lbsim.sim.ScenarioTweaks.flow;
import static org.lbsim.sim.ScenarioTweaks.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.kernel.Simulator;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Network;
import org.lbsim.net.Packet;
import org.lbsim.registry.Capability;
import org.lbsim.registry.Component;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * OFAN 5.2: until the convergence delay G switches keep sending onto failed links and lose those
 * packets; at G "switches update their routes/weights", after which "W-ECMP weights now correctly
 * distribute traffic across all available capacity". On a k = 4 fat tree with a0 - c0 failed, e0
 * reaches the other pods through a0 (one core left, weight 1) and a1 (two cores, weight 2). Host 0
 * sends to every host of the other pods (16 queue pairs per connection); whatever the scheme, once
 * routing has converged e0 sends a third of the bytes to a0, and nothing is put on the failed link.
 */
class WecmpAfterConvergenceTest {
    @TempDir
    Path dir;

    /**
     * Every scheme but those that declare {@link Capability#OWNS_PORT_CHOICE}: their papers choose among a
     * switch's ports by rules of their own, not by the FIB's W-ECMP weights (PRO pins PathIDs to ports,
     * Themis sprays by PSN over the ToR's uplinks (Eq. 1), LetFlow / CONGA / ConWeave pick the source
     * ToR's uplink per flowlet or epoch, DNLB maps port segments to uplinks by PBR). They still deliver
     * everything under failures (EverySchemeDeliversTest).
     */
    static List<String> schemes() {
        return LoadBalancers.REGISTRY.all().stream().filter(c -> !c.has(Capability.OWNS_PORT_CHOICE)).map(Component::name).toList();
    }

    /**
     * How far a0's share may be from 1/3, by what the scheme declares. A flow- or flowlet-level scheme
     * (no ECN and no gaps here, so a flowlet scheme keeps each queue pair on one path) hashes one
     * entropy per queue pair: 12 connections x 16 queue pairs = 192 draws, 3.5 standard deviations of a
     * binomial share is 0.12. A packet-level scheme chooses per packet, about 6,000 choices: 0.03,
     * except for the packet-level schemes in {@link #FEWER_DRAWS_THAN_PACKETS}.
     */
    private static double tolerance(String scheme) {
        Component<?> c = LoadBalancers.REGISTRY.find(scheme).orElseThrow();
        Double fewer = FEWER_DRAWS_THAN_PACKETS.get(scheme);
        if (fewer != null) {
            assertThat(c.has(Capability.PACKET_LEVEL)).as(scheme + " is listed among packet-level schemes").isTrue();
            return fewer;
        }
        Capability granularity = Capability.granularity(c.capabilities());
        return switch (granularity) {
            case FLOW_LEVEL, FLOWLET_LEVEL -> 0.12;
            case PACKET_LEVEL -> 0.03;
            default -> throw new AssertionError(scheme + " declares no granularity");
        };
    }

    /**
     * Packet-level schemes that draw fewer independent paths than they send packets: SUBFLOW deals
     * packets over 4 entropies per queue pair, REPS (HOST PKT AR) resends entropies that came back.
     */
    private static final Map<String, Double> FEWER_DRAWS_THAN_PACKETS = Map.of("subflow", 0.06, "host-pkt-ar", 0.06);

    private Scenario scenario(String scheme, double convergenceNs) {
        Topology shape = ChoiceRecorder.Fabric.fatTree(4).topology();
        List<long[]> rows = new ArrayList<>();
        for (int dst = 0; dst < shape.hostCount(); dst++) {
            if (shape.pod(dst) != shape.pod(0)) {
                rows.add(flow(0, dst, 512 * 4096L));
            }
        }
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), scheme, trace(dir, "from-h0.csv", rows), 1);
        s = TestScenarios.withFailures(s, TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("a0", "c0", 0)), convergenceNs));
        // DLBF picks one path per flow; with its default host-pair states the 16 queue pairs of a connection share one
        // (12 draws in all), so the split is tested with queue-pair states: 192 independent draws, like ECMP
        org.lbsim.scenario.ComponentSpec lb = s.loadBalancing();
        if (lb.params() instanceof org.lbsim.lb.dlbf.Dlbf.Params d) {
            lb = new org.lbsim.scenario.ComponentSpec(lb.type(), new org.lbsim.lb.dlbf.Dlbf.Params(d.paths(), d.availUs(), d.unavailUs(),
                    d.thetaUs(), d.bufferThresholdPackets(), d.notifications(), d.clockOffsetNs(), org.lbsim.lb.dlbf.Dlbf.Params.QUEUE_PAIR));
        }
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), lb, s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits(), s.metrics(), new NicSpec(16, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void convergedFromTheStartEdgeUplinkBytesFollowTheWeightsAndNothingIsLost(String scheme) {
        CheckedRun run = CheckedRun.of(scenario(scheme, 0), dir);
        RunResult r = run.result();
        Topology t = run.prepared().topology();
        int e0 = t.nodeByName("e0");
        long toA0 = run.prepared().network().egress(t.portsBetween(e0, t.nodeByName("a0"))[0]).txBytes();
        long toA1 = run.prepared().network().egress(t.portsBetween(e0, t.nodeByName("a1"))[0]).txBytes();
        double share = toA0 / (double) (toA0 + toA1);
        String msg = String.format("%s: e0 sent %d B to a0 and %d B to a1, a0's share %.4f (W-ECMP 1/3)", scheme, toA0, toA1, share);
        System.out.println("[wecmp] " + msg);

        assertThat(r.flowsFinished()).isEqualTo(r.flows());
        assertThat(r.counters().dropped()).as(msg).isZero();
        assertThat(r.counters().retransmissions()).as(msg).isZero();
        assertThat(share).as(msg).isCloseTo(1 / 3.0, org.assertj.core.api.Assertions.within(tolerance(scheme)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void afterAConvergenceDelayNothingGoesOntoTheFailedLinkAndTheSplitFollowsTheWeights(String scheme) {
        long convergencePs = 25_000_000; // G = 25 us, four base RTTs of this fabric
        long[] lostOrDoomedAtG = {-1}; // lost on the failed link by G, plus the frames then queued in front of it
        long[] onTheirWayToC0AtG = {-1};
        long[] bytesAfter = new long[2];
        int[] failedPorts = new int[2];
        CheckedRun run = CheckedRun.of(scenario(scheme, convergencePs / 1000.0), dir, ChoiceRecorder.on(prepared -> {
            Topology t = prepared.topology();
            Network net = prepared.network();
            int e0 = t.nodeByName("e0");
            int a0 = t.nodeByName("a0");
            failedPorts[0] = t.portsBetween(a0, t.nodeByName("c0"))[0];
            failedPorts[1] = t.peerPort(failedPorts[0]);
            int toA0 = t.portsBetween(e0, a0)[0];
            int toA1 = t.portsBetween(e0, t.nodeByName("a1"))[0];
            Simulator sim = prepared.simulator();
            // runs just after the convergence event (scheduled earlier for the same time)
            sim.schedule(sim.register((kind, tag) -> {
                long n = 0;
                for (int port : failedPorts) {
                    n += net.link(port).lostPackets() + net.egress(port).queuePackets();
                }
                lostOrDoomedAtG[0] = n;
                // c0 can no longer reach pod 0: what is on its way to c0 at G may find no route there
                int c0 = t.nodeByName("c0");
                long towardsC0 = 0;
                for (int port = t.firstPort(c0); port < t.portEnd(c0); port++) {
                    towardsC0 += net.egress(t.peerPort(port)).queuePackets() + net.link(t.peerPort(port)).inFlight();
                }
                onTheirWayToC0AtG[0] = towardsC0;
            }), convergencePs, 0, 0);
            return (node, p, port) -> {
                if (sim.nowPs() >= convergencePs && p.kind == Packet.DATA && (port == toA0 || port == toA1)) {
                    bytesAfter[port == toA0 ? 0 : 1] += p.sizeBytes;
                }
            };
        }));
        RunResult r = run.result();
        Network net = run.prepared().network();
        long lost = net.link(failedPorts[0]).lostPackets() + net.link(failedPorts[1]).lostPackets();
        double share = bytesAfter[0] / (double) (bytesAfter[0] + bytesAfter[1]);
        String msg = String.format("%s, G = %.0f us: %d packets lost on the failed link in all, %d of them lost or queued "
                + "in front of it at G; %d without route (%d heading for c0 at G); after G e0 sent %d B to a0 and %d B to a1, a0's share %.4f (W-ECMP 1/3)", scheme,
                convergencePs / 1e6, lost, lostOrDoomedAtG[0], r.counters().noRouteDrops(), onTheirWayToC0AtG[0], bytesAfter[0], bytesAfter[1], share);
        System.out.println("[wecmp] " + msg);

        assertThat(r.flowsFinished()).isEqualTo(r.flows());
        assertThat(r.counters().linkLoss()).as(msg).isEqualTo(lost);
        assertThat(lost).as(msg + "; nothing put on the failed link after G").isEqualTo(lostOrDoomedAtG[0]);
        assertThat(r.counters().drops()).as(msg + "; no buffer drops").isZero();
        assertThat(r.counters().noRouteDrops()).as(msg + "; only packets already heading for c0 at G find no route")
                .isLessThanOrEqualTo(onTheirWayToC0AtG[0]);
        assertThat(share).as(msg).isCloseTo(1 / 3.0, org.assertj.core.api.Assertions.within(tolerance(scheme)));
    }
}
