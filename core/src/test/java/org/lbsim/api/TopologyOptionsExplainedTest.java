package org.lbsim.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code lbsim explain} shows the multi-NIC, rail-optimized and oversubscription options of the fabrics. */
class TopologyOptionsExplainedTest {

    @Test
    void theFabricsExplainTheirNicsPerServerAndHowTheyOversubscribe() {
        assertThat(Catalog.explain("fat-tree"))
                .containsPattern("\n  hostsPerEdge +integer +0 +NIC ports under each edge switch; 0 = k/2")
                .containsPattern("\n  nicsPerServer +integer +1 +NIC ports per server")
                .contains("2.5:1");
        assertThat(Catalog.explain("leaf-spine"))
                .containsPattern("\n  nicsPerServer +integer +1 ")
                .contains("oversubscription = hostsPerLeaf x hostLink rate / (spines x linksPerLeafSpine x leafSpineLink rate)");
        assertThat(Catalog.explain("custom")).containsPattern("\n  nicsPerServer +integer +1 ");
        assertThat(Catalog.explain("topology")).contains("fat-tree | leaf-spine | rail-leaf-spine | custom");
    }

    @Test
    void theRailOptimizedLeafSpineDefaultsToCtcclsTestbed() {
        String text = Catalog.explain("rail-leaf-spine");
        assertThat(text).startsWith("rail-leaf-spine: topology\n  rail-optimized 2-tier leaf-spine")
                .containsPattern("\n  serversPerGroup +integer +8 ")
                .containsPattern("\n  nicsPerServer +integer +2 +NICs per server = rails: NIC i of a server attaches to its group's rail leaf i")
                .containsPattern("\n  linksPerLeafSpine +integer +4 ");
    }
}
