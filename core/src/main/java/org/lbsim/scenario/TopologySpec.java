package org.lbsim.scenario;

/** The physical fabric. */
public sealed interface TopologySpec permits TopologySpec.FatTree, TopologySpec.LeafSpine, TopologySpec.Custom {

    static TopologySpec defaults() {
        return FatTree.defaults();
    }

    int hostCount();

    @TypeName("fat-tree")
    @Doc("3-tier k-ary fat tree: k^3/4 hosts, k^2/2 edge, k^2/2 aggregation and k^2/4 core switches")
    record FatTree(
            @Doc("switch radix; even, >= 2") int k,
            @Doc("host to edge links") LinkSpec hostLink,
            @Doc("edge to aggregation links") LinkSpec edgeAggLink,
            @Doc("aggregation to core links") LinkSpec aggCoreLink) implements TopologySpec {

        public FatTree {
            ScenarioException.require(k >= 2 && k % 2 == 0 && k <= 128, "k", "must be an even integer between 2 and 128, got " + k);
            ScenarioException.require(hostLink != null, "hostLink", "is required");
            ScenarioException.require(edgeAggLink != null, "edgeAggLink", "is required");
            ScenarioException.require(aggCoreLink != null, "aggCoreLink", "is required");
        }

        public static FatTree defaults() {
            return new FatTree(8, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
        }

        @Override
        public int hostCount() {
            return k * k * k / 4;
        }
    }

    @TypeName("leaf-spine")
    @Doc("2-tier leaf-spine: hostsPerLeaf hosts under each leaf, every leaf linked to every spine by linksPerLeafSpine parallel links")
    record LeafSpine(
            @Doc("hosts attached to each leaf") int hostsPerLeaf,
            @Doc("number of leaf switches") int leaves,
            @Doc("number of spine switches") int spines,
            @Doc("parallel links between each leaf-spine pair") int linksPerLeafSpine,
            @Doc("host to leaf links") LinkSpec hostLink,
            @Doc("leaf to spine links") LinkSpec leafSpineLink) implements TopologySpec {

        public LeafSpine {
            ScenarioException.require(hostsPerLeaf >= 1, "hostsPerLeaf", "must be >= 1, got " + hostsPerLeaf);
            ScenarioException.require(leaves >= 1, "leaves", "must be >= 1, got " + leaves);
            ScenarioException.require(spines >= 1, "spines", "must be >= 1, got " + spines);
            ScenarioException.require(linksPerLeafSpine >= 1, "linksPerLeafSpine", "must be >= 1, got " + linksPerLeafSpine);
            ScenarioException.require((long) hostsPerLeaf * leaves <= 1_000_000, "hostsPerLeaf", "hostsPerLeaf x leaves must be <= 1000000");
            ScenarioException.require(hostLink != null, "hostLink", "is required");
            ScenarioException.require(leafSpineLink != null, "leafSpineLink", "is required");
        }

        public static LeafSpine defaults() {
            return new LeafSpine(16, 16, 16, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        }

        @Override
        public int hostCount() {
            return hostsPerLeaf * leaves;
        }
    }

    @TypeName("custom")
    @Doc("any graph of hosts and switches given as a list of links, with shortest-path routing and optional static routes (for tests and odd fabrics)")
    record Custom(
            @Doc("number of hosts, named h0 .. h<N-1>") int hosts,
            @Doc("switch names (any names other than h<number>)") java.util.List<String> switches,
            @Doc("links as \"A B\" (node names), each a full-duplex link at linkRateGbps / linkDelayNs") java.util.List<String> links,
            @Doc("rate of every link in Gb/s") double linkRateGbps,
            @Doc("propagation delay of every link in ns") double linkDelayNs,
            @Doc("static routes as \"SWITCH HOST NEXT\": at SWITCH, packets for HOST go to neighbour NEXT (overrides shortest paths)") java.util.List<String> routes) implements TopologySpec {

        public Custom {
            switches = switches == null ? java.util.List.of() : java.util.List.copyOf(switches);
            links = links == null ? java.util.List.of() : java.util.List.copyOf(links);
            routes = routes == null ? java.util.List.of() : java.util.List.copyOf(routes);
            ScenarioException.require(hosts >= 1 && hosts <= 100_000, "hosts", "must be between 1 and 100000, got " + hosts);
            ScenarioException.require(!switches.isEmpty(), "switches", "needs at least one switch name");
            Checks.rateGbps(linkRateGbps, "linkRateGbps");
            Checks.delayNs(linkDelayNs, "linkDelayNs");
            java.util.Set<String> names = new java.util.HashSet<>();
            for (int i = 0; i < switches.size(); i++) {
                String n = switches.get(i);
                ScenarioException.require(n != null && n.matches("[A-Za-z_][A-Za-z0-9_]*") && !n.matches("h[0-9]+"),
                        "switches[" + i + "]", "must be a name of letters, digits and _ not of the form h<number>, got '" + n + "'");
                ScenarioException.require(names.add(n), "switches[" + i + "]", "duplicate switch name '" + n + "'");
            }
            for (int i = 0; i < links.size(); i++) {
                String[] ends = links.get(i).trim().split("\\s+");
                ScenarioException.require(ends.length == 2, "links[" + i + "]", "must be two node names separated by a space, got '" + links.get(i) + "'");
                for (String e : ends) {
                    ScenarioException.require(names.contains(e) || isHost(e, hosts), "links[" + i + "]",
                            "unknown node '" + e + "' (hosts are h0 .. h" + (hosts - 1) + ", switches " + switches + ")");
                }
                ScenarioException.require(!ends[0].equals(ends[1]), "links[" + i + "]", "a link needs two different nodes");
            }
            for (int i = 0; i < routes.size(); i++) {
                String[] r = routes.get(i).trim().split("\\s+");
                ScenarioException.require(r.length == 3, "routes[" + i + "]", "must be \"SWITCH HOST NEXT\", got '" + routes.get(i) + "'");
                ScenarioException.require(names.contains(r[0]), "routes[" + i + "]", "unknown switch '" + r[0] + "'");
                ScenarioException.require(isHost(r[1], hosts), "routes[" + i + "]", "unknown host '" + r[1] + "'");
                ScenarioException.require(names.contains(r[2]) || isHost(r[2], hosts), "routes[" + i + "]", "unknown next hop '" + r[2] + "'");
            }
        }

        private static boolean isHost(String name, int hosts) {
            if (!name.matches("h[0-9]+")) {
                return false;
            }
            long n = Long.parseLong(name.substring(1));
            return n < hosts;
        }

        @Override
        public int hostCount() {
            return hosts;
        }
    }
}
