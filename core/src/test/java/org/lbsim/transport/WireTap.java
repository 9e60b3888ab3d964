package org.lbsim.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lbsim.net.Packet;
import org.lbsim.net.PacketSource;
import org.lbsim.sim.PreparedRun;

/**
 * A test observer between every host stack and its NIC: counts how often each queue pair put each
 * data PSN on the wire, and records every NACK that reached a sender together with the highest PSN
 * that sender had sent by then. It only watches; packets pass through unchanged. Attach it through
 * {@code CheckedRun.of(scenario, dir, run -> tap[0] = WireTap.attach(run))} so invariants are still checked.
 */
final class WireTap {
    /** A NACK carrying {@code epsn} reached the sender of {@code qp}, which had sent PSNs up to {@code highestSentBefore}. */
    record NackArrival(int qp, int epsn, long atPs, int highestSentBefore) {
    }

    private int[][] sends;
    private long[][] firstSentPs;
    private long[][] lastSentPs;
    private final int[] highestSent;
    private final List<NackArrival> nacks = new ArrayList<>();

    private WireTap(int qps) {
        sends = new int[qps][];
        firstSentPs = new long[qps][];
        lastSentPs = new long[qps][];
        highestSent = new int[qps];
        Arrays.fill(highestSent, -1);
        for (int q = 0; q < qps; q++) {
            sends[q] = new int[64];
            firstSentPs[q] = new long[64];
            lastSentPs[q] = new long[64];
        }
    }

    static WireTap attach(PreparedRun run) {
        Transport transport = run.transport();
        WireTap tap = new WireTap(transport.flowCount());
        for (int h = 0; h < run.topology().hostCount(); h++) {
            HostStack stack = transport.stack(h);
            run.network().nic(h).attach(new PacketSource() {
                @Override
                public Packet poll(long nowPs) {
                    Packet p = stack.poll(nowPs);
                    if (p != null && p.kind == Packet.DATA) {
                        tap.sent(p.flow, p.psn, nowPs);
                    }
                    return p;
                }

                @Override
                public long nextReadyPs(long nowPs) {
                    return stack.nextReadyPs(nowPs);
                }

                @Override
                public void deliver(Packet p) {
                    if (p.kind == Packet.NACK) {
                        tap.nacks.add(new NackArrival(p.flow, p.psn, run.simulator().nowPs(), tap.highestSent[p.flow]));
                    }
                    stack.deliver(p); // the stack releases the packet: read it before
                }
            });
        }
        return tap;
    }

    private void sent(int qp, int psn, long nowPs) {
        if (psn >= sends[qp].length) {
            sends[qp] = Arrays.copyOf(sends[qp], Math.max(psn + 1, 2 * sends[qp].length));
            firstSentPs[qp] = Arrays.copyOf(firstSentPs[qp], sends[qp].length);
            lastSentPs[qp] = Arrays.copyOf(lastSentPs[qp], sends[qp].length);
        }
        lastSentPs[qp][psn] = nowPs;
        if (sends[qp][psn] == 0) {
            firstSentPs[qp][psn] = nowPs;
        }
        sends[qp][psn]++;
        highestSent[qp] = Math.max(highestSent[qp], psn);
    }

    /** Times queue pair {@code qp} put data PSN {@code psn} on the wire. */
    int sends(int qp, int psn) {
        return psn < sends[qp].length ? sends[qp][psn] : 0;
    }

    /** When queue pair {@code qp} first put data PSN {@code psn} on the wire, or -1 if it never did. */
    long firstSentPs(int qp, int psn) {
        return sends(qp, psn) > 0 ? firstSentPs[qp][psn] : -1;
    }

    /** When queue pair {@code qp} last put data PSN {@code psn} on the wire, or -1 if it never did. */
    long lastSentPs(int qp, int psn) {
        return sends(qp, psn) > 0 ? lastSentPs[qp][psn] : -1;
    }

    /** Data packets of {@code qp} that went on the wire more than once, counted once per extra copy. */
    long resends(int qp) {
        long n = 0;
        for (int c : sends[qp]) {
            n += Math.max(0, c - 1);
        }
        return n;
    }

    /** Every NACK that reached a sender, in arrival order. */
    List<NackArrival> nacks() {
        return nacks;
    }

    List<NackArrival> nacksOf(int qp) {
        return nacks.stream().filter(n -> n.qp() == qp).toList();
    }
}
