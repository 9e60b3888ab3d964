package org.lbsim.topology;

/**
 * Forwarding tables of every switch: for each (switch, destination host) the group of egress
 * ports on shortest valley-free paths, with their W-ECMP weights. Groups are deduplicated per
 * switch (same ports and same weights) and stored flat. The table is stored per destination class
 * (hosts routed alike, on a fat tree the hosts of one ToR; see {@link RouteTable}) plus each host's
 * own last hop, so a lookup is two or three reads of small arrays. An empty group means the
 * destination is unreachable.
 *
 * <p>W-ECMP (OFAN 5.2, App. F.4): the weight of a port is the number of shortest paths from its
 * next hop to the destination, divided by the greatest common divisor over the group. On a
 * healthy fat tree or leaf-spine every weight is 1; once routing has converged around failed
 * links, the ports leading to fewer surviving paths weigh less. Each group also has a member
 * table in which every candidate appears as many times as its weight (in interleaved weighted
 * round-robin order), which is how a switch ASIC realizes W-ECMP and what the schemes draw from.
 */
public final class Fib {
    /** Largest sum of weights of a group; larger ones are scaled down proportionally (never below 1). */
    public static final int MAX_TOTAL_WEIGHT = 4096;

    private final int firstSwitch;
    private final int classCount;
    private final int[] classOf; // dst -> its destination class (RouteTable)
    private final int[] groupOf; // (switch - firstSwitch) * classCount + class -> group id, or -1 - slot: see hostGroups
    private final int[] hostStart; // dst -> offset in hostGroups
    private final int[] hostGroups; // the groups of each destination's own attached switches (its last hop)
    private final int[] groupStart; // group -> offset in groupPorts, length groups + 1
    private final int[] groupPorts; // global port ids
    private final int[] groupWeight; // parallel to groupPorts: W-ECMP weight, >= 1
    private final int[] memberStart; // group -> offset in members, length groups + 1
    private final int[] members; // candidate indices (0 .. size-1), each repeated by its weight
    private final int[] groupLocal; // group -> its index among its switch's groups
    private final int[] groupsPerSwitch;

    Fib(int firstSwitch, int classCount, int[] classOf, int[] groupOf, int[] hostStart, int[] hostGroups, int[] groupStart,
            int[] groupPorts, int[] groupWeight, int[] groupLocal, int[] groupsPerSwitch) {
        this.firstSwitch = firstSwitch;
        this.classCount = classCount;
        this.classOf = classOf;
        this.groupOf = groupOf;
        this.hostStart = hostStart;
        this.hostGroups = hostGroups;
        this.groupStart = groupStart;
        this.groupPorts = groupPorts;
        this.groupWeight = groupWeight;
        this.groupLocal = groupLocal;
        this.groupsPerSwitch = groupsPerSwitch;
        int groups = groupStart.length - 1;
        this.memberStart = new int[groups + 1];
        for (int g = 0; g < groups; g++) {
            int total = 0;
            for (int i = groupStart[g]; i < groupStart[g + 1]; i++) {
                total += groupWeight[i];
            }
            memberStart[g + 1] = memberStart[g] + total;
        }
        this.members = new int[memberStart[groups]];
        int[] identity = new int[0];
        int[] schedule = new int[0];
        for (int g = 0; g < groups; g++) {
            int size = groupSize(g);
            if (identity.length < size) {
                identity = new int[size];
            }
            for (int i = 0; i < size; i++) {
                identity[i] = i;
            }
            if (schedule.length < totalWeight(g)) {
                schedule = new int[totalWeight(g)];
            }
            iwrr(g, identity, schedule);
            System.arraycopy(schedule, 0, members, memberStart[g], totalWeight(g));
        }
    }

    /** Index of a group among the groups of the switch that owns it, from 0: for per-switch state arrays. */
    public int localGroup(int group) {
        return groupLocal[group];
    }

    /** Number of distinct port groups of a switch. */
    public int groupsAt(int switchNode) {
        return groupsPerSwitch[switchNode - firstSwitch];
    }

    /** The group of switch {@code switchNode} towards host {@code dstHost}. */
    public int group(int switchNode, int dstHost) {
        int g = groupOf[(switchNode - firstSwitch) * classCount + classOf[dstHost]];
        return g >= 0 ? g : hostGroups[hostStart[dstHost] - 1 - g];
    }

    /**
     * Number of destination classes: sets of hosts that every switch not attached to them routes
     * alike (on a healthy fat tree, the hosts of one ToR); the table holds one entry per (switch, class).
     */
    public int destinationClasses() {
        return classCount;
    }

    public int groupCount() {
        return groupStart.length - 1;
    }

    public int groupOffset(int group) {
        return groupStart[group];
    }

    public int groupSize(int group) {
        return groupStart[group + 1] - groupStart[group];
    }

    /** The flat port array that {@link #groupOffset} indexes; read-only by convention. */
    public int[] groupPorts() {
        return groupPorts;
    }

    public int port(int group, int i) {
        return groupPorts[groupStart[group] + i];
    }

    /** W-ECMP weight (gcd-reduced, >= 1) of the {@code i}-th candidate of a group. */
    public int weight(int group, int i) {
        return groupWeight[groupStart[group] + i];
    }

    /** Sum of the weights of a group: the length of its member table; equals its size when the weights are equal. */
    public int totalWeight(int group) {
        return memberStart[group + 1] - memberStart[group];
    }

    /** Whether every candidate of the group has weight 1 (always so on a healthy symmetric fabric). */
    public boolean uniform(int group) {
        return totalWeight(group) == groupSize(group);
    }

    /**
     * The candidate index at position {@code j} (0 .. totalWeight - 1) of the group's member table, in
     * which candidate i appears weight(i) times; with equal weights, member j is candidate j.
     */
    public int member(int group, int j) {
        return members[memberStart[group] + j];
    }

    /**
     * Interleaved weighted round robin (OFAN App. F.4, after Tabatabaee et al.): round r = 1, 2, ... lists,
     * in the given traversal order, every candidate whose weight is at least r. Writes
     * {@link #totalWeight} candidate indices into {@code into}; {@code order} holds the group's candidate
     * indices 0 .. size-1 in the traversal order. With equal weights the schedule is the order itself.
     */
    public void iwrr(int group, int[] order, int[] into) {
        int size = groupSize(group);
        int max = 0;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, weight(group, i));
        }
        int n = 0;
        for (int round = 1; round <= max; round++) {
            for (int i = 0; i < size; i++) {
                if (weight(group, order[i]) >= round) {
                    into[n++] = order[i];
                }
            }
        }
    }
}
