package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A recycled packet must come back from {@link PacketPool#acquire} exactly as a fresh one: schemes read
 * every public field and rely on the defaults (0, false, {@code pathId} -1, {@code ingressPort} -1): a
 * field added to {@link Packet} (or to a superclass, should one hold some of them for cache locality)
 * and forgotten in {@code acquire} would leak a previous packet's value into the next.
 */
class PacketPoolTest {

    private static List<Field> instanceFields() {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = Packet.class; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    /** Writes a random non-default value into every field (a reference field gets another packet). */
    private static void scribble(Packet p, Packet other, SplittableRandom r) throws IllegalAccessException {
        for (Field f : instanceFields()) {
            if (Modifier.isFinal(f.getModifiers())) {
                continue;
            }
            Class<?> t = f.getType();
            if (t == long.class) {
                f.setLong(p, r.nextLong(1, Long.MAX_VALUE));
            } else if (t == int.class) {
                f.setInt(p, r.nextInt(1, Integer.MAX_VALUE));
            } else if (t == byte.class) {
                f.setByte(p, (byte) r.nextInt(1, 128));
            } else if (t == boolean.class) {
                f.setBoolean(p, true);
            } else if (t == Packet.class) {
                f.set(p, other);
            } else {
                throw new AssertionError("a Packet field of a type this test does not know: " + f);
            }
        }
    }

    /** Every field's value but the pool identity ({@code poolId}, final: the one field a packet keeps). */
    private static List<Object> values(Packet p) throws IllegalAccessException {
        List<Object> v = new ArrayList<>();
        for (Field f : instanceFields()) {
            if (Modifier.isFinal(f.getModifiers())) {
                continue;
            }
            v.add(f.getName() + "=" + f.get(p));
        }
        return v;
    }

    @Test
    void recycledPacketsComeBackAsFreshOnes() throws IllegalAccessException {
        PacketPool pool = new PacketPool();
        Packet fresh = pool.acquire();
        List<Object> freshValues = values(fresh);
        assertThat(freshValues).contains("pathId=-1", "ingressPort=-1", "next=null", "kind=" + Packet.DATA);
        SplittableRandom r = new SplittableRandom(21);
        for (int round = 0; round < 20; round++) {
            Packet a = pool.acquire();
            Packet b = pool.acquire();
            scribble(a, b, r);
            scribble(b, a, r);
            pool.release(a);
            pool.release(b);
            Packet again = pool.acquire();
            assertThat(again).isIn(a, b);
            assertThat(values(again)).isEqualTo(freshValues);
            pool.release(again);
        }
        assertThat(pool.outstanding()).isEqualTo(1); // the first, never released
    }

    /** Only a packet the pool had none free for is created, numbered in order of creation; recycled ones add none. */
    @Test
    void freshPacketsAreNumberedInOrderAndRecycledOnesAddNone() {
        PacketPool pool = new PacketPool();
        Packet a = pool.acquire();
        Packet b = pool.acquire();
        Packet c = pool.acquire();
        assertThat(List.of(a.poolId, b.poolId, c.poolId)).containsExactly(0, 1, 2);
        assertThat(pool.created()).isEqualTo(3);
        pool.release(b);
        pool.release(a);
        assertThat(pool.acquire()).isSameAs(a);
        assertThat(pool.acquire()).isSameAs(b);
        assertThat(pool.created()).as("both came back from the free list").isEqualTo(3);
        assertThat(pool.acquire().poolId).isEqualTo(3);
        assertThat(pool.created()).isEqualTo(4);
        assertThat(pool.acquired()).isEqualTo(6);
        assertThat(pool.outstanding()).isEqualTo(4);
    }

    @Test
    void onlyADataPacketIsData() {
        Packet p = new PacketPool().acquire();
        assertThat(p.isData()).as("a fresh packet is data").isTrue();
        for (byte kind : new byte[] {Packet.ACK, Packet.NACK, Packet.CNP, Packet.FIRST_SCHEME_KIND, Byte.MAX_VALUE}) {
            p.kind = kind;
            assertThat(p.isData()).as("kind " + kind).isFalse();
        }
    }
}
