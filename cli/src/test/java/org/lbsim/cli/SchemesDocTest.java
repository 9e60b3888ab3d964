package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.lbsim.api.CapabilityTable;
import org.lbsim.registry.Component;
import org.lbsim.registry.LoadBalancers;

/**
 * docs/schemes.md: its section "Registered components" is what the registries give
 * ({@code lbsim list --markdown}), byte for byte; its hand-written table of schemes against their papers
 * names every registered scheme once, under the display name the registry gives it (the name of
 * figures, legends and {@code lbsim list schemes}).
 */
class SchemesDocTest {
    /** A scheme's own row: "| `host-spray` | **HOST PKT**: OFAN 3.2 (4) ...". */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\| ([^|]*)\\|");

    @Test
    void every_registered_scheme_has_one_row_headed_by_its_display_name() throws IOException {
        String page = Files.readString(Path.of("../docs/schemes.md"));
        // the hand-written table, without the generated section (whose rows also start with a name)
        int begin = page.indexOf(CapabilityTable.BEGIN);
        int end = page.indexOf(CapabilityTable.END);
        String doc = begin < 0 || end < begin ? page : page.substring(0, begin) + page.substring(end + CapabilityTable.END.length());
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            assertThat(rows.put(m.group(1), m.group(2).strip())).as("second row for " + m.group(1)).isNull();
        }
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(LoadBalancers.REGISTRY.names());
        for (Component<?> c : LoadBalancers.REGISTRY.all()) {
            assertThat(rows.get(c.name())).as(c.name()).startsWith("**" + c.displayName() + "**: ");
        }
    }

    @Test
    void the_registered_components_section_is_what_the_registries_give() throws IOException {
        String doc = Files.readString(Path.of("../docs/schemes.md"));
        int begin = doc.indexOf(CapabilityTable.BEGIN);
        int end = doc.indexOf(CapabilityTable.END);
        assertThat(begin).as("docs/schemes.md has the generated section").isNotNegative();
        assertThat(end).as("docs/schemes.md closes the generated section").isGreaterThan(begin);
        String section = doc.substring(begin, end + CapabilityTable.END.length() + 1);
        assertThat(section).as("docs/schemes.md's registered components differ from the registries: replace the section with the output of 'lbsim list --markdown'")
                .isEqualTo(CapabilityTable.markdown());
    }
}
