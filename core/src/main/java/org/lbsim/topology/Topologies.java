package org.lbsim.topology;

import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.TopologySpec;

/** Builds the fabrics a scenario can name. */
public final class Topologies {
    private Topologies() {
    }

    public static Topology build(TopologySpec spec) {
        return spec.match(new TopologySpec.Cases<>() {
            @Override
            public Topology fatTree(TopologySpec.FatTree f) {
                return singleRail(Topologies.fatTree(f.k(), f.hostsPerEdgeSwitch(), f.hostLink(), f.edgeAggLink(), f.aggCoreLink()), f);
            }

            @Override
            public Topology leafSpine(TopologySpec.LeafSpine l) {
                return singleRail(Topologies.leafSpine(l.hostsPerLeaf(), l.leaves(), l.spines(), l.linksPerLeafSpine(), l.hostLink(),
                        l.leafSpineLink()), l);
            }

            @Override
            public Topology railLeafSpine(TopologySpec.RailLeafSpine r) {
                return Topologies.railLeafSpine(r.serversPerGroup(), r.groups(), r.nicsPerServer(), r.spines(), r.linksPerLeafSpine(),
                        r.hostLink(), r.leafSpineLink());
            }

            @Override
            public Topology custom(TopologySpec.Custom c) {
                return singleRail(Topologies.custom(c), c);
            }
        });
    }

    /**
     * Fat trees and leaf-spines number endpoints by switch port, so consecutive NIC ports of one edge /
     * leaf switch form a server (single-rail); custom graphs group h0.. by the same rule.
     */
    private static Topology singleRail(Topology t, TopologySpec spec) {
        t.setNicsPerServer(spec.nicsPerServer());
        return t;
    }

    /** Hosts h0.. first, then the named switches (all tier 1); links and static routes by name. */
    public static Topology custom(TopologySpec.Custom c) {
        TopologyBuilder b = new TopologyBuilder("custom", new String[] {"H", "S", "S2", "S3"});
        for (int h = 0; h < c.hosts(); h++) {
            b.addNode("h" + h, 0);
        }
        java.util.Map<String, Integer> ids = new java.util.HashMap<>();
        for (int h = 0; h < c.hosts(); h++) {
            ids.put("h" + h, h);
        }
        for (String sw : c.switches()) {
            ids.put(sw, b.addNode(sw, 1));
        }
        long rate = Math.round(c.linkRateGbps() * 1000);
        long delay = Math.round(c.linkDelayNs() * 1000);
        int[] hostLinks = new int[c.hosts()];
        for (int i = 0; i < c.links().size(); i++) {
            String[] ends = c.links().get(i).trim().split("\\s+");
            int a = ids.get(ends[0]);
            int z = ids.get(ends[1]);
            if (a < c.hosts() && z < c.hosts()) {
                throw new org.lbsim.scenario.ScenarioException("topology.links[" + i + "]", "a host must connect to a switch, not to another host");
            }
            if (a < c.hosts()) {
                hostLinks[a]++;
            }
            if (z < c.hosts()) {
                hostLinks[z]++;
            }
            // hosts first in each link, so a host's only port is its NIC
            b.link(a < c.hosts() ? a : z < c.hosts() ? z : a, a < c.hosts() ? z : z < c.hosts() ? a : z, rate, delay);
        }
        for (int h = 0; h < c.hosts(); h++) {
            if (hostLinks[h] != 1) {
                throw new org.lbsim.scenario.ScenarioException("topology.links", "host h" + h + " must have exactly one link, has " + hostLinks[h]);
            }
        }
        Topology t = b.build();
        int[] triples = new int[3 * c.routes().size()];
        for (int i = 0; i < c.routes().size(); i++) {
            String[] r = c.routes().get(i).trim().split("\\s+");
            int sw = ids.get(r[0]);
            int dst = ids.get(r[1]);
            int next = ids.get(r[2]);
            int[] ports = t.portsBetween(sw, next);
            if (ports.length == 0) {
                throw new org.lbsim.scenario.ScenarioException("topology.routes[" + i + "]", r[0] + " has no link to " + r[2]);
            }
            triples[3 * i] = sw;
            triples[3 * i + 1] = dst;
            triples[3 * i + 2] = ports[0];
        }
        t.setStaticRoutes(triples);
        return t;
    }

    /**
     * 3-tier k-ary fat tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches,
     * k/2 hosts per edge switch, (k/2)^2 core switches; aggregation switch j of every pod connects
     * to cores j*k/2 .. j*k/2 + k/2 - 1.
     */
    public static Topology fatTree(int k, LinkSpec host, LinkSpec edgeAgg, LinkSpec aggCore) {
        return fatTree(k, k / 2, host, edgeAgg, aggCore);
    }

    /**
     * A k-ary fat tree with {@code hostsPerEdge} hosts under each edge switch instead of k/2: more
     * oversubscribes the edge uplinks (and the pod's core uplinks) by hostsPerEdge : k/2 at equal
     * rates, as DLBF 4 / 5.1 realise 2.5:1 (k = 8, 10 hosts per ToR, 320 hosts).
     */
    public static Topology fatTree(int k, int hostsPerEdge, LinkSpec host, LinkSpec edgeAgg, LinkSpec aggCore) {
        int half = k / 2;
        int hosts = k * half * hostsPerEdge;
        int edges = k * half;
        int cores = half * half;
        TopologyBuilder b = new TopologyBuilder("fat-tree", new String[] {"H", "E", "A", "C"});
        for (int h = 0; h < hosts; h++) {
            b.addNode("h" + h, 0, h / (half * hostsPerEdge));
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
            b.link(h, edge0 + h / hostsPerEdge, host.rateMbps(), host.delayPs());
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
        return leavesAndSpines("leaf-spine", hostsPerLeaf * leaves, leaves, spines, parallel, host, fabric, h -> h / hostsPerLeaf).build();
    }

    /** Hosts under the leaf {@code leafOf} names, every leaf linked to every spine by {@code parallel} links. */
    private static TopologyBuilder leavesAndSpines(String kind, int hosts, int leaves, int spines, int parallel, LinkSpec host,
                                                   LinkSpec fabric, java.util.function.IntUnaryOperator leafOf) {
        TopologyBuilder b = new TopologyBuilder(kind, new String[] {"H", "L", "S"});
        for (int h = 0; h < hosts; h++) {
            b.addNode("h" + h, 0, leafOf.applyAsInt(h));
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
            b.link(h, leaf0 + leafOf.applyAsInt(h), host.rateMbps(), host.delayPs());
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                for (int p = 0; p < parallel; p++) {
                    b.link(leaf0 + l, spine0 + s, fabric.rateMbps(), fabric.delayPs());
                }
            }
        }
        return b;
    }

    /**
     * Rail-optimized leaf-spine: servers of {@code nics} NICs in groups of {@code serversPerGroup};
     * group g has rail leaves l(g*nics) .. l(g*nics + nics - 1), and NIC i of each of its servers
     * attaches to rail leaf i (CTCCL 3.3 Fig. 4 "multi-rail", 4.1: NIC 0 and NIC 1 of a server on
     * different leaves). Endpoints are numbered server-major (h = server * nics + nic), so a leaf's
     * hosts are every nics-th endpoint of its group. Same-rail traffic of a group turns at its leaf;
     * anything else climbs to a spine.
     */
    public static Topology railLeafSpine(int serversPerGroup, int groups, int nics, int spines, int parallel, LinkSpec host,
                                         LinkSpec fabric) {
        Topology t = leavesAndSpines("rail-leaf-spine", serversPerGroup * groups * nics, groups * nics, spines, parallel, host, fabric,
                h -> railLeaf(h, serversPerGroup, nics)).build();
        t.setNicsPerServer(nics);
        return t;
    }

    /** The rail leaf of endpoint h: its server's group, its NIC's rail. */
    private static int railLeaf(int h, int serversPerGroup, int nics) {
        int server = h / nics;
        return (server / serversPerGroup) * nics + h % nics;
    }
}
