package org.lbsim.topology;

/**
 * Forwarding tables of every switch: for each (switch, destination host) the group of egress
 * ports on shortest valley-free paths. Groups are deduplicated per switch and stored flat, so a
 * lookup is two array reads. An empty group means the destination is unreachable.
 */
public final class Fib {
    private final int hostCount;
    private final int firstSwitch;
    private final int[] groupOf; // (switch - firstSwitch) * hostCount + dst -> group id
    private final int[] groupStart; // group -> offset in groupPorts, length groups + 1
    private final int[] groupPorts; // global port ids
    private final int[] groupLocal; // group -> its index among its switch's groups
    private final int[] groupsPerSwitch;

    Fib(int hostCount, int firstSwitch, int[] groupOf, int[] groupStart, int[] groupPorts, int[] groupLocal, int[] groupsPerSwitch) {
        this.hostCount = hostCount;
        this.firstSwitch = firstSwitch;
        this.groupOf = groupOf;
        this.groupStart = groupStart;
        this.groupPorts = groupPorts;
        this.groupLocal = groupLocal;
        this.groupsPerSwitch = groupsPerSwitch;
    }

    /** Index of a group among the groups of the switch that owns it, from 0: for per-switch state arrays. */
    public int localGroup(int group) {
        return groupLocal[group];
    }

    /** Number of distinct port groups of a switch. */
    public int groupsAt(int switchNode) {
        return groupsPerSwitch[switchNode - firstSwitch];
    }

    public int group(int switchNode, int dstHost) {
        return groupOf[(switchNode - firstSwitch) * hostCount + dstHost];
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
}
