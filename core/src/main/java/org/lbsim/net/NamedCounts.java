package org.lbsim.net;

import java.util.Arrays;
import java.util.List;

/**
 * Counts under names registered once, at build time, each split into slots (a slot per port, so that
 * each is written by one partition only, or a single one); counting allocates nothing.
 */
final class NamedCounts {
    private final int slotCount;
    private String[] names = new String[0];
    /** By id, then slot. */
    private long[][] slots = new long[0][];

    NamedCounts(int slotCount) {
        this.slotCount = slotCount;
    }

    /** The id of {@code name}, registered now unless it already is. */
    int register(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        names = Arrays.copyOf(names, names.length + 1);
        slots = Arrays.copyOf(slots, slots.length + 1);
        names[names.length - 1] = name;
        slots[slots.length - 1] = new long[slotCount];
        return names.length - 1;
    }

    void add(int id, int slot, long n) {
        slots[id][slot] += n;
    }

    /** The registered names, by id. */
    List<String> names() {
        return List.of(names);
    }

    /** Count {@code id}, summed over its slots. */
    long total(int id) {
        long n = 0;
        for (long c : slots[id]) {
            n += c;
        }
        return n;
    }

    /** Every count, summed. */
    long totalOfAll() {
        long n = 0;
        for (int id = 0; id < slots.length; id++) {
            n += total(id);
        }
        return n;
    }
}
