package org.lbsim.net;

import org.lbsim.topology.Topology;

/**
 * PFC state of one switch: bytes held per ingress port, and whether each ingress has paused its
 * upstream sender. Crossing XOFF sends a PAUSE and dropping below XON a RESUME, each reaching the
 * upstream port one control frame and one propagation delay later.
 */
public final class PfcIngress implements Admission {
    /** Size of a PFC control frame on the wire. */
    static final int PAUSE_FRAME_BYTES = 64;

    private final Network network;
    private final int firstPort;
    private final long[] bytes;
    private final boolean[] pausing;
    private final long[] pausedAtBytes;
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
        this.pausedAtBytes = new long[t.degree(node)];
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

    /**
     * Lossless admission: before the pause, everything is admitted (the frame that crosses XOFF sends
     * the PAUSE); after it, frames still on the wire go into this ingress's headroom. The switch's
     * shared memory, if any, is a hard limit. A refusal here is a lossless-fabric violation.
     */
    @Override
    public boolean admit(int ingressPort, long portQueueBytes, int size) {
        int i = ingressPort - firstPort;
        // a packet the switch made itself (ingressPort -1) came in on no port: only shared memory limits it
        boolean fits = ingressPort < 0 || !pausing[i] || bytes[i] + size <= pausedAtBytes[i] + headroomBytes;
        if (!fits || !buffer.fitsShared(size)) {
            overflowDrops++;
            return false;
        }
        return true;
    }

    /**
     * A released burst: the shared memory is the limit, not the ingress's headroom (ns-3 uses a
     * port's headroom only once the switch's shared pool is past its limit, switch-mmu.cc:134-161). A
     * burst admitted while the ingress pauses moves the headroom's baseline with it, so the frames
     * still on the upstream link find their headroom as before.
     */
    @Override
    public boolean admitReleased(int ingressPort, long portQueueBytes, int size) {
        if (!buffer.fitsShared(size)) {
            overflowDrops++;
            return false;
        }
        if (ingressPort >= 0 && pausing[ingressPort - firstPort]) {
            pausedAtBytes[ingressPort - firstPort] += size;
        }
        return true;
    }

    @Override
    public void onAdmit(int ingressPort, int size) {
        if (ingressPort < 0) {
            return;
        }
        int i = ingressPort - firstPort;
        bytes[i] += size;
        if (bytes[i] > maxIngressBytes) {
            maxIngressBytes = bytes[i];
        }
        if (!pausing[i] && bytes[i] > xoff()) {
            pausing[i] = true;
            pausedAtBytes[i] = bytes[i];
            pausesSent++;
            network.signalPause(ingressPort, true);
        }
    }

    @Override
    public void onRelease(int ingressPort, int size) {
        if (ingressPort < 0) {
            return;
        }
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


    public long overflowDrops() {
        return overflowDrops;
    }

    public long pausesSent() {
        return pausesSent;
    }
}
