package org.lbsim.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    @Test
    void counts_transpositions_as_one_edit() {
        assertThat(Suggestions.distance("host-spary", "host-spray")).isEqualTo(1);
        assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    }

    @Test
    void suggests_only_plausible_typos() {
        List<String> keys = List.of("name", "seed", "topology", "packets", "loadBalancing", "congestionControl");
        assertThat(Suggestions.closest("topolgy", keys)).contains("topology");
        assertThat(Suggestions.closest("Topology", keys)).contains("topology");
        assertThat(Suggestions.closest("loadbalancing", keys)).contains("loadBalancing");
        assertThat(Suggestions.closest("congestion", keys)).isEmpty();
        assertThat(Suggestions.closest("sed", keys)).contains("seed");
        assertThat(Suggestions.closest("xyz", keys)).isEmpty();
        assertThat(Suggestions.closest("name", keys)).isEmpty();
    }
}
