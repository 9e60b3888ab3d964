package org.lbsim.topology;

import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;

/** Builds the fabrics a scenario can name. */
public final class Topologies {
    private Topologies() {
    }

    public static Topology build(TopologySpec spec) {
        if (spec instanceof TopologySpec.FatTree f) {
            return fatTree(f.k(), f.hostLink(), f.edgeAggLink(), f.aggCoreLink());
        }
        if (spec instanceof TopologySpec.LeafSpine l) {
            return leafSpine(l.hostsPerLeaf(), l.leaves(), l.spines(), l.linksPerLeafSpine(), l.hostLink(), l.leafSpineLink());
        }
        throw new IllegalArgumentException("unknown topology " + spec);
    }

    /**
     * 3-tier k-ary fat tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches,
     * k/2 hosts per edge switch, (k/2)^2 core switches; aggregation switch j of every pod connects
     * to cores j*k/2 .. j*k/2 + k/2 - 1.
     */
    public static Topology fatTree(int k, LinkSpec host, LinkSpec edgeAgg, LinkSpec aggCore) {
        int half = k / 2;
        int hosts = k * k * k / 4;
        int edges = k * half;
        int cores = half * half;
        TopologyBuilder b = new TopologyBuilder("fat-tree", new String[] {"H", "E", "A", "C"});
        for (int h = 0; h < hosts; h++) {
            b.addNode("h" + h, 0, h / (half * half));
        }
        int edge0 = hosts;
        for (int e = 0; e < edges; e++) {
            b.addNode("e" + e, 1, e / half);
        }
        int agg0 = edge0 + edges;
        for (int a = 0; a < edges; a++) {
            b.addNode("a" + a, 2, a / half);
        }
        int core0 = agg0 + edges;
        for (int c = 0; c < cores; c++) {
            b.addNode("c" + c, 3);
        }
        // Links in an order that puts each switch's down ports before its up ports.
        for (int h = 0; h < hosts; h++) {
            b.link(h, edge0 + h / half, host.rateMbps(), host.delayPs());
        }
        for (int pod = 0; pod < k; pod++) {
            for (int e = 0; e < half; e++) {
                for (int a = 0; a < half; a++) {
                    b.link(edge0 + pod * half + e, agg0 + pod * half + a, edgeAgg.rateMbps(), edgeAgg.delayPs());
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int a = 0; a < half; a++) {
                for (int c = 0; c < half; c++) {
                    b.link(agg0 + pod * half + a, core0 + a * half + c, aggCore.rateMbps(), aggCore.delayPs());
                }
            }
        }
        return b.build();
    }

    /** 2-tier leaf-spine with {@code parallel} links between every leaf-spine pair. */
    public static Topology leafSpine(int hostsPerLeaf, int leaves, int spines, int parallel, LinkSpec host, LinkSpec fabric) {
        TopologyBuilder b = new TopologyBuilder("leaf-spine", new String[] {"H", "L", "S"});
        int hosts = hostsPerLeaf * leaves;
        for (int h = 0; h < hosts; h++) {
            b.addNode("h" + h, 0, h / hostsPerLeaf);
        }
        int leaf0 = hosts;
        for (int l = 0; l < leaves; l++) {
            b.addNode("l" + l, 1, l);
        }
        int spine0 = leaf0 + leaves;
        for (int s = 0; s < spines; s++) {
            b.addNode("s" + s, 2);
        }
        for (int h = 0; h < hosts; h++) {
            b.link(h, leaf0 + h / hostsPerLeaf, host.rateMbps(), host.delayPs());
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                for (int p = 0; p < parallel; p++) {
                    b.link(leaf0 + l, spine0 + s, fabric.rateMbps(), fabric.delayPs());
                }
            }
        }
        return b.build();
    }
}
