package org.lbsim.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lbsim.kernel.Time;
import org.lbsim.metrics.FailureEventStats;
import org.lbsim.metrics.FailureEventStats.Losses;
import org.lbsim.metrics.RunResult;
import org.lbsim.net.Network;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.FailureSpec.Event;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.topology.Topology;

/**
 * Failures during a run: a link or switch that fails at a time loses the packets
 * on its wire and queued for it at that moment, routing converges detection delay + G later, a link
 * that comes back carries traffic again, a degraded link serializes at its new rate; every run here
 * goes through {@link CheckedRun}, so packets are conserved and buffers consistent after each.
 */
class FailuresDuringRunTest {
    private static final double BASE_RTT_NS = 6 * 41.58 + 6 * 0.64 + 6_000; // k = 4, 800 Gb/s (ConvergenceDelayTest)

    /** A k = 4 permutation at line rate (about 14 us of data per host), host spraying, the given failures. */
    private static Scenario permutation(String scheme, long seed, double convergenceNs, List<Event> events) {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), scheme, new WorkloadSpec.Permutation(256 * 4096, 0), seed);
        return TestScenarios.withFailures(s, new FailureSpec(List.of(), 0, convergenceNs, List.of(), -1, events, 0, 0, 0));
    }

    private static Event link(double atUs, String a, String b, String action) {
        return Event.link(atUs, a, b, 0, action, 0);
    }

    /** Runs {@code s}; at {@code atUs}, right after the failure events of that instant, {@code probe} looks at the network. */
    private static CheckedRun runProbing(Scenario s, double atUs, java.util.function.Consumer<PreparedRun> probe) {
        return CheckedRun.of(s, null, prepared -> {
            int id = prepared.simulator().register((kind, tag) -> probe.accept(prepared));
            prepared.simulator().scheduleBackground(id, Time.us(atUs), 0, 0);
        });
    }

    private static int[] portsOf(Topology t, String a, String b) {
        int pa = t.portsBetween(t.nodeByName(a), t.nodeByName(b))[0];
        return new int[] {pa, t.peerPort(pa)};
    }

    /**
     * With ACK / NACK / CNP in the switch ports' control queue (switches.controlPriority), a link that
     * fails mid-run drops the ACKs queued in that queue without touching the buffer they never took:
     * the run conserves packets and no queue goes negative (CheckedRun), for several seeds.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aMidRunFailureDropsControlQueuedAcksWithoutChargingTheBuffer(long seed) {
        Scenario p = permutation("host-spray", seed, -1, List.of(link(6, "e0", "a0", "down"), link(6, "a0", "c0", "down")));
        SwitchSpec sw = p.switches();
        Scenario s = new Scenario(p.name(), p.seed(), p.topology(), p.packets(), new SwitchSpec(sw.buffer(), sw.ecn(), sw.pfc(), true),
                p.loadBalancing(), p.congestionControl(), p.lossRecovery(), p.workload(), p.failures(), p.limits());
        RunResult r = CheckedRun.of(s, null, prepared -> { }).result();
        assertThat(r.failureEvents()).hasSize(2);
        assertThat(r.failureEvents().get(0).lostAtEvent() + r.failureEvents().get(1).lostAtEvent()).isPositive();
    }

    @Test
    void aLinkThatFailsMidRunLosesAtOnceThePacketsOnItsWireAndQueuedForItAndTheRunConservesPackets() {
        Scenario s = permutation("switch-pkt-ar", 3, -1, List.of(link(6, "a0", "c0", "down")));
        List<String> seen = new ArrayList<>();
        long[] linkLossAtProbe = new long[1];
        CheckedRun run = runProbing(s, 6, prepared -> {
            Network net = prepared.network();
            for (int port : portsOf(prepared.topology(), "a0", "c0")) {
                seen.add("port " + port + ": on wire " + net.link(port).inFlight() + ", queued " + net.egress(port).queuePackets()
                        + ", down " + net.link(port).isDown());
            }
            linkLossAtProbe[0] = FailureTimeline.losses(net).linkLoss();
        });
        RunResult r = run.result();
        assertThat(r.failureEvents()).hasSize(1);
        FailureEventStats e = r.failureEvents().get(0);
        String msg = e + " / " + seen;
        assertThat(seen).as(msg).allMatch(x -> x.contains("on wire 0, queued 0, down true"));
        assertThat(e.target()).isEqualTo("a0-c0");
        assertThat(e.atPs()).isEqualTo(Time.us(6));
        assertThat(e.before()).as(msg).isEqualTo(Losses.NONE);
        assertThat(e.lostAtEvent()).as(msg + ": a busy 500 ns link holds frames on its wire").isPositive();
        assertThat(linkLossAtProbe[0]).as(msg).isEqualTo(e.lostAtEvent());
        // G = never: the switches keep sending onto the link, and lose those packets too
        assertThat(e.convergedAtPs()).isEqualTo(-1);
        assertThat(e.during().linkLoss()).as(msg).isGreaterThan(e.lostAtEvent());
        assertThat(e.after()).isEqualTo(Losses.NONE);
        assertThat(e.before().linkLoss() + e.during().linkLoss()).isEqualTo(r.counters().linkLoss());
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
    }

    @Test
    void withGZeroRoutesConvergeAtTheFailureSoOnlyThePacketsCaughtByItAreLost() {
        Scenario s = permutation("switch-pkt-ar", 3, 0, List.of(link(6, "a0", "c0", "down")));
        RunResult r = CheckedRun.of(s).result();
        FailureEventStats e = r.failureEvents().get(0);
        assertThat(e.convergedAtPs()).isEqualTo(Time.us(6));
        assertThat(e.lostAtEvent()).isPositive();
        assertThat(e.during().linkLoss()).as(e.toString()).isEqualTo(e.lostAtEvent());
        assertThat(e.after().linkLoss()).as(e + ": nothing routes onto a link the FIB left out").isZero();
        assertThat(r.counters().linkLoss()).isEqualTo(e.lostAtEvent());
    }

    @Test
    void aDetectionDelayPostponesConvergenceAndWhatIsQueuedForTheDeadLinkThenIsStillLost() {
        List<Event> events = List.of(link(6, "a0", "c0", "down"));
        Scenario s = TestScenarios.withFailures(permutation("switch-pkt-ar", 3, 0, events),
                new FailureSpec(List.of(), 0, 1_000, List.of(), -1, events, 2_000, 0, 0));
        long convergedPs = Time.us(6) + Time.ns(2_000) + Time.ns(1_000);
        long[] justAfter = new long[2];
        CheckedRun run = runProbing(s, (convergedPs + 1) / (double) Time.PS_PER_US, prepared -> {
            justAfter[0] = FailureTimeline.losses(prepared.network()).linkLoss();
            for (int port : portsOf(prepared.topology(), "a0", "c0")) {
                justAfter[1] += prepared.network().egress(port).queuePackets();
            }
        });
        FailureEventStats e = run.result().failureEvents().get(0);
        assertThat(e.convergedAtPs()).isEqualTo(convergedPs);
        assertThat(e.during().linkLoss()).as(e.toString()).isGreaterThan(e.lostAtEvent());
        // converged routes send nothing more to the dead link; the frames already queued for it drain into it
        assertThat(run.result().counters().linkLoss()).as(e.toString()).isEqualTo(justAfter[0] + justAfter[1]);
    }

    @Test
    void aLinkThatGoesDownAndComesBackCarriesTrafficAgainOnceRoutingHasConverged() {
        double rttsNs = 2 * BASE_RTT_NS;
        Scenario s = permutation("switch-pkt-ar", 3, rttsNs, List.of(link(8, "a0", "c0", "up"), link(3, "a0", "c0", "down")));
        long[] txWhileDown = new long[2];
        long[] lostWhileDown = new long[2];
        double convergedDownUs = 3 + rttsNs / 1000;
        CheckedRun run = runProbing(s, 8, prepared -> {
            int[] ports = portsOf(prepared.topology(), "a0", "c0");
            txWhileDown[0] = prepared.network().egress(ports[0]).txPackets() + prepared.network().egress(ports[1]).txPackets();
            lostWhileDown[0] = FailureTimeline.losses(prepared.network()).linkLoss();
        });
        RunResult r = run.result();
        List<FailureEventStats> ev = r.failureEvents();
        assertThat(ev).extracting(FailureEventStats::action).containsExactly("down", "up"); // sorted by time
        assertThat(ev).extracting(FailureEventStats::event).containsExactly(1, 0);
        assertThat(ev.get(0).convergedAtPs()).isEqualTo(Time.us(3) + Math.round(rttsNs * 1000));
        assertThat(ev.get(1).convergedAtPs()).isEqualTo(Time.us(8) + Math.round(rttsNs * 1000));
        assertThat(ev.get(1).lostAtEvent()).isZero();
        assertThat(ev.get(1).during().linkLoss()).as("nothing is lost on a link coming up").isZero();
        // after the down's convergence (at ~4.3 us) nothing was sent onto the link; after the up's, traffic again
        assertThat(ev.get(0).after().linkLoss()).isZero();
        int[] ports = portsOf(run.prepared().topology(), "a0", "c0");
        long txEnd = run.prepared().network().egress(ports[0]).txPackets() + run.prepared().network().egress(ports[1]).txPackets();
        assertThat(txEnd).as("frames sent on a0-c0 after it came back (" + convergedDownUs + " us converged down)").isGreaterThan(txWhileDown[0]);
        assertThat(run.prepared().network().link(ports[0]).isDown()).isFalse();
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
        assertThat(lostWhileDown[0]).isEqualTo(r.counters().linkLoss());
    }

    @Test
    void aSwitchFailureTakesAllItsLinksDownAtOnceAndItsRecoveryBringsThemBack() {
        Scenario s = permutation("host-spray", 3, 0, List.of(Event.node(5, "c1", "down"), Event.node(9, "c1", "up")));
        boolean[][] downAt = new boolean[1][];
        CheckedRun run = runProbing(s, 5, prepared -> {
            Topology t = prepared.topology();
            int c1 = t.nodeByName("c1");
            downAt[0] = new boolean[t.degree(c1)];
            for (int p = t.firstPort(c1); p < t.portEnd(c1); p++) {
                downAt[0][p - t.firstPort(c1)] = prepared.network().link(p).isDown() && prepared.network().link(t.peerPort(p)).isDown();
            }
        });
        assertThat(downAt[0]).containsOnly(true).hasSize(4);
        RunResult r = run.result();
        assertThat(r.failureEvents()).extracting(FailureEventStats::target).containsExactly("c1", "c1");
        assertThat(r.failureEvents().get(0).lostAtEvent()).isPositive();
        Topology t = run.prepared().topology();
        int c1 = t.nodeByName("c1");
        for (int p = t.firstPort(c1); p < t.portEnd(c1); p++) {
            assertThat(run.prepared().network().link(p).isDown()).isFalse();
        }
        assertThat(r.flowsFinished()).isEqualTo(r.flows());
    }

    @Test
    void aDegradedLinkSerializesLaterFramesAtItsNewRateAndUpRestoresTheFullRate(@TempDir Path dir) {
        // h0 -> h4 (another pod), 256 frames dealt round-robin over e0's two uplinks, both at 100 Gb/s from time 0
        Scenario base = TestScenarios.scenario(TestScenarios.fatTree(4), "switch-pkt",
                ScenarioTweaks.trace(dir, "one.csv", List.of(ScenarioTweaks.flow(0, 4, 256 * 4096L))), 1);
        List<Event> degrade = List.of(Event.link(0, "e0", "a0", 0, "degrade", 100), Event.link(0, "e0", "a1", 0, "degrade", 100));
        long healthy = CheckedRun.of(base, dir).cctPs();
        CheckedRun slow = CheckedRun.of(TestScenarios.withFailures(base, FailureSpec.defaults().withEvents(degrade)), dir);
        // 128 frames of 4158 B on each uplink, one after the other at 100 Gb/s (332.64 ns each)
        long serialized = 128 * Time.serializationPs(4158, 100_000);
        // (plus 3 us of propagation, and what the erasure sender sends beyond the 256 frames while the queue delays its ACKs)
        assertThat(slow.cctPs()).as("healthy " + healthy).isGreaterThan(serialized).isLessThan(serialized + Time.us(10));
        assertThat(healthy).isLessThan(serialized / 2);
        int[] ports = portsOf(slow.prepared().topology(), "e0", "a0");
        assertThat(slow.prepared().network().egress(ports[0]).rateMbps()).isEqualTo(100_000);
        assertThat(slow.result().failureEvents()).extracting(FailureEventStats::rateMbps).containsExactly(100_000L, 100_000L);
        assertThat(slow.result().failureEvents()).extracting(FailureEventStats::convergedAtPs).containsOnly(-1L);

        List<Event> andBack = new ArrayList<>(degrade);
        andBack.add(Event.link(5, "e0", "a0", 0, "up", 0));
        andBack.add(Event.link(5, "e0", "a1", 0, "up", 0));
        CheckedRun restored = CheckedRun.of(TestScenarios.withFailures(base, FailureSpec.defaults().withEvents(andBack)), dir);
        assertThat(restored.prepared().network().egress(ports[0]).rateMbps()).isEqualTo(800_000);
        assertThat(restored.cctPs()).isLessThan(slow.cctPs()).isGreaterThan(healthy);
    }

    @Test
    void theSameSeedGivesTheSameRunWithFailuresDuringIt() {
        List<Event> events = List.of(link(4, "a0", "c0", "down"), Event.node(6, "a5", "down"), link(9, "a0", "c0", "up"), Event.node(10, "a5", "up"));
        Scenario s = permutation("switch-pkt-ar", 7, 2 * BASE_RTT_NS, events);
        RunResult a = CheckedRun.of(s).result();
        RunResult b = CheckedRun.of(s).result();
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(a);
        assertThat(a.failureEvents()).hasSize(4);
        assertThat(a.counters().linkLoss()).isPositive();
    }

    @Test
    void theRandomProcessFailsAndRepairsLinksFromTheSeedDeterministically() {
        Scenario s = TestScenarios.scenario(TestScenarios.fatTree(4), "switch-pkt-ar", new WorkloadSpec.Permutation(256 * 4096, 0), 11);
        s = TestScenarios.withFailures(s, new FailureSpec(List.of(), 0, 500, List.of(), -1, List.of(), 0, 60, 2));
        RunResult a = CheckedRun.of(s).result();
        RunResult b = CheckedRun.of(s).result();
        assertThat(b).usingRecursiveComparison().ignoringFields("wallTimeMs").isEqualTo(a);
        // 32 switch-to-switch links failing every 60 us on average: several failures within a ~15 us run
        String msg = a.failureEvents().stream().map(e -> e.target() + " " + e.action() + " @" + e.atPs()).toList().toString();
        assertThat(a.failureEvents()).as(msg).hasSizeGreaterThan(2);
        assertThat(a.failureEvents()).as(msg).allMatch(e -> e.event() == -1);
        assertThat(a.failureEvents()).extracting(FailureEventStats::atPs).isSorted();
        assertThat(a.flowsFinished()).isEqualTo(a.flows());
        Scenario other = new Scenario(s.name(), 12, s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(), s.lossRecovery(),
                s.workload(), s.failures(), s.limits());
        assertThat(CheckedRun.of(other).result().failureEvents()).extracting(FailureEventStats::target)
                .isNotEqualTo(a.failureEvents().stream().map(FailureEventStats::target).toList());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"at -1 us", "node h0", "no such link", "rate above the link's", "edge switch down for good", "index 1 of one link"})
    void badEventsAreRejectedBeforeTheRunWithTheFieldNamed(String what) {
        Event bad = switch (what) {
            case "at -1 us" -> null;
            case "node h0" -> Event.node(1, "h0", "down");
            case "no such link" -> link(1, "e0", "c0", "down");
            case "rate above the link's" -> Event.link(1, "e0", "a0", 0, "degrade", 900);
            case "edge switch down for good" -> Event.node(1, "e2", "down");
            default -> Event.link(1, "e0", "a0", 1, "down", 0);
        };
        String expected = switch (what) {
            case "at -1 us" -> "atUs: must be a finite time >= 0 us, got -1.0";
            case "node h0" -> "failures.events[0].node: no switch named 'h0' in this fat-tree (switches are named e0 .. c3)";
            case "no such link" -> "failures.events[0].link: there is no link between e0 and c0";
            case "rate above the link's" -> "failures.events[0].rateGbps: must be between 0.001 Gb/s and the link's 800.0 Gb/s, got 900";
            case "edge switch down for good" -> "failures.events: after the last event (e2 down at 1.0 us) host ";
            default -> "failures.events[0].link.index: must be < 1 (parallel links between e0 and a0), got 1";
        };
        if (bad == null) {
            assertThatThrownBy(() -> link(-1, "e0", "a0", "down")).isInstanceOf(ScenarioException.class).hasMessage(expected);
            return;
        }
        Scenario s = permutation("host-spray", 3, 0, List.of(bad));
        assertThatThrownBy(() -> Simulation.prepare(s, null)).isInstanceOf(ScenarioException.class).hasMessageStartingWith(expected)
                .hasMessageNotContaining("\n");
    }

    @Test
    void eventsAndTheRandomProcessValidateTheirOwnFields() {
        assertThatThrownBy(() -> new Event(1, null, "a0", "explode", 0)).hasMessage("action: must be one of down, up, degrade, got 'explode'");
        assertThatThrownBy(() -> new Event(1, new FailureSpec.FailedLink("e0", "a0", 0), "a0", "down", 0))
                .hasMessage("node: give either link or node, not both");
        assertThatThrownBy(() -> Event.node(1, "a0", "degrade")).hasMessage("node: a switch cannot be degraded; degrade one of its links");
        assertThatThrownBy(() -> Event.link(1, "e0", "a0", 0, "degrade", 0)).hasMessage("rateGbps: must be at least 0.001 Gb/s for degrade (rates are kept in whole Mb/s), got 0");
        assertThatThrownBy(() -> Event.link(1, "e0", "a0", 0, "down", 100)).hasMessage("rateGbps: is only for action degrade, got 100.0 with down");
        assertThatThrownBy(() -> new Event(Double.POSITIVE_INFINITY, null, "a0", "down", 0)).hasMessageStartingWith("atUs: must be a finite time");
        assertThatThrownBy(() -> new FailureSpec(List.of(), 0, 0, List.of(), -1, List.of(), 0, 10, 0))
                .hasMessage("mttrUs: must be > 0 us when mtbfUs is set (a failed link must come back), got 0.0");
        assertThatThrownBy(() -> new FailureSpec(List.of(), 0, 0, List.of(), -1, List.of(), -5, 0, 0))
                .hasMessage("detectionDelayNs: must be a finite number >= 0 ns, got -5.0");
        Scenario noTarget = permutation("host-spray", 3, 0, List.of(new Event(1, null, "", "down", 0)));
        assertThatThrownBy(() -> Simulation.prepare(noTarget, null)).hasMessage("failures.events[0]: give link: {a: NODE, b: NODE, index: N} or node: SWITCH");
        Scenario noTime = permutation("host-spray", 3, 0, List.of(new Event(Double.NaN, null, "a0", "down", 0)));
        assertThatThrownBy(() -> Simulation.prepare(noTime, null)).hasMessageStartingWith("failures.events[0].atUs: is required");
        Scenario noAction = permutation("host-spray", 3, 0, List.of(new Event(1, null, "a0", null, 0)));
        assertThatThrownBy(() -> Simulation.prepare(noAction, null)).hasMessage("failures.events[0].action: is required (down, up or degrade)");
    }
}
