package org.lbsim.net;

/** A FIFO of packets (no allocation) threaded through {@link Packet#next}. */
public final class PacketQueue {
    private Packet head;
    private Packet tail;
    private int count;

    public boolean isEmpty() {
        return head == null;
    }

    public int size() {
        return count;
    }

    public Packet peek() {
        return head;
    }

    public void add(Packet p) {
        p.next = null;
        if (tail == null) {
            head = tail = p;
        } else {
            tail.next = p;
            tail = p;
        }
        count++;
    }

    public Packet poll() {
        Packet p = head;
        if (p != null) {
            head = p.next;
            if (head == null) {
                tail = null;
            }
            p.next = null;
            count--;
        }
        return p;
    }
}
