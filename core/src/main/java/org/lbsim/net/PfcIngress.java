package org.lbsim.net;

import org.lbsim.topology.Topology;

/**
 * PFC state of one switch: bytes held per ingress port, and whether each ingress has paused its
 * upstream sender. Crossing XOFF sends a PAUSE and dropping below XON a RESUME, each reaching the
 * upstream port one control frame and one propagation delay later.
 */
public final class PfcIngress {
    /** Size of a PFC control frame on the wire. */
    static final int PAUSE_FRAME_BYTES = 64;

    private final Network network;
    private final int firstPort;
    private final long[] bytes;
    private final boolean[] pausing;
    private final long xoffBytes;
    private final long xonBytes;
    private final double dynamicAlpha;
    private final long headroomBytes;
    private final BufferModel buffer;
    private long maxIngressBytes;
    private long overflowDrops;
    private long pausesSent;

    PfcIngress(Network network, Topology t, int node, BufferModel buffer, long xoffBytes, long xonBytes, double dynamicAlpha,
               long headroomBytes) {
        this.network = network;
        this.firstPort = t.firstPort(node);
        this.bytes = new long[t.degree(node)];
        this.pausing = new boolean[t.degree(node)];
        this.xoffBytes = xoffBytes;
        this.xonBytes = xonBytes;
        this.dynamicAlpha = dynamicAlpha;
        this.headroomBytes = headroomBytes;
        this.buffer = buffer;
    }

    private long xoff() {
        if (dynamicAlpha > 0) {
            return (long) (dynamicAlpha * (buffer.sharedTotalBytes() - buffer.sharedUsedBytes()));
        }
        return xoffBytes;
    }

    /** Whether a frame from this ingress fits within XOFF plus headroom (lossless admission). */
    boolean admit(int ingressPort, int size) {
        int i = ingressPort - firstPort;
        if (bytes[i] + size > Math.max(xoffBytes, xoff()) + headroomBytes) {
            overflowDrops++;
            return false;
        }
        return true;
    }

    void onAdmit(int ingressPort, int size) {
        int i = ingressPort - firstPort;
        bytes[i] += size;
        if (bytes[i] > maxIngressBytes) {
            maxIngressBytes = bytes[i];
        }
        if (!pausing[i] && bytes[i] > xoff()) {
            pausing[i] = true;
            pausesSent++;
            network.signalPause(ingressPort, true);
        }
    }

    void onRelease(int ingressPort, int size) {
        int i = ingressPort - firstPort;
        bytes[i] -= size;
        if (pausing[i] && bytes[i] <= Math.min(xonBytes, xoff())) {
            pausing[i] = false;
            network.signalPause(ingressPort, false);
        }
    }

    public long bytesFrom(int ingressPort) {
        return bytes[ingressPort - firstPort];
    }

    public boolean pausing(int ingressPort) {
        return pausing[ingressPort - firstPort];
    }

    /** Largest number of bytes ever held for one ingress port. */
    public long maxIngressBytes() {
        return maxIngressBytes;
    }

    /** Most an ingress may hold: XOFF plus headroom (static thresholds). */
    public long limitBytes() {
        return Math.max(xoffBytes, dynamicAlpha > 0 ? buffer.sharedTotalBytes() : xoffBytes) + headroomBytes;
    }

    public long overflowDrops() {
        return overflowDrops;
    }

    public long pausesSent() {
        return pausesSent;
    }
}
