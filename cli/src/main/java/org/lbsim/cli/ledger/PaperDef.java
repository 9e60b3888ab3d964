package org.lbsim.cli.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lbsim.cli.errors.UserError;

/**
 * A paper's ledger page as declared in {@code reproduce/papers/NAME.yaml}: its title, what we take
 * from it, and every figure and table of its evaluation in the paper's order, each either a
 * reproduction's name or the reason it is not attempted.
 */
public record PaperDef(String name, String title, String intro, List<Entry> entries) {
    /** One figure or table of the paper's evaluation. */
    public record Entry(String figure, String reproduction, String notAttempted) {
        public boolean attempted() {
            return reproduction != null;
        }
    }

    private static final Set<String> KEYS = Set.of("title", "intro", "figures");

    @SuppressWarnings("unchecked")
    public static PaperDef parse(String name, Map<String, Object> def, List<String> reproductions) {
        String file = "reproduce/papers/" + name + ".yaml";
        for (String k : def.keySet()) {
            if (!KEYS.contains(k)) {
                throw UserError.at(file, k, "unknown key; expected title, intro, figures");
            }
        }
        if (!(def.get("title") instanceof String title) || title.isBlank()) {
            throw UserError.at(file, "title", "expected the paper's title");
        }
        if (!(def.get("figures") instanceof List<?> figures) || figures.isEmpty()) {
            throw UserError.at(file, "figures", "expected the list of the evaluation's figures and tables");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < figures.size(); i++) {
            String f = "figures[" + i + "]";
            if (!(figures.get(i) instanceof Map<?, ?> m)) {
                throw UserError.at(file, f, "expected {figure: ..., reproduction: NAME} or {figure: ..., notAttempted: why}");
            }
            Object fig = m.get("figure");
            Object rep = m.get("reproduction");
            Object not = m.get("notAttempted");
            if (!(fig instanceof String figure) || figure.isBlank()) {
                throw UserError.at(file, f + ".figure", "expected the figure's or table's label, e.g. \"Fig. 3\"");
            }
            if ((rep == null) == (not == null) || m.size() != 2) {
                throw UserError.at(file, f, "expected exactly one of reproduction and notAttempted beside figure");
            }
            if (rep != null && !reproductions.contains(String.valueOf(rep))) {
                throw UserError.at(file, f + ".reproduction", "'" + rep + "' is not a reproduction in reproduce/index.txt");
            }
            entries.add(new Entry(figure, rep == null ? null : String.valueOf(rep), not == null ? null : String.valueOf(not).strip()));
        }
        return new PaperDef(name, title.strip(), String.valueOf(((Map<String, Object>) def).getOrDefault("intro", "")).strip(), List.copyOf(entries));
    }
}
