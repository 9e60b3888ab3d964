package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lbsim.topology.Fib;

/**
 * {@link PolicyTable#portFor} at leaf l0 of {@link SmallFabric}: its group towards h2 and h3 holds the
 * uplinks to s0 and s1; towards h1 only the port down to h1. Each match field is probed at both ends
 * of its range and one step outside.
 */
class PolicyTableRulesTest {
    private final SmallFabric f = new SmallFabric(0);
    private final int l0 = f.node("l0");
    private final int toS0 = f.port("l0", "s0");
    private final int toS1 = f.port("l0", "s1");
    private final int toH1 = f.port("l0", "h1");

    private Packet packet(int dst, int trafficClass, int entropy, int ingressPort) {
        Packet p = f.frame(0, dst, 0, 1000, entropy);
        p.trafficClass = (byte) trafficClass;
        p.ingressPort = ingressPort;
        return p;
    }

    private int portFor(PolicyTable table, Packet p) {
        Fib fib = f.net.fib();
        return table.portFor(p, fib, fib.group(l0, p.dst), f.net);
    }

    private static PolicyTable one(PolicyTable.Rule rule) {
        return new PolicyTable(List.of(rule));
    }

    @Test
    void theSourcePortRangeIsInclusiveAtBothEndsAndIsTheLow16BitsOfTheEntropy() {
        PolicyTable t = one(PolicyTable.Rule.classAndPorts(-1, 100, 200, toS1));
        assertThat(portFor(t, packet(2, 0, 99, -1))).isEqualTo(-1);
        assertThat(portFor(t, packet(2, 0, 100, -1))).isEqualTo(toS1);
        assertThat(portFor(t, packet(2, 0, 200, -1))).isEqualTo(toS1);
        assertThat(portFor(t, packet(2, 0, 201, -1))).isEqualTo(-1);
        assertThat(portFor(t, packet(2, 0, 0x3_0000 + 150, -1))).as("bits above 16 are not the source port").isEqualTo(toS1);
        assertThat(t.hits()).isEqualTo(3);
        assertThat(t.fallbacks()).isZero();
        assertThat(t.size()).isEqualTo(1);
    }

    @Test
    void aTrafficClassMatchesOnlyThatClassAndMinusOneMatchesEvery() {
        PolicyTable three = one(PolicyTable.Rule.classAndPorts(3, 0, 0xFFFF, toS1));
        assertThat(portFor(three, packet(2, 3, 5, -1))).isEqualTo(toS1);
        assertThat(portFor(three, packet(2, 2, 5, -1))).isEqualTo(-1);
        assertThat(portFor(three, packet(2, 4, 5, -1))).isEqualTo(-1);
        assertThat(portFor(three, packet(2, 0, 5, -1))).isEqualTo(-1);
        PolicyTable zero = one(PolicyTable.Rule.classAndPorts(0, 0, 0xFFFF, toS1));
        assertThat(portFor(zero, packet(2, 0, 5, -1))).as("class 0 is a class, not 'any'").isEqualTo(toS1);
        assertThat(portFor(zero, packet(2, 1, 5, -1))).isEqualTo(-1);
        PolicyTable any = one(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS1));
        for (int c : new int[] {0, 1, 63}) {
            assertThat(portFor(any, packet(2, c, 5, -1))).isEqualTo(toS1);
        }
    }

    @Test
    void theMaskedSourcePortBitsMustEqualTheValue() {
        PolicyTable t = one(PolicyTable.Rule.sportBits(0b1100, 0b0100, toS0));
        assertThat(portFor(t, packet(2, 0, 0b0100, -1))).isEqualTo(toS0);
        assertThat(portFor(t, packet(2, 0, 0b1_0111, -1))).as("bits outside the mask do not matter").isEqualTo(toS0);
        assertThat(portFor(t, packet(2, 0, 0b1100, -1))).isEqualTo(-1);
        assertThat(portFor(t, packet(2, 0, 0b0000, -1))).isEqualTo(-1);
        assertThat(portFor(t, packet(2, 0, 0xFFFF_0100 | 0b1000, -1))).isEqualTo(-1);
    }

    @Test
    void theDestinationRangeIsInclusiveAtBothEnds() {
        PolicyTable t = one(new PolicyTable.Rule(-1, 0, 0xFFFF, 0, 0, 2, 2, -1, new int[] {toS1}));
        assertThat(portFor(t, packet(2, 0, 1, -1))).isEqualTo(toS1);
        assertThat(portFor(t, packet(3, 0, 1, -1))).isEqualTo(-1);
        assertThat(portFor(t, packet(1, 0, 1, -1))).isEqualTo(-1);
        PolicyTable wide = one(new PolicyTable.Rule(-1, 0, 0xFFFF, 0, 0, 2, 3, -1, new int[] {toS1}));
        assertThat(portFor(wide, packet(2, 0, 1, -1))).isEqualTo(toS1);
        assertThat(portFor(wide, packet(3, 0, 1, -1))).isEqualTo(toS1);
    }

    @Test
    void anIngressPortMatchesOnlyPacketsThatEnteredThere() {
        int fromH0 = f.port("l0", "h0");
        int fromH1 = f.port("l0", "h1");
        PolicyTable t = one(new PolicyTable.Rule(-1, 0, 0xFFFF, 0, 0, 0, 3, fromH0, new int[] {toS1}));
        assertThat(portFor(t, packet(2, 0, 1, fromH0))).isEqualTo(toS1);
        assertThat(portFor(t, packet(2, 0, 1, fromH1))).isEqualTo(-1);
        assertThat(portFor(t, packet(2, 0, 1, -1))).isEqualTo(-1);
    }

    @Test
    void theFirstMatchingRuleDecidesAndItsFirstUsablePortIsTaken() {
        PolicyTable t = new PolicyTable(List.of(
                PolicyTable.Rule.classAndPorts(-1, 0, 9, toS0, toS1),
                PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS1, toS0)));
        assertThat(portFor(t, packet(2, 0, 5, -1))).isEqualTo(toS0);
        assertThat(portFor(t, packet(2, 0, 50, -1))).isEqualTo(toS1);
        f.net.setLinkDown(f.link("l0", "s0"), true);
        assertThat(portFor(t, packet(2, 0, 5, -1))).as("its first port's link is down: the next").isEqualTo(toS1);
        assertThat(portFor(t, packet(2, 0, 50, -1))).isEqualTo(toS1);
        assertThat(t.hits()).isEqualTo(4);
        assertThat(t.fallbacks()).isZero();
    }

    @Test
    void aMatchingRuleWithoutAUsablePortFallsBackWithoutTryingLaterRules() {
        PolicyTable t = new PolicyTable(List.of(
                PolicyTable.Rule.classAndPorts(-1, 0, 9, toS1),
                PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS0)));
        f.net.setLinkDown(f.link("l0", "s1"), true);
        assertThat(portFor(t, packet(2, 0, 5, -1))).isEqualTo(-1);
        assertThat(t.fallbacks()).isEqualTo(1);
        assertThat(t.hits()).isZero();
        f.net.restoreLink(f.link("l0", "s1"));
        assertThat(portFor(t, packet(2, 0, 5, -1))).isEqualTo(toS1);
        assertThat(t.hits()).isEqualTo(1);
        assertThat(t.fallbacks()).isEqualTo(1);
    }

    @Test
    void aPortOutsideTheDestinationsGroupIsSkipped() {
        // towards h1 the group is l0's port to h1 alone: the uplinks do not lead there
        PolicyTable t = one(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS0, toH1));
        assertThat(portFor(t, packet(1, 0, 5, -1))).isEqualTo(toH1);
        PolicyTable upOnly = one(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toS0, toS1));
        assertThat(portFor(upOnly, packet(1, 0, 5, -1))).isEqualTo(-1);
        assertThat(upOnly.fallbacks()).isEqualTo(1);
        // the last member of the uplink group counts as in it
        PolicyTable last = one(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, toH1, toS1));
        assertThat(portFor(last, packet(2, 0, 5, -1))).isEqualTo(toS1);
    }

    @Test
    void anEmptyTableLeavesEveryPacketToTheFib() {
        assertThat(portFor(PolicyTable.EMPTY, packet(2, 0, 5, -1))).isEqualTo(-1);
        assertThat(PolicyTable.EMPTY.size()).isZero();
        assertThat(PolicyTable.EMPTY.hits()).isZero();
        assertThat(PolicyTable.EMPTY.fallbacks()).isZero();
    }

    @Test
    void aRuleNeedsAPortAndKeepsItsOwnCopyOfThem() {
        assertThatThrownBy(() -> PolicyTable.Rule.classAndPorts(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        int[] ports = {toS0};
        PolicyTable t = one(PolicyTable.Rule.classAndPorts(-1, 0, 0xFFFF, ports));
        ports[0] = toS1;
        assertThat(portFor(t, packet(2, 0, 5, -1))).isEqualTo(toS0);
    }
}
