package org.lbsim.scenario;

/** The physical fabric. */
public sealed interface TopologySpec permits TopologySpec.FatTree, TopologySpec.LeafSpine {

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
}
