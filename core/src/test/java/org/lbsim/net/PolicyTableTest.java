package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.MetricsSpec;
import org.lbsim.scenario.NicSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.sim.CheckedRun;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.ScenarioTweaks;
import org.lbsim.sim.TestScenarios;
import org.lbsim.topology.Topology;

/**
 * CTCCL 3.2's network side on a 2-leaf, 2-spine fabric: leaf l0 marks h0's traffic as DSCP class 3
 * (an ingress stage standing in for the host's marking) and its policy table sends class 3 with UDP
 * source ports 0-32767 to spine s1 and 32768-65535 to spine s0 when bound for l1's hosts, whatever ECMP would do. h1's class-0
 * traffic is left to the FIB. When the l0-s1 link fails, the first rule falls back to the FIB group.
 */
class PolicyTableTest {
    private static final int CLASS = 3;

    @TempDir
    Path dir;

    private Scenario twoFlows(FailureSpec failures) {
        TopologySpec topo = new TopologySpec.LeafSpine(2, 2, 2, 1, new LinkSpec(100, 100), new LinkSpec(100, 100));
        SwitchSpec switches = new SwitchSpec(BufferSpec.defaults(), new EcnSpec(false, 0, 0, 0), PfcSpec.defaults());
        return new Scenario("pbr", 1, topo, PacketSpec.defaults(), switches, TestScenarios.lb("host-spray"), TestScenarios.lineRate(),
                TestScenarios.erasure(), ScenarioTweaks.trace(dir, "two.csv",
                List.of(ScenarioTweaks.flow(0, 2, 256 * 4096L), ScenarioTweaks.flow(1, 3, 256 * 4096L))),
                failures, LimitsSpec.defaults(), new MetricsSpec(0, 0), NicSpec.defaults());
    }

    /** Counts what leaves each uplink of l0, and class-3 packets whose source port disagrees with the rule of that uplink. */
    static final class UplinkTally implements EgressStage {
        final int toS0;
        final int toS1;
        long class3OnS0;
        long class3OnS1;
        long class0Data;
        long misrouted;

        UplinkTally(int toS0, int toS1) {
            this.toS0 = toS0;
            this.toS1 = toS1;
        }

        @Override
        public void onEnqueue(Packet p, int port, long queueBytes) {
            if (p.kind != Packet.DATA || (port != toS0 && port != toS1)) {
                return;
            }
            if (p.trafficClass != CLASS) {
                class0Data++;
                return;
            }
            boolean low = (p.entropy & 0xFFFF) <= 32767;
            if (port == toS1) {
                class3OnS1++;
                misrouted += low ? 0 : 1;
            } else {
                class3OnS0++;
                misrouted += low ? 1 : 0;
            }
        }

        @Override
        public void onDequeue(Packet p, int port, long queueBytes) {
        }
    }

    private static UplinkTally program(PreparedRun run) {
        Topology t = run.topology();
        int l0 = t.nodeByName("l0");
        int toS0 = t.portsBetween(l0, t.nodeByName("s0"))[0];
        int toS1 = t.portsBetween(l0, t.nodeByName("s1"))[0];
        Switch leaf = run.network().switchAt(l0);
        leaf.addIngressStage((p, port) -> {
            if (p.kind == Packet.DATA && p.src == 0) {
                p.trafficClass = CLASS;
            }
            return true;
        });
        // towards l1's hosts (h2, h3) only: the class's ACKs coming down to h0 are no business of these rules
        leaf.setPolicyTable(new PolicyTable(List.of(
                new PolicyTable.Rule(CLASS, 0, 32767, 0, 0, 2, 3, -1, new int[] {toS1}),
                new PolicyTable.Rule(CLASS, 32768, 65535, 0, 0, 2, 3, -1, new int[] {toS0}))));
        UplinkTally tally = new UplinkTally(toS0, toS1);
        leaf.setEgressStage(tally);
        return tally;
    }

    @Test
    void oneClassFollowsItsSourcePortRangesAndTheOtherClassIsLeftToTheFib() {
        UplinkTally[] tally = new UplinkTally[1];
        CheckedRun run = CheckedRun.of(twoFlows(FailureSpec.defaults()), dir, r -> tally[0] = program(r));
        PolicyTable table = run.prepared().network().switchAt(run.prepared().topology().nodeByName("l0")).policyTable();

        assertThat(run.result().flowsFinished()).isEqualTo(2);
        assertThat(tally[0].misrouted).as("class-3 packets on the wrong uplink for their source port").isZero();
        assertThat(tally[0].class3OnS0).as("sprayed source ports fall in both ranges").isPositive();
        assertThat(tally[0].class3OnS1).isPositive();
        assertThat(table.hits()).as("every first transmission of h0 matched a rule").isEqualTo(tally[0].class3OnS0 + tally[0].class3OnS1);
        assertThat(table.fallbacks()).isZero();
        assertThat(tally[0].class0Data).as("h1's class-0 data still crosses the uplinks by ECMP").isGreaterThanOrEqualTo(256);
    }

    @Test
    void whenTheRulesUplinkFailsItsPacketsFallBackToTheFibGroup() {
        FailureSpec l0s1Down = TestScenarios.failLinks(List.of(new FailureSpec.FailedLink("l0", "s1", 0)), 0);
        UplinkTally[] tally = new UplinkTally[1];
        CheckedRun run = CheckedRun.of(twoFlows(l0s1Down), dir, r -> tally[0] = program(r));
        PolicyTable table = run.prepared().network().switchAt(run.prepared().topology().nodeByName("l0")).policyTable();

        assertThat(run.result().flowsFinished()).isEqualTo(2);
        assertThat(run.result().counters().linkLoss()).as("nothing was sent onto the dead link").isZero();
        assertThat(tally[0].class3OnS1).isZero();
        assertThat(tally[0].class3OnS0).isGreaterThanOrEqualTo(256);
        assertThat(table.fallbacks()).as("the low source ports fell back").isPositive();
        assertThat(table.hits() + table.fallbacks()).isEqualTo(tally[0].class3OnS0);
    }
}
