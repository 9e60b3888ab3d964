package org.lbsim.topology;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds the (switch, destination host) -> group table of a {@link Fib} without storing one entry per
 * pair. Destinations whose routes agree at every switch except the ones they are attached to (on a
 * fat tree: the hosts of one ToR) share a column, a destination <em>class</em>; the entries at a
 * destination's own attached switches (the last hop, a different down port per host) are kept per
 * host. Classes come from comparing the columns themselves, not from the topology's shape, so
 * every host-specific route stays exact: a failed access link, static routes of a custom graph, a
 * multi-NIC server, each simply gives its host a class of its own where its column differs.
 *
 * <p>At k = 32 (8,192 hosts, 1,280 switches) the table is 1,280 x 512 ToR classes (2.6 MB) instead
 * of 1,280 x 8,192 (42 MB), so a switch's row of lookups stays in cache.
 *
 * <p>Columns arrive one destination at a time, in order; {@link #add} copies what it keeps.
 */
final class RouteTable {
    private final int switches;
    private final int firstSwitch;
    private final int[] classOf;
    private final int[] hostStart; // host -> offset in hostGroups, length hosts + 1
    private int[] hostGroups = new int[64];
    private int hostGroupsUsed;
    /** Columns of the classes, class-major while building: class c's column is cols[c * switches ..]. */
    private int[] cols;
    private int classes;
    /** Column hash -> first class with that hash; nextSameHash chains the others. */
    private final Map<Integer, Integer> firstByHash = new HashMap<>();
    private int[] nextSameHash = new int[16];
    private final int[] key;
    private int added;

    RouteTable(int switches, int hosts, int firstSwitch) {
        this.switches = switches;
        this.firstSwitch = firstSwitch;
        this.classOf = new int[hosts];
        this.hostStart = new int[hosts + 1];
        this.cols = new int[Math.max(1, switches) * 16];
        this.key = new int[switches];
    }

    /**
     * The column of destination {@code dst} (the next one in order): {@code column[s - firstSwitch]}
     * is the group of switch s; {@code attached[0 .. attachedCount)} are the switches {@code dst} is
     * attached to, distinct.
     */
    void add(int dst, int[] column, int[] attached, int attachedCount) {
        if (dst != added) {
            throw new IllegalStateException("destinations must be added in order: expected " + added + ", got " + dst);
        }
        added++;
        System.arraycopy(column, 0, key, 0, switches);
        hostStart[dst] = hostGroupsUsed;
        if (hostGroupsUsed + attachedCount > hostGroups.length) {
            hostGroups = Arrays.copyOf(hostGroups, Math.max(hostGroups.length * 2, hostGroupsUsed + attachedCount));
        }
        for (int slot = 0; slot < attachedCount; slot++) {
            int s = attached[slot] - firstSwitch;
            hostGroups[hostGroupsUsed++] = column[s];
            key[s] = -1 - slot; // looked up per host: Fib.group reads hostGroups[hostStart[dst] + slot]
        }
        hostStart[dst + 1] = hostGroupsUsed;
        int hash = Arrays.hashCode(key);
        Integer first = firstByHash.get(hash);
        for (int c = first == null ? -1 : first; c >= 0; c = nextSameHash[c]) {
            if (Arrays.equals(cols, c * switches, (c + 1) * switches, key, 0, switches)) {
                classOf[dst] = c;
                return;
            }
        }
        int c = classes++;
        if ((long) classes * switches > cols.length) {
            cols = Arrays.copyOf(cols, Math.max(cols.length * 2, classes * switches));
        }
        if (classes > nextSameHash.length) {
            nextSameHash = Arrays.copyOf(nextSameHash, nextSameHash.length * 2);
        }
        System.arraycopy(key, 0, cols, c * switches, switches);
        nextSameHash[c] = first == null ? -1 : first;
        firstByHash.put(hash, c);
        classOf[dst] = c;
    }

    int classCount() {
        return classes;
    }

    /** Host -> its destination class. */
    int[] classOf() {
        return classOf;
    }

    /** Host -> offset of its attached switches' groups in {@link #hostGroups()}; length hosts + 1. */
    int[] hostStart() {
        return hostStart;
    }

    int[] hostGroups() {
        return Arrays.copyOf(hostGroups, hostGroupsUsed);
    }

    /**
     * The table switch-major, {@code [(s - firstSwitch) * classCount + class]}, so that one switch's
     * lookups share a row; a negative entry {@code -1 - slot} means "the destination's own group at
     * its attached switch number {@code slot}".
     */
    int[] switchMajor() {
        int[] t = new int[switches * classes];
        for (int c = 0; c < classes; c++) {
            for (int s = 0; s < switches; s++) {
                t[s * classes + c] = cols[c * switches + s];
            }
        }
        return t;
    }
}
