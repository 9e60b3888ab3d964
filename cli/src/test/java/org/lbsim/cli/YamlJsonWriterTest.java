package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioTree;
import org.lbsim.cli.files.Json;
import org.lbsim.cli.files.Yaml;

/** The YAML and JSON writers (Jackson): what they write reads back as the same tree, in the layout the files always had. */
class YamlJsonWriterTest {
    static Stream<Path> yamlFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("../examples", "../bench/scenarios", "src/main/resources/reproduce")) {
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                s.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(files::add);
            }
        }
        assertThat(files).hasSizeGreaterThan(30);
        return files.stream();
    }

    /** Every example, benchmark scenario and reproduction file (strings over many lines, dotted keys, lists of maps) reads back the same. */
    @ParameterizedTest
    @MethodSource("yamlFiles")
    void everyShippedYamlTreeReadsBackAsTheSameTree(Path file) throws IOException {
        Object tree = Yaml.parse(Files.readString(file), file.toString());
        String text = Yaml.write(tree);
        assertThat(Yaml.parse(text, "again")).isEqualTo(tree);
        assertThat(text).doesNotStartWith("---").doesNotContain("\r");
    }

    @Test
    void theEffectiveScenarioIsWrittenInTheBlockLayoutOfEveryRunFolder() {
        Object tree = Yaml.parse("""
                name: x
                topology: {type: fat-tree, k: 4}
                failures: {links: [{a: e0, b: a0}]}
                """, "x.yaml");
        String text = Yaml.write(ScenarioTree.toTree(ScenarioBinder.bind(tree)));
        assertThat(text).startsWith("name: x\nseed: 1\ntopology:\n  type: fat-tree\n  k: 4\n")
                .contains("\nfailures:\n  links:\n    - a: e0\n      b: a0\n");
    }

    @Test
    void stringsThatLookLikeOtherTypesStayStringsAndDoublesKeepTheirExactValue() {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (String s : List.of("2024", "yes", "no", "on", "off", "true", "null", "0x10", "1e5", "1.5", "~", "", "a: b", "#x", "x ", "-x",
                "all-reduce/ring", "e0-a0#1", "two\nlines", "tab\there", "\"quoted\"", "it's")) {
            tree.put("k" + tree.size(), s);
        }
        for (double d : new double[] {400.0, 0.1, 1e20, 1e-7, -2.5, 123456789.123}) {
            tree.put("d" + tree.size(), d);
        }
        tree.put("big", Long.MAX_VALUE);
        tree.put("flag", false);
        tree.put("nothing", null);
        tree.put("emptyMap", Map.of());
        tree.put("emptyList", List.of());
        String text = Yaml.write(tree);
        assertThat(Yaml.parse(text, "again")).isEqualTo(tree);
        // the exact text of the values a scenario has: numbers plain, decimals with a point, signed exponents
        assertThat(text).contains("k0: \"2024\"\n").contains("k1: \"yes\"\n").contains("k16: all-reduce/ring\n")
                .contains("d22: 400.0\n").contains("d24: 1.0E+20\n").contains("d25: 1.0E-7\n")
                .contains("big: 9223372036854775807\n").contains("flag: false\n").contains("nothing: null\n")
                .contains("emptyMap: {}\n").contains("emptyList: []\n");
    }

    @Test
    void jsonIsTwoSpaceIndentedKeyColonValueWithPlainDecimalsAndNewlineEnds() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenarioName", "a \"b\"\n");
        m.put("cctPs", 53459660L);
        m.put("cctUs", new BigDecimal("53.459660"));
        m.put("meanQueueBytes", Json.decimal(4323328.0, 3));
        m.put("rhoMaxMbps", null);
        m.put("layers", List.of(Map.of("layer", "H->E"), Map.of()));
        m.put("empty", List.of());
        m.put("counters", Map.of());
        m.put("flag", true);
        assertThat(Json.write(m)).isEqualTo("""
                {
                  "scenarioName": "a \\"b\\"\\n",
                  "cctPs": 53459660,
                  "cctUs": 53.459660,
                  "meanQueueBytes": 4323328.000,
                  "rhoMaxMbps": null,
                  "layers": [
                    {
                      "layer": "H->E"
                    },
                    {}
                  ],
                  "empty": [],
                  "counters": {},
                  "flag": true
                }
                """);
        assertThat(Json.decimal(Double.NaN, 3)).isNull();
        assertThat(Json.decimal(1e21, 2).toPlainString()).isEqualTo("1000000000000000000000.00");
    }
}
