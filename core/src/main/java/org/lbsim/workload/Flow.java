package org.lbsim.workload;

/**
 * One message to deliver: from host {@code src} to host {@code dst}, {@code bytes} long, starting at
 * {@code startPs}, in traffic class {@code trafficClass} (DSCP 0-63; a scenario may give a class its
 * own load-balancing scheme).
 */
public record Flow(int src, int dst, long bytes, long startPs, int trafficClass) {
    public Flow {
        if (src == dst) {
            throw new IllegalArgumentException("a flow needs two different hosts, got " + src + " -> " + dst);
        }
        if (bytes <= 0 || startPs < 0 || src < 0 || dst < 0 || trafficClass < 0 || trafficClass > 63) {
            throw new IllegalArgumentException("invalid flow " + src + " -> " + dst + " bytes " + bytes + " start " + startPs
                    + " class " + trafficClass);
        }
    }

    /** A flow of the default class 0. */
    public Flow(int src, int dst, long bytes, long startPs) {
        this(src, dst, bytes, startPs, 0);
    }
}
