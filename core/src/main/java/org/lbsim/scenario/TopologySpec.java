package org.lbsim.scenario;

/** The physical fabric. */
public sealed interface TopologySpec permits TopologySpec.FatTree, TopologySpec.LeafSpine, TopologySpec.RailLeafSpine,
        TopologySpec.Custom {

    static TopologySpec defaults() {
        return FatTree.defaults();
    }

    /** Host endpoints: NIC ports, each on its own switch port; servers group nicsPerServer() of them. */
    int hostCount();

    /** NIC ports per server (1 = every host endpoint is a server of its own). */
    int nicsPerServer();

    /** Switches in the fabric. */
    long switchCount();

    /** Destination classes of a switch's forwarding table: a ToR's or leaf's hosts, every host of a custom graph. */
    long destinationClasses();

    /** Ports of switches and NICs: each link counted at both its ends. */
    long portCount();

    /** The links from hosts to their switches (a custom graph's one link setting). */
    LinkSpec hostLink();

    /** The link setting of every tier of the fabric (a custom graph's one setting), host links first. */
    java.util.List<LinkSpec> linkTiers();

    /** Whether routes are given as static routes ({@code routes} of a custom graph) rather than all computed as shortest paths. */
    default boolean staticRoutes() {
        return false;
    }

    /** {@code cases}' answer for this kind of fabric. */
    <R> R match(Cases<R> cases);

    /**
     * Something done differently for each kind of fabric. A visitor rather than {@code instanceof}
     * chains: a new kind fails to compile until every place that builds a fabric handles it.
     */
    interface Cases<R> {
        R fatTree(FatTree f);

        R leafSpine(LeafSpine l);

        R railLeafSpine(RailLeafSpine r);

        R custom(Custom c);
    }

    @TypeName("fat-tree")
    @Doc("3-tier k-ary fat tree: k^2/2 edge, k^2/2 aggregation and k^2/4 core switches, hostsPerEdge NIC ports under each edge switch"
            + " (k/2 by default: k^3/4 hosts, no oversubscription; more makes the edge and pod uplinks oversubscribed hostsPerEdge:k/2,"
            + " as DLBF's k=8 fat tree with 10 hosts per ToR at 2.5:1)")
    record FatTree(
            @Doc("switch radix; even, >= 2") int k,
            @Doc("NIC ports under each edge switch; 0 = k/2 (oversubscription hostsPerEdge / (k/2) when the tiers share one rate)") int hostsPerEdge,
            @Doc("NIC ports per server; a server's NICs take consecutive ports of one edge switch (single-rail), so hostsPerEdge must be a multiple") int nicsPerServer,
            @Doc("host to edge links") LinkSpec hostLink,
            @Doc("edge to aggregation links") LinkSpec edgeAggLink,
            @Doc("aggregation to core links") LinkSpec aggCoreLink) implements TopologySpec {

        public FatTree {
            ScenarioException.require(k >= 2 && k % 2 == 0 && k <= 128, "k", "must be an even integer between 2 and 128, got " + k);
            ScenarioException.require(hostsPerEdge >= 0 && hostsPerEdge <= 4096, "hostsPerEdge", "must be 0 (= k/2) or between 1 and 4096, got " + hostsPerEdge);
            ScenarioException.require(nicsPerServer >= 1 && nicsPerServer <= 64, "nicsPerServer", "must be between 1 and 64, got " + nicsPerServer);
            int perEdge = hostsPerEdge == 0 ? k / 2 : hostsPerEdge;
            ScenarioException.require(perEdge % nicsPerServer == 0, "nicsPerServer",
                    "must divide the " + perEdge + " NIC ports of an edge switch (hostsPerEdge), got " + nicsPerServer);
            ScenarioException.require((long) k * (k / 2) * perEdge <= 1_000_000, "hostsPerEdge", "k^2/2 x hostsPerEdge must be <= 1000000 hosts");
            ScenarioException.require(hostLink != null, "hostLink", "is required");
            ScenarioException.require(edgeAggLink != null, "edgeAggLink", "is required");
            ScenarioException.require(aggCoreLink != null, "aggCoreLink", "is required");
        }

        /** A fat tree of k/2 single-NIC hosts per edge switch (no oversubscription). */
        public FatTree(int k, LinkSpec hostLink, LinkSpec edgeAggLink, LinkSpec aggCoreLink) {
            this(k, 0, 1, hostLink, edgeAggLink, aggCoreLink);
        }

        public static FatTree defaults() {
            return new FatTree(8, 0, 1, LinkSpec.defaults(), LinkSpec.defaults(), LinkSpec.defaults());
        }

        /** NIC ports under each edge switch. */
        public int hostsPerEdgeSwitch() {
            return hostsPerEdge == 0 ? k / 2 : hostsPerEdge;
        }

        @Override
        public int hostCount() {
            return k * (k / 2) * hostsPerEdgeSwitch();
        }

        @Override
        public long switchCount() {
            return 5L * k * k / 4;
        }

        @Override
        public long destinationClasses() {
            return (long) k * k / 2;
        }

        @Override
        public long portCount() {
            return switchCount() * k + 2L * hostCount(); // a host's port and its edge's (hostsPerEdge may exceed k/2)
        }

        @Override
        public java.util.List<LinkSpec> linkTiers() {
            return java.util.List.of(hostLink, edgeAggLink, aggCoreLink);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.fatTree(this);
        }
    }

    @TypeName("leaf-spine")
    @Doc("2-tier leaf-spine: hostsPerLeaf NIC ports under each leaf, every leaf linked to every spine by linksPerLeafSpine parallel links;"
            + " oversubscription = hostsPerLeaf x hostLink rate / (spines x linksPerLeafSpine x leafSpineLink rate)")
    record LeafSpine(
            @Doc("NIC ports (host endpoints) attached to each leaf") int hostsPerLeaf,
            @Doc("NIC ports per server; a server's NICs take consecutive ports of one leaf (single-rail), so hostsPerLeaf must be a multiple") int nicsPerServer,
            @Doc("number of leaf switches") int leaves,
            @Doc("number of spine switches") int spines,
            @Doc("parallel links between each leaf-spine pair") int linksPerLeafSpine,
            @Doc("host to leaf links") LinkSpec hostLink,
            @Doc("leaf to spine links") LinkSpec leafSpineLink) implements TopologySpec {

        public LeafSpine {
            ScenarioException.require(hostsPerLeaf >= 1, "hostsPerLeaf", "must be >= 1, got " + hostsPerLeaf);
            ScenarioException.require(nicsPerServer >= 1 && nicsPerServer <= 64, "nicsPerServer", "must be between 1 and 64, got " + nicsPerServer);
            ScenarioException.require(hostsPerLeaf % nicsPerServer == 0, "nicsPerServer",
                    "must divide hostsPerLeaf (" + hostsPerLeaf + "): a server's NICs share one leaf, got " + nicsPerServer);
            ScenarioException.require(leaves >= 1, "leaves", "must be >= 1, got " + leaves);
            ScenarioException.require(spines >= 1, "spines", "must be >= 1, got " + spines);
            ScenarioException.require(linksPerLeafSpine >= 1, "linksPerLeafSpine", "must be >= 1, got " + linksPerLeafSpine);
            ScenarioException.require((long) hostsPerLeaf * leaves <= 1_000_000, "hostsPerLeaf", "hostsPerLeaf x leaves must be <= 1000000");
            ScenarioException.require(hostLink != null, "hostLink", "is required");
            ScenarioException.require(leafSpineLink != null, "leafSpineLink", "is required");
        }

        /** A leaf-spine of single-NIC hosts. */
        public LeafSpine(int hostsPerLeaf, int leaves, int spines, int linksPerLeafSpine, LinkSpec hostLink, LinkSpec leafSpineLink) {
            this(hostsPerLeaf, 1, leaves, spines, linksPerLeafSpine, hostLink, leafSpineLink);
        }

        public static LeafSpine defaults() {
            return new LeafSpine(16, 1, 16, 16, 1, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        }

        @Override
        public int hostCount() {
            return hostsPerLeaf * leaves;
        }

        @Override
        public long switchCount() {
            return (long) leaves + spines;
        }

        @Override
        public long destinationClasses() {
            return leaves;
        }

        @Override
        public long portCount() {
            return 2L * hostCount() + 2L * leaves * spines * linksPerLeafSpine;
        }

        @Override
        public java.util.List<LinkSpec> linkTiers() {
            return java.util.List.of(hostLink, leafSpineLink);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.leafSpine(this);
        }
    }

    @TypeName("rail-leaf-spine")
    @Doc("rail-optimized 2-tier leaf-spine: servers with nicsPerServer NICs in groups of serversPerGroup; each group has nicsPerServer rail"
            + " leaves and NIC i of every server of the group attaches to rail leaf i; every leaf links to every spine as in a leaf-spine"
            + " (CTCCL's testbed: 8 servers x 2 NICs, 2 rail leaves with 8 uplinks to 2 spines)")
    record RailLeafSpine(
            @Doc("servers in one group (downlinks of each rail leaf)") int serversPerGroup,
            @Doc("groups of servers; each has its own nicsPerServer rail leaves") int groups,
            @Doc("NICs per server = rails: NIC i of a server attaches to its group's rail leaf i") int nicsPerServer,
            @Doc("number of spine switches") int spines,
            @Doc("parallel links between each leaf-spine pair") int linksPerLeafSpine,
            @Doc("NIC to leaf links") LinkSpec hostLink,
            @Doc("leaf to spine links") LinkSpec leafSpineLink) implements TopologySpec {

        public RailLeafSpine {
            ScenarioException.require(serversPerGroup >= 1, "serversPerGroup", "must be >= 1, got " + serversPerGroup);
            ScenarioException.require(groups >= 1, "groups", "must be >= 1, got " + groups);
            ScenarioException.require(nicsPerServer >= 1 && nicsPerServer <= 64, "nicsPerServer", "must be between 1 and 64, got " + nicsPerServer);
            ScenarioException.require(spines >= 1, "spines", "must be >= 1, got " + spines);
            ScenarioException.require(linksPerLeafSpine >= 1, "linksPerLeafSpine", "must be >= 1, got " + linksPerLeafSpine);
            ScenarioException.require((long) serversPerGroup * groups * nicsPerServer <= 1_000_000, "serversPerGroup",
                    "serversPerGroup x groups x nicsPerServer must be <= 1000000 NIC ports");
            ScenarioException.require(hostLink != null, "hostLink", "is required");
            ScenarioException.require(leafSpineLink != null, "leafSpineLink", "is required");
        }

        /** CTCCL 4.1's testbed: 8 servers with 2 NICs at 400 Gb/s on 2 rail leaves, each with 4 links to each of 2 spines. */
        public static RailLeafSpine defaults() {
            return new RailLeafSpine(8, 1, 2, 2, 4, new LinkSpec(400, 1000), new LinkSpec(400, 1000));
        }

        public int leaves() {
            return groups * nicsPerServer;
        }

        @Override
        public int hostCount() {
            return serversPerGroup * groups * nicsPerServer;
        }

        @Override
        public long switchCount() {
            return (long) leaves() + spines;
        }

        @Override
        public long destinationClasses() {
            return leaves();
        }

        @Override
        public long portCount() {
            return 2L * hostCount() + 2L * leaves() * spines * linksPerLeafSpine;
        }

        @Override
        public java.util.List<LinkSpec> linkTiers() {
            return java.util.List.of(hostLink, leafSpineLink);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.railLeafSpine(this);
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
            @Doc("static routes as \"SWITCH HOST NEXT\": at SWITCH, packets for HOST go to neighbour NEXT (overrides shortest paths)") java.util.List<String> routes,
            @Doc("NIC ports per server: host h is NIC h % nicsPerServer of server h / nicsPerServer; 1 = every host its own server (the default)") @IntDefault(1) int nicsPerServer) implements TopologySpec {

        public Custom {
            switches = switches == null ? java.util.List.of() : java.util.List.copyOf(switches);
            links = links == null ? java.util.List.of() : java.util.List.copyOf(links);
            routes = routes == null ? java.util.List.of() : java.util.List.copyOf(routes);
            ScenarioException.require(hosts >= 1 && hosts <= 100_000, "hosts", "must be between 1 and 100000, got " + hosts);
            ScenarioException.require(nicsPerServer >= 1 && hosts % nicsPerServer == 0, "nicsPerServer",
                    "must be >= 1 and divide hosts (" + hosts + "), got " + nicsPerServer);
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

        /** A graph of single-NIC hosts. */
        public Custom(int hosts, java.util.List<String> switches, java.util.List<String> links, double linkRateGbps, double linkDelayNs,
                      java.util.List<String> routes) {
            this(hosts, switches, links, linkRateGbps, linkDelayNs, routes, 1);
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

        @Override
        public long switchCount() {
            return switches.size();
        }

        @Override
        public long destinationClasses() {
            return hosts;
        }

        @Override
        public long portCount() {
            return 2L * links.size();
        }

        @Override
        public LinkSpec hostLink() {
            return new LinkSpec(linkRateGbps, linkDelayNs);
        }

        @Override
        public java.util.List<LinkSpec> linkTiers() {
            return java.util.List.of(hostLink());
        }

        @Override
        public boolean staticRoutes() {
            return !routes.isEmpty();
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.custom(this);
        }
    }
}
