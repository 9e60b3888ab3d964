package org.lbsim.cli.ledger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.lbsim.cli.errors.UserError;

/**
 * What a reproduction declares for the ledger, before any result: the paper's setting against
 * ours, its readings of the paper (each with the sentence it rests on; one is the default), the
 * per-run measures it keeps from the tables that are not committed, and its claims.
 *
 * @param name        the reproduction's name
 * @param title       its title
 * @param paperText   what the paper reports (the reproduction's {@code paper} text)
 * @param notes       what differs and why (its {@code notes} text)
 * @param paperSetting the paper's setting in one sentence
 * @param ourSetting  ours, every departure named
 * @param headline    the id of the claim shown in the paper's one-screen table
 * @param readingOf   the reproduction of the same figure this one reads otherwise, added after that one's default
 *                    reading differed (null for a figure's own reproduction): every verdict of this one says so
 * @param readings    the readings, the default first
 * @param measures    per-run SQL scalar expressions over {@code runs} (the current run is {@code runs.run_id}) by name
 * @param claims      the claims
 */
public record FigureDef(String name, String title, String paperText, String notes, String paperSetting, String ourSetting, String headline,
                        String readingOf, List<Reading> readings, Map<String, String> measures, List<ClaimDef> claims) {

    /**
     * A reading of an underspecified paper: which runs it selects ({@code where}, SQL over
     * {@code results}), the paper's sentence (or the authors' code) it rests on, whether it was
     * added after the default reading's results differed from the paper, and, for the default,
     * whether it became the default after another reading's results were seen (its text still
     * supporting it best): its verdicts then say so.
     */
    public record Reading(String name, String where, String restsOn, boolean isDefault, boolean addedAfterDefaultDiffered,
                          boolean madeDefaultAfterResults) {
    }

    /** Claim kinds: a shape claim is about order or sign, a magnitude claim about the paper's numbers. */
    public enum ClaimKind { SHAPE, MAGNITUDE }

    /**
     * One of the paper's statements: its text, its number(s) as the paper gives them, the metric
     * (SQL over {@code results} returning {@code seed}, {@code value} and optionally {@code key} and
     * {@code item}; {@code {where}} stands for the reading's runs) and the declared comparison.
     */
    public record ClaimDef(String id, ClaimKind kind, String paper, String paperNumber, String metric, Expectation expect) {
    }

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,40}");
    private static final Set<String> LEDGER_KEYS = Set.of("paper", "setting", "headline", "readingOfAfterItDiffered");
    private static final Set<String> CLAIM_KEYS = Set.of("id", "kind", "paper", "number", "metric", "expect");
    private static final Set<String> READING_KEYS = Set.of("name", "where", "restsOn", "default", "addedAfterDefaultDiffered",
            "madeDefaultAfterResults");

    /** The paper (ledger page) a reproduction names, or null when it names none. */
    public static String paperOf(Map<String, Object> def) {
        return def.get("ledger") instanceof Map<?, ?> l && l.get("paper") instanceof String p ? p : null;
    }

    /** As {@link #parse(String, Map, UnaryOperator)}, its errors naming the file {@code reproduce/NAME.yaml} without a position. */
    public static FigureDef parse(String name, Map<String, Object> def) {
        String file = "reproduce/" + name + ".yaml";
        return parse(name, def, field -> file);
    }

    /**
     * The ledger part of reproduction {@code name}'s definition {@code def}, checked: every error is a {@link UserError}
     * starting with {@code at} of the field at fault (the file, and where it has one, {@code :line:column}).
     */
    @SuppressWarnings("unchecked")
    public static FigureDef parse(String name, Map<String, Object> def, UnaryOperator<String> at) {
        if (!(def.get("ledger") instanceof Map<?, ?>)) {
            throw UserError.at(at.apply("ledger"), "ledger", "expected {paper: NAME, setting: {paper: ..., ours: ...}, headline: CLAIM-ID}: every reproduction"
                    + " declares its paper, its setting against the paper's and its claims (docs/reproductions.md, The results ledger)");
        }
        Map<String, Object> ledger = map(def.get("ledger"), at, "ledger");
        for (String k : ledger.keySet()) {
            if (!LEDGER_KEYS.contains(k)) {
                throw UserError.at(at.apply("ledger." + k), "ledger." + k, "unknown key; expected paper, setting, headline, readingOfAfterItDiffered");
            }
        }
        Map<String, Object> setting = map(ledger.get("setting"), at, "ledger.setting");
        String paperSetting = text(setting.get("paper"), at, "ledger.setting.paper");
        String ourSetting = text(setting.get("ours"), at, "ledger.setting.ours");

        List<Reading> readings = new ArrayList<>();
        if (def.containsKey("readings")) {
            List<Object> list = list(def.get("readings"), at, "readings");
            for (int i = 0; i < list.size(); i++) {
                String f = "readings[" + i + "]";
                Map<String, Object> r = map(list.get(i), at, f);
                for (String k : r.keySet()) {
                    if (!READING_KEYS.contains(k)) {
                        throw UserError.at(at.apply(f + "." + k), f + "." + k, "unknown key; expected name, where, restsOn, default, addedAfterDefaultDiffered,"
                                + " madeDefaultAfterResults");
                    }
                }
                boolean isDefault = Boolean.TRUE.equals(r.get("default"));
                boolean after = Boolean.TRUE.equals(r.get("addedAfterDefaultDiffered"));
                boolean madeDefault = Boolean.TRUE.equals(r.get("madeDefaultAfterResults"));
                if (isDefault && after) {
                    throw UserError.at(at.apply(f), f, "the default reading cannot be one added after the default differed"
                            + " (a default chosen after results says madeDefaultAfterResults: true)");
                }
                if (madeDefault && !isDefault) {
                    throw UserError.at(at.apply(f + ".madeDefaultAfterResults"), f + ".madeDefaultAfterResults", "only the default reading can have become the default after results");
                }
                readings.add(new Reading(id(r.get("name"), at, f + ".name"), text(r.get("where"), at, f + ".where"),
                        text(r.get("restsOn"), at, f + ".restsOn"), isDefault, after, madeDefault));
            }
            if (readings.stream().filter(Reading::isDefault).count() != 1) {
                throw UserError.at(at.apply("readings"), "readings", "exactly one reading must be the default (default: true)");
            }
            readings.sort((a, b) -> Boolean.compare(b.isDefault(), a.isDefault()));
        } else {
            readings.add(new Reading("as-run", "TRUE", "the only reading run", true, false, false));
        }

        Map<String, String> measures = new LinkedHashMap<>();
        if (def.containsKey("measures")) {
            for (Map.Entry<String, Object> m : map(def.get("measures"), at, "measures").entrySet()) {
                if (!m.getKey().matches("[a-z][a-z0-9_]{0,40}")) {
                    throw UserError.at(at.apply("measures." + m.getKey()), "measures." + m.getKey(), "a measure's name is lower-case letters, digits and _, starting with a letter");
                }
                measures.put(m.getKey(), text(m.getValue(), at, "measures." + m.getKey()));
            }
        }

        List<ClaimDef> claims = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<Object> list = list(def.get("claims"), at, "claims");
        for (int i = 0; i < list.size(); i++) {
            String f = "claims[" + i + "]";
            Map<String, Object> c = map(list.get(i), at, f);
            for (String k : c.keySet()) {
                if (!CLAIM_KEYS.contains(k)) {
                    throw UserError.at(at.apply(f + "." + k), f + "." + k, "unknown key; expected id, kind, paper, number, metric, expect");
                }
            }
            String id = id(c.get("id"), at, f + ".id");
            if (!ids.add(id)) {
                throw UserError.at(at.apply(f + ".id"), f + ".id", "'" + id + "' is the id of an earlier claim");
            }
            ClaimKind kind = switch (String.valueOf(c.get("kind"))) {
                case "shape" -> ClaimKind.SHAPE;
                case "magnitude" -> ClaimKind.MAGNITUDE;
                default -> throw UserError.at(at.apply(f + ".kind"), f + ".kind", "expected shape (an order or a sign) or magnitude (the paper's numbers)");
            };
            String metric = text(c.get("metric"), at, f + ".metric");
            if (!metric.contains("{where}")) {
                throw UserError.at(at.apply(f + ".metric"), f + ".metric", "must select the reading's runs with {where}");
            }
            claims.add(new ClaimDef(id, kind, text(c.get("paper"), at, f + ".paper"),
                    c.get("number") == null ? "" : String.valueOf(c.get("number")), metric, Expectation.parse(c.get("expect"), at, f + ".expect")));
        }
        if (claims.isEmpty()) {
            throw UserError.at(at.apply("claims"), "claims", "a reproduction in the ledger states at least one of the paper's claims");
        }
        String headline = String.valueOf(ledger.getOrDefault("headline", claims.get(0).id()));
        if (claims.stream().noneMatch(c -> c.id().equals(headline))) {
            throw UserError.at(at.apply("ledger.headline"), "ledger.headline", "'" + headline + "' is not the id of one of its claims");
        }
        Object of = ledger.get("readingOfAfterItDiffered");
        if (of != null && !(of instanceof String o && o.matches("[a-z0-9-]+") && !o.equals(name))) {
            throw UserError.at(at.apply("ledger.readingOfAfterItDiffered"), "ledger.readingOfAfterItDiffered", "expected the name of the reproduction of the same figure whose default"
                    + " reading differed, got " + of);
        }
        return new FigureDef(name, String.valueOf(def.get("title")), String.valueOf(def.getOrDefault("paper", "")).strip(),
                String.valueOf(def.getOrDefault("notes", "")).strip(), paperSetting, ourSetting, headline, (String) of, List.copyOf(readings), measures,
                claims);
    }

    /** The default reading. */
    public Reading defaultReading() {
        return readings.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, UnaryOperator<String> at, String field) {
        if (o instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw UserError.at(at.apply(field), field, "expected a map");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o, UnaryOperator<String> at, String field) {
        if (o instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw UserError.at(at.apply(field), field, "expected a list");
    }

    private static String text(Object o, UnaryOperator<String> at, String field) {
        if (o instanceof String s && !s.isBlank()) {
            return s.strip();
        }
        throw UserError.at(at.apply(field), field, "expected a non-empty text");
    }

    private static String id(Object o, UnaryOperator<String> at, String field) {
        if (o instanceof String s && ID.matcher(s).matches()) {
            return s;
        }
        throw UserError.at(at.apply(field), field, "expected an id of lower-case letters, digits and -, got " + o);
    }
}
