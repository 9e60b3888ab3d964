package org.lbsim.workload;

/** One message to deliver: from host {@code src} to host {@code dst}, {@code bytes} long, starting at {@code startPs}. */
public record Flow(int src, int dst, long bytes, long startPs) {
    public Flow {
        if (src == dst) {
            throw new IllegalArgumentException("a flow needs two different hosts, got " + src + " -> " + dst);
        }
        if (bytes <= 0 || startPs < 0 || src < 0 || dst < 0) {
            throw new IllegalArgumentException("invalid flow " + src + " -> " + dst + " bytes " + bytes + " start " + startPs);
        }
    }
}
