package org.lbsim.spi;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.net.Packet;

/**
 * The packet kinds of one run: the four built in ({@link Packet#DATA}, {@link Packet#ACK},
 * {@link Packet#NACK}, {@link Packet#CNP}, with those byte values) and the ones schemes register
 * (a notification, a probe, a probe reply...), each with the handler its destination host calls.
 * The host stack handles the built-in kinds itself and looks every other kind up here.
 */
public final class PacketKinds {
    /** What a host does with a packet of a scheme's kind that reached it; the stack releases the packet afterwards. */
    @FunctionalInterface
    public interface Handler {
        void onPacket(Packet p, QueuePairs qps, long nowPs);
    }

    /** Hands the packet to the receiver policy of its queue pair (a packet going the data's way, e.g. a notification). */
    public static final Handler TO_RECEIVER = (p, qps, nowPs) -> qps.receiverOf(p.flow).onSchemePacket(p, nowPs);
    /** Hands the packet to the sender hooks of its queue pair (a packet going the ACKs' way, e.g. a probe reply). */
    public static final Handler TO_SENDER = (p, qps, nowPs) -> qps.senderOf(p.flow).onSchemePacket(p, nowPs);

    private final List<String> names = new ArrayList<>(List.of("DATA", "ACK", "NACK", "CNP"));
    private final List<Handler> handlers = new ArrayList<>();
    private Handler[] byKind = new Handler[0];

    /** Registers a kind and returns its id (4, 5, ... in registration order). Names are unique within a run. */
    public byte register(String name, Handler handler) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("packet kind '" + name + "' is already registered");
        }
        if (names.size() > Byte.MAX_VALUE) {
            throw new IllegalStateException("no packet kind id left for '" + name + "'");
        }
        names.add(name);
        handlers.add(handler);
        byKind = handlers.toArray(new Handler[0]);
        return (byte) (names.size() - 1);
    }

    /** The name of a kind id, e.g. "ACK" or a scheme's "NOTIFY". */
    public String name(int kind) {
        return kind >= 0 && kind < names.size() ? names.get(kind) : "unregistered kind " + kind;
    }

    /** Number of kinds, built-in ones included. */
    public int count() {
        return names.size();
    }

    /** Hands a packet of a scheme's kind that reached its destination host to the kind's handler. */
    public void deliver(Packet p, QueuePairs qps, long nowPs) {
        int i = p.kind - Packet.FIRST_SCHEME_KIND;
        if (i < 0 || i >= byKind.length) {
            throw new IllegalStateException("packet of " + name(p.kind) + " reached host " + p.dst + " and nothing handles it");
        }
        byKind[i].onPacket(p, qps, nowPs);
    }
}
