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

    Fib(int hostCount, int firstSwitch, int[] groupOf, int[] groupStart, int[] groupPorts) {
        this.hostCount = hostCount;
        this.firstSwitch = firstSwitch;
        this.groupOf = groupOf;
        this.groupStart = groupStart;
        this.groupPorts = groupPorts;
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
