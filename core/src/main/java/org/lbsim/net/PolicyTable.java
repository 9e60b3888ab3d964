package org.lbsim.net;

import java.util.List;
import org.lbsim.topology.Fib;

/**
 * A switch's ACL / policy-based-routing table (CTCCL 3.2: DSCP class + UDP source-port range ->
 * uplink; PRO IV: PathID bits of the source port -> egress port). Rules are tried in order and the
 * first that matches decides: its ports are a preference list, and the first one whose link is up
 * and that still leads to the destination (is in the FIB group) is taken. When none is usable the
 * packet falls back to the FIB group and its selector (PRO IV: "a new ACL entry with AR as the
 * forward action" for a port that left the ECMP group). The UDP source port is the packet's
 * {@code entropy} (its low 16 bits).
 */
public final class PolicyTable {
    public static final PolicyTable EMPTY = new PolicyTable(List.of());

    /**
     * One match-action rule; -1 in a match field means any.
     *
     * @param trafficClass DSCP class to match, or -1
     * @param sportLow     lowest UDP source port matched (inclusive)
     * @param sportHigh    highest UDP source port matched (inclusive)
     * @param sportMask    ternary match: bits of the source port that must equal {@code sportValue} (0 = none)
     * @param sportValue   the value of the masked bits
     * @param dstLow       lowest destination host matched (a ToR's hosts or any prefix as a range)
     * @param dstHigh      highest destination host matched
     * @param ingressPort  global port id the packet must have entered on, or -1
     * @param ports        egress ports (global ids of this switch) in order of preference
     */
    public record Rule(int trafficClass, int sportLow, int sportHigh, int sportMask, int sportValue, int dstLow, int dstHigh,
                       int ingressPort, int[] ports) {
        public Rule {
            ports = ports.clone();
            if (ports.length == 0) {
                throw new IllegalArgumentException("a policy rule needs at least one egress port");
            }
        }

        /** Matches {@code trafficClass} (or any with -1) and a source-port range, to any destination. */
        public static Rule classAndPorts(int trafficClass, int sportLow, int sportHigh, int... ports) {
            return new Rule(trafficClass, sportLow, sportHigh, 0, 0, 0, Integer.MAX_VALUE, -1, ports);
        }

        /** Matches source ports whose masked bits equal {@code value} (PRO's PathID fields), to any destination. */
        public static Rule sportBits(int mask, int value, int... ports) {
            return new Rule(-1, 0, 0xFFFF, mask, value, 0, Integer.MAX_VALUE, -1, ports);
        }

        boolean matches(Packet p) {
            int sport = p.entropy & 0xFFFF;
            return (trafficClass < 0 || p.trafficClass == trafficClass)
                    && sport >= sportLow && sport <= sportHigh
                    && (sport & sportMask) == sportValue
                    && p.dst >= dstLow && p.dst <= dstHigh
                    && (ingressPort < 0 || p.ingressPort == ingressPort);
        }
    }

    private final Rule[] rules;
    private long hits;
    private long fallbacks;

    public PolicyTable(List<Rule> rules) {
        this.rules = rules.toArray(new Rule[0]);
    }

    /**
     * The egress port the table sends {@code p} to, or -1 to leave it to the FIB group and the selector
     * (no rule matched, or none of the matching rule's ports is usable).
     */
    int portFor(Packet p, Fib fib, int group, Network network) {
        if (rules.length == 0) {
            return -1;
        }
        for (Rule r : rules) {
            if (r.matches(p)) {
                for (int port : r.ports) {
                    if (!network.link(port).isDown() && inGroup(fib, group, port)) {
                        hits++;
                        return port;
                    }
                }
                fallbacks++;
                return -1;
            }
        }
        return -1;
    }

    private static boolean inGroup(Fib fib, int group, int port) {
        int[] ports = fib.groupPorts();
        int end = fib.groupOffset(group) + fib.groupSize(group);
        for (int i = fib.groupOffset(group); i < end; i++) {
            if (ports[i] == port) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return rules.length;
    }

    /** Packets a rule sent to one of its ports. */
    public long hits() {
        return hits;
    }

    /** Packets that matched a rule none of whose ports was usable, and went to the FIB group instead. */
    public long fallbacks() {
        return fallbacks;
    }
}
