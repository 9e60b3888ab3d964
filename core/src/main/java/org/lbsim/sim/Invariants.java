package org.lbsim.sim;

import java.util.ArrayList;
import java.util.List;
import org.lbsim.net.BufferModel;
import org.lbsim.net.EgressPort;
import org.lbsim.net.Network;
import org.lbsim.topology.Topology;
import org.lbsim.transport.Transport;

/**
 * Conservation and safety checks over a finished (or paused) run: every packet ever made is
 * delivered, dropped, or still somewhere in the fabric; no queue is negative or above its buffer.
 */
public final class Invariants {
    private Invariants() {
    }

    /** All violations found; empty when the run is sound. */
    public static List<String> violations(PreparedRun run) {
        List<String> out = new ArrayList<>();
        Network net = run.network();
        Topology t = run.topology();
        Transport tr = run.transport();
        long inFabric = net.inFlight();
        long made = net.injected() + net.originated();
        long accounted = net.delivered() + net.totalDropped() + net.totalConsumed() + inFabric + net.held();
        if (made != accounted) {
            out.add("packets not conserved: injected " + net.injected() + " + originated by switches " + net.originated()
                    + " != delivered " + net.delivered() + " + dropped " + net.totalDropped() + " + consumed by switches "
                    + net.totalConsumed() + " + in flight " + inFabric + " + held by switches " + net.held());
        }
        long waitingAtHosts = 0;
        for (int h = 0; h < t.hostCount(); h++) {
            waitingAtHosts += tr.stack(h).controlBacklog();
        }
        for (int q = 0; q < tr.flowCount(); q++) {
            var sender = tr.senderOf(q); // null before a dependent queue pair starts and once it is released
            waitingAtHosts += sender == null ? 0 : sender.extrasQueued(); // packets a scheme injected, not yet sent
        }
        long outstanding = net.pool().outstanding();
        if (outstanding != inFabric + net.held() + waitingAtHosts) {
            out.add("packet pool leak: " + outstanding + " packets out of the pool, but " + inFabric + " in the fabric, "
                    + net.held() + " held by switches and " + waitingAtHosts + " waiting at hosts");
        }
        if (net.originated() == 0) {
            // every packet out of the pool was made by a queue pair, which counts its own until delivered or lost
            long counted = 0;
            for (int q = 0; q < tr.flowCount(); q++) {
                int n = tr.outstandingPackets(q);
                if (n < 0) {
                    out.add("queue pair " + q + " has " + n + " packets outstanding");
                }
                counted += n;
            }
            if (counted != outstanding) {
                out.add("queue pairs count " + counted + " packets of theirs outstanding, the pool " + outstanding);
            }
        }
        for (int p = 0; p < t.portCount(); p++) {
            EgressPort e = net.egress(p);
            if (e == null) {
                continue;
            }
            if (e.queueBytes() < 0) {
                out.add("negative queue at port " + p + " of " + t.nodeName(t.portOwner(p)) + ": " + e.queueBytes());
            }
            BufferModel b = net.buffer(t.portOwner(p));
            if (!net.lossless() && e.maxQueueBytes() > b.portLimitBytes()) {
                out.add("queue above buffer at port " + p + " of " + t.nodeName(t.portOwner(p)) + ": " + e.maxQueueBytes()
                        + " > " + b.portLimitBytes());
            }
        }
        if (net.lossless()) {
            long congestionDrops = 0;
            for (int code = 0; code < 16; code++) {
                congestionDrops += net.dropsInLayer(code);
            }
            if (congestionDrops > 0) {
                out.add("lossless fabric dropped " + congestionDrops + " packets at switch buffers (PFC headroom too small?)");
            }
        }
        for (int s = t.hostCount(); s < t.nodeCount(); s++) {
            org.lbsim.net.PfcIngress pfc = net.pfc(s);
            if (pfc != null && pfc.overflowDrops() > 0) {
                out.add("lossless switch " + t.nodeName(s) + " refused " + pfc.overflowDrops() + " frames (headroom or shared memory exhausted)");
            }
            BufferModel b = net.buffer(s);
            if (b.isShared() && b.maxSharedUsedBytes() > b.sharedTotalBytes()) {
                out.add("shared buffer of " + t.nodeName(s) + " peaked at " + b.maxSharedUsedBytes() + " > " + b.sharedTotalBytes());
            }
            if (b.isShared() && (b.sharedUsedBytes() < 0 || b.sharedUsedBytes() > b.sharedTotalBytes())) {
                out.add("shared buffer of " + t.nodeName(s) + " out of range: " + b.sharedUsedBytes());
            }
        }
        return out;
    }

    /** Throws IllegalStateException listing every violation. */
    public static void check(PreparedRun run) {
        List<String> v = violations(run);
        if (!v.isEmpty()) {
            throw new IllegalStateException("invariants violated:\n  " + String.join("\n  ", v));
        }
    }
}
