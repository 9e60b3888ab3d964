package org.lbsim.cli.sweep;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.lbsim.api.FieldPath;
import org.lbsim.api.Lbsim;
import org.lbsim.api.ScenarioText;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.cli.files.ScenarioLoader;
import org.lbsim.cli.errors.UserError;
import org.lbsim.cli.files.Yaml;
import org.lbsim.cli.store.ScenarioColumns;

/**
 * A sweep file, read and expanded into its points (see docs/sweeps.md):
 * <pre>
 * name: schemes                  # default: the file name without .yaml
 * baseFile: quickstart.yaml      # or base: {a scenario}; relative to the sweep file
 * grid:                          # cartesian product, first key varies slowest
 *   loadBalancing.type: [ecmp, host-spray]
 *   workload.messageBytes: [65536, 1048576]
 * points:                        # explicit points; with a grid, each is combined with every grid point
 *   - {lossRecovery.type: sack}
 * seeds: 2                       # seed i = the point's seed + i
 * quick: {topology.k: 4}         # overrides of the base applied with --quick
 * </pre>
 * Every point is bound to a {@link Scenario} here; a binding error names the point and the field.
 */
public final class SweepFile {
    public static final List<String> KEYS = List.of("name", "base", "baseFile", "grid", "points", "seeds", "quick");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    public static final int MAX_RUNS = 1_000_000;

    /** One point: its index, the fields it sets (in order) and its scenario with the first seed. */
    public record Point(int index, Map<String, Object> assignments, Scenario scenario) {
        /** {@code point 3 (loadBalancing.type=ecmp, workload.messageBytes=65536)}. */
        public String describe() {
            StringBuilder sb = new StringBuilder("point ").append(index);
            if (!assignments.isEmpty()) {
                sb.append(" (");
                boolean first = true;
                for (Map.Entry<String, Object> e : assignments.entrySet()) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    sb.append(e.getKey()).append('=').append(flow(e.getValue()));
                }
                sb.append(')');
            }
            return sb.toString();
        }
    }

    public final String shown;
    public final String name;
    public final Path baseDir;
    public final int seeds;
    public final List<Point> points;
    /** The field paths the grid and the points set, in order of first appearance. */
    public final List<String> varied;

    /** Where the values of the points come from, for messages. */
    private final Origins origins;
    /** For each point index, where in the sweep file each of its assignments' values is. */
    private final Map<Integer, Map<String, String>> sourcesOf;

    private SweepFile(String shown, String name, Path baseDir, int seeds, List<Point> points, List<String> varied, Origins origins,
            Map<Integer, Map<String, String>> sourcesOf) {
        this.shown = shown;
        this.name = name;
        this.baseDir = baseDir;
        this.seeds = seeds;
        this.points = points;
        this.varied = varied;
        this.origins = origins;
        this.sourcesOf = sourcesOf;
    }

    /**
     * {@code file:line:column} of the value behind {@code field} in point {@code p}: the grid or point value that sets
     * it, a quick override, or the base scenario ({@code base.yaml:4:7 (the baseFile of sweep.yaml:2:1)}).
     */
    public String where(Point p, String field) {
        return origins.where(field, p.assignments(), sourcesOf.getOrDefault(p.index(), Map.of()));
    }

    public int runs() {
        return points.size() * seeds;
    }

    /** The key in the results store of point {@code p}'s run with seed {@code seed}: {@code <sweep>-p<point>-seed<seed>}. */
    public String runId(Point p, long seed) {
        return name + "-p" + p.index() + "-seed" + seed;
    }

    /**
     * Reads and expands a sweep file. Any problem is a {@link UserError} naming the file (and the
     * point and field for a binding error).
     *
     * @param seedsOverride {@code --seeds}, or null
     * @param quick         {@code --quick}: apply the {@code quick:} overrides, one seed unless {@code --seeds}, name + "-quick"
     */
    public static SweepFile load(String shownName, Integer seedsOverride, boolean quick) {
        return load(shownName, seedsOverride, quick, null);
    }

    /**
     * As {@link #load(String, Integer, boolean)}, with a line on {@code err} now and then while a large
     * grid's points are bound and compared ({@link PhaseProgress}); null for none.
     */
    public static SweepFile load(String shownName, Integer seedsOverride, boolean quick, java.io.PrintStream err) {
        Path file = Path.of(shownName).toAbsolutePath().normalize();
        Yaml.Document doc = Yaml.readWithPositions(file, shownName);
        Object tree = doc.tree();
        if (!(tree instanceof Map<?, ?> top)) {
            throw UserError.at(shownName, "", (tree == null ? "the sweep file is empty" : "expected a map at the top level, got "
                    + ScenarioText.describe(tree)) + "; expected keys " + String.join(", ", KEYS));
        }
        if (!top.containsKey("base") && !top.containsKey("baseFile") && (top.containsKey("topology") || top.containsKey("workload"))) {
            throw UserError.at(shownName, "", "this is a scenario file, not a sweep file: run it with 'lbsim run " + shownName
                    + "', or sweep it from a sweep file with 'baseFile: " + file.getFileName() + "' and a grid or points (docs/sweeps.md)");
        }
        Errors errors = new Errors(doc, shownName);
        for (Object k : top.keySet()) {
            String key = String.valueOf(k);
            if (!KEYS.contains(key)) {
                errors.add(key, "unknown key" + ScenarioText.closest(key, KEYS).map(s -> ", did you mean '" + s + "'?").orElse("")
                        + " (allowed keys: " + String.join(", ", KEYS) + ")");
            }
        }

        String name = stem(file);
        if (top.containsKey("name")) {
            if (!(top.get("name") instanceof String n) || !NAME.matcher(n).matches()) {
                errors.add("name", "expected letters, digits, '.', '_' or '-' (it names the runs), got " + ScenarioText.describe(top.get("name")));
            } else if (n.length() > Scenario.MAX_NAME_LENGTH) {
                errors.add("name", "must be at most " + Scenario.MAX_NAME_LENGTH + " characters (it names the runs and their folder), got " + n.length());
            } else {
                name = n;
            }
        }

        // the base scenario
        Map<String, Object> base = new LinkedHashMap<>();
        Path baseDir = file.getParent();
        Origins origins = new Origins(doc, shownName, null, null, null, new ArrayList<>());
        boolean baseRead = true;
        if (top.containsKey("base") && top.containsKey("baseFile")) {
            errors.add("baseFile", "give either base (a scenario) or baseFile (a scenario file), not both");
            baseRead = false;
        } else if (top.containsKey("baseFile")) {
            if (!(top.get("baseFile") instanceof String bf) || bf.isBlank()) {
                errors.add("baseFile", "expected the path of a scenario file, got " + ScenarioText.describe(top.get("baseFile")));
                baseRead = false;
            } else {
                Path baseFile = baseDir.resolve(bf).normalize();
                String baseShown = ScenarioLoader.shownPath(baseFile);
                String referrer = "the baseFile of " + doc.where(shownName, "baseFile");
                try {
                    Yaml.Document baseDoc = Yaml.readWithPositions(baseFile, baseShown);
                    Object b = baseDoc.tree();
                    if (!(b instanceof Map)) {
                        Lbsim.bind(b); // the binder's message for an empty or non-map scenario
                    }
                    base = stringMap(b);
                    baseDir = baseFile.getParent();
                    origins = new Origins(doc, shownName, baseDoc, baseShown, referrer, origins.quickKeys());
                } catch (UserError e) {
                    e.lines().forEach(line -> errors.lines.add(referred(line, baseShown, referrer)));
                    baseRead = false;
                } catch (ScenarioException e) {
                    errors.lines.add(UserError.at(baseShown + " (" + referrer + ")", e.field(), Yaml.oneLine(e.problem())).getMessage());
                    baseRead = false;
                }
            }
        } else if (top.containsKey("base")) {
            Object b = top.get("base");
            if (b != null && !(b instanceof Map)) {
                errors.add("base", "expected a scenario (a map), got " + ScenarioText.describe(b));
                baseRead = false;
            } else {
                base = stringMap(b);
            }
        }

        int seeds = 1;
        if (top.containsKey("seeds")) {
            Object s = top.get("seeds");
            if (!(s instanceof Integer i) || i < 1) {
                errors.add("seeds", "expected a positive integer (the number of seeds per point), got " + ScenarioText.describe(s));
            } else {
                seeds = i;
            }
        }
        if (quick) {
            seeds = 1;
        }
        if (seedsOverride != null) {
            if (seedsOverride < 1) {
                throw UserError.at("--seeds " + seedsOverride, "", "must be a positive integer");
            }
            seeds = seedsOverride;
        }

        Map<String, List<Object>> grid = new LinkedHashMap<>();
        if (top.containsKey("grid") && top.get("grid") != null) {
            if (!(top.get("grid") instanceof Map<?, ?> g)) {
                errors.add("grid", "expected a map of field paths to lists of values, got " + ScenarioText.describe(top.get("grid")));
            } else {
                for (Map.Entry<?, ?> e : g.entrySet()) {
                    String path = String.valueOf(e.getKey());
                    String field = "grid." + path;
                    String other = isPath(path) ? grid.keySet().stream().filter(o -> overlap(path, o)).findFirst().orElse(null) : null;
                    if (!isPath(path)) {
                        errors.add(field, notAPath(path));
                    } else if (other != null) {
                        errors.add(field, "overlaps grid key '" + other + "' (both set " + (path.length() < other.length() ? other : path)
                                + "); set each field once");
                    } else if (!(e.getValue() instanceof List<?> values) || values.isEmpty()) {
                        errors.add(field, "expected a non-empty list of values, such as [1, 2], got " + ScenarioText.describe(e.getValue()));
                    } else {
                        grid.put(path, new ArrayList<>(values));
                    }
                }
            }
        }

        List<Map<String, Object>> listed = new ArrayList<>();
        if (top.containsKey("points") && top.get("points") != null) {
            if (!(top.get("points") instanceof List<?> ps)) {
                errors.add("points", "expected a list of maps of field paths to values, got " + ScenarioText.describe(top.get("points")));
            } else {
                for (int i = 0; i < ps.size(); i++) {
                    Object p = ps.get(i);
                    Map<String, Object> point = new LinkedHashMap<>();
                    listed.add(point);
                    if (p != null && !(p instanceof Map)) {
                        errors.add("points[" + i + "]", "expected a map of field paths to values, such as {topology.k: 8}, got " + ScenarioText.describe(p));
                        continue;
                    }
                    if (p == null) {
                        continue;
                    }
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) p).entrySet()) {
                        String path = String.valueOf(e.getKey());
                        String field = "points[" + i + "]." + path;
                        if (!isPath(path)) {
                            errors.add(field, notAPath(path));
                            continue;
                        }
                        if (grid.containsKey(path)) {
                            errors.add(field, "is also a grid key; set a field in the grid or in the points, not both");
                            continue;
                        }
                        String inGrid = grid.keySet().stream().filter(o -> overlap(path, o)).findFirst().orElse(null);
                        if (inGrid != null) {
                            errors.add(field, "overlaps grid key '" + inGrid + "' (both set " + (path.length() < inGrid.length() ? inGrid : path)
                                    + "); set a field in the grid or in the points, not both");
                            continue;
                        }
                        String inPoint = point.keySet().stream().filter(o -> overlap(path, o)).findFirst().orElse(null);
                        if (inPoint != null) {
                            errors.add(field, "overlaps '" + inPoint + "' of the same point (both set " + (path.length() < inPoint.length() ? inPoint : path)
                                    + "); set each field once");
                            continue;
                        }
                        point.put(path, e.getValue());
                    }
                }
            }
        }
        if (listed.isEmpty()) {
            listed.add(new LinkedHashMap<>());
        }

        Object quickMap = top.get("quick");
        if (quickMap != null && !(quickMap instanceof Map)) {
            errors.add("quick", "expected a map of field paths to values, got " + ScenarioText.describe(quickMap));
        } else if (quick) {
            name = name + "-quick";
            if (quickMap != null) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) quickMap).entrySet()) {
                    String path = String.valueOf(e.getKey());
                    if (!isPath(path)) {
                        errors.add("quick." + path, notAPath(path));
                        continue;
                    }
                    try {
                        set(base, path, e.getValue());
                        origins.quickKeys().add(path);
                    } catch (ScenarioException x) {
                        errors.add("quick." + path, x.field() + ": " + x.problem());
                    }
                }
            }
        }

        long combos = listed.size();
        for (List<Object> values : grid.values()) {
            combos *= values.size();
            if (combos * seeds > MAX_RUNS) {
                break;
            }
        }
        if (combos * seeds > MAX_RUNS) {
            errors.add("grid", "more than " + MAX_RUNS + " runs; split the sweep");
            errors.throwIfAny();
        }
        if (!baseRead) {
            errors.throwIfAny(); // the points of a base that could not be read would only repeat its errors
        }

        Set<String> varied = new LinkedHashSet<>();
        for (Map<String, Object> p : listed) {
            varied.addAll(p.keySet());
        }
        varied.addAll(grid.keySet());

        PhaseProgress progress = new PhaseProgress(err, "sweep " + name);
        List<Point> points = new ArrayList<>();
        Map<Integer, Map<String, String>> sourcesOf = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(grid.keySet());
        // every distinct error of the sweep at once (the first point showing each), not one per run
        Map<String, String> bindErrors = new LinkedHashMap<>();
        int index = 0;
        for (int li = 0; li < listed.size(); li++) {
            Map<String, Object> p = listed.get(li);
            int[] odometer = new int[keys.size()];
            while (true) {
                Map<String, Object> assignments = new LinkedHashMap<>(p);
                // where in the sweep file each assignment's value is
                Map<String, String> sources = new LinkedHashMap<>();
                for (String key : p.keySet()) {
                    sources.put(key, "points[" + li + "]." + key);
                }
                for (int k = 0; k < keys.size(); k++) {
                    assignments.put(keys.get(k), grid.get(keys.get(k)).get(odometer[k]));
                    sources.put(keys.get(k), "grid." + keys.get(k) + "[" + odometer[k] + "]");
                }
                progress.step("binding points", index, combos);
                sourcesOf.put(index, sources);
                Point bound = bind(origins, index++, base, assignments, sources, bindErrors);
                if (bound != null) {
                    points.add(bound);
                }
                int k = keys.size() - 1;
                while (k >= 0 && ++odometer[k] == grid.get(keys.get(k)).size()) {
                    odometer[k] = 0;
                    k--;
                }
                if (k < 0) {
                    break;
                }
            }
        }
        errors.lines.addAll(bindErrors.values());
        errors.throwIfAny();
        refuseSeedOverflow(origins, points, sourcesOf, seeds);
        String pointsField = !grid.isEmpty() && listed.size() == 1 ? "grid" : "points";
        refuseDuplicates(doc.where(shownName, pointsField), points, seeds, pointsField, progress);
        return new SweepFile(shownName, name, baseDir, seeds, List.copyOf(points), List.copyOf(varied), origins, Map.copyOf(sourcesOf));
    }

    /**
     * The points whose scenario has, for every {@code --only KEY=V1,V2} filter, one of the listed
     * values at field path KEY (compared as the results database stores it: numbers by value). The
     * kept points keep their indices, so their run ids are the full sweep's and a later run of
     * the whole sweep into the same folder resumes instead of repeating them.
     *
     * @param filters {@code --only} values, each {@code KEY=V1[,V2...]}; empty keeps every point
     */
    public SweepFile only(List<String> filters) {
        if (filters == null || filters.isEmpty()) {
            return this;
        }
        List<Map<String, Object>> columns = new ArrayList<>();
        for (Point p : points) {
            Map<String, Object> c = new LinkedHashMap<>(ScenarioColumns.of(p.scenario()));
            c.put("name", p.scenario().name()); // a point's name, as the sweep's points give it
            columns.add(c);
        }
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            kept.add(i);
        }
        for (String filter : filters) {
            String flag = "--only " + filter;
            int eq = filter.indexOf('=');
            if (eq <= 0 || eq == filter.length() - 1) {
                throw UserError.at(flag, "", "expected KEY=VALUE[,VALUE...] with a field path of the scenario, such as topology.k=4,8");
            }
            String key = filter.substring(0, eq).strip();
            List<String> values = Stream.of(filter.substring(eq + 1).split(",", -1)).map(String::strip).toList();
            if (key.contains("[") && columns.stream().noneMatch(c -> c.containsKey(key))) {
                List<Object> path = indexedPath(key);
                for (int i = 0; path != null && i < points.size(); i++) {
                    ScenarioColumns.addIndexed(points.get(i).scenario(), path, key, columns.get(i));
                }
            }
            Set<String> present = new LinkedHashSet<>();
            for (Map<String, Object> c : columns) {
                if (c.containsKey(key)) {
                    present.add(String.valueOf(c.get(key)));
                }
            }
            if (present.isEmpty()) {
                throw UserError.at(flag, key, "is not a field of this sweep's scenarios (the fields it varies: " + String.join(", ", varied) + ")");
            }
            for (String v : values) {
                try {
                    ScenarioText.setValue(v); // the reading of --set: 010 or 0x10 are refused here too
                } catch (ScenarioText.Refused e) {
                    throw UserError.at(flag, key, e.getMessage());
                }
                if (columns.stream().noneMatch(c -> c.containsKey(key) && matches(c.get(key), v))) {
                    throw UserError.at(flag, key, "no point of " + shown + " has " + key + " = '" + v + "' (its values: "
                            + String.join(", ", present) + ")");
                }
            }
            kept.removeIf(i -> values.stream().noneMatch(v -> matches(columns.get(i).get(key), v)));
        }
        if (kept.isEmpty()) {
            throw UserError.at("--only " + String.join(" --only ", filters), "", "no point of " + shown + " matches every filter");
        }
        return new SweepFile(shown, name, baseDir, seeds, kept.stream().map(points::get).toList(), varied, origins, sourcesOf);
    }

    /** The segments of a field path with list indices, or null when it is not a valid path. */
    private static List<Object> indexedPath(String key) {
        return FieldPath.parse(key).map(FieldPath::segments).orElse(null);
    }

    /** A stored column value against a command-line value: numbers by value (8 = 8.0), the rest as text. */
    private static boolean matches(Object column, String value) {
        if (column instanceof Number n) {
            try {
                return new BigDecimal(n.toString()).compareTo(new BigDecimal(value)) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return String.valueOf(column).equals(value);
    }

    /** Whether two field paths set the same field: equal, or one a prefix of the other (topology vs topology.k). */
    public static boolean overlap(String a, String b) {
        return FieldPath.of(a).overlaps(FieldPath.of(b));
    }

    /** Seed i of a point is its seed + i: a point whose last seed would pass Long.MAX_VALUE (and wrap to negative seeds) is refused. */
    private static void refuseSeedOverflow(Origins origins, List<Point> points, Map<Integer, Map<String, String>> sourcesOf, int seeds) {
        long highest = Long.MAX_VALUE - (seeds - 1);
        for (Point p : points) {
            long seed = p.scenario().seed();
            if (seed > highest) {
                throw UserError.at(origins.where("seed", p.assignments(), sourcesOf.get(p.index())) + ": " + p.describe(), "seed", "seed " + seed
                        + " with " + seeds + " seeds per point would run seeds up to " + BigInteger.valueOf(seed).add(BigInteger.valueOf(seeds - 1))
                        + ", beyond the largest seed " + Long.MAX_VALUE + "; use a seed of at most " + highest);
            }
        }
    }

    /** Two points that would run the same scenario with the same seed (their seed ranges overlap) are refused. */
    private static void refuseDuplicates(String where, List<Point> points, int seeds, String field, PhaseProgress progress) {
        Map<String, List<Point>> byScenario = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            progress.step("comparing points", i, points.size());
            Point p = points.get(i);
            String key = Yaml.write(Lbsim.tree(p.scenario().withSeed(0)));
            List<Point> same = byScenario.computeIfAbsent(key, k -> new ArrayList<>());
            for (Point q : same) {
                long seed = Math.max(p.scenario().seed(), q.scenario().seed());
                long gap = seed - Math.min(p.scenario().seed(), q.scenario().seed()); // exact as an unsigned number
                if (Long.compareUnsigned(gap, seeds) < 0) {
                    throw UserError.at(where, field, p.describe() + " runs the same scenario as " + q.describe() + " (seed " + seed
                            + " in both); remove the duplicate");
                }
            }
            same.add(p);
        }
    }

    /**
     * The point, or null after adding its errors (keyed by field and problem) to {@code errors}, each at the line
     * and column of the value it comes from: the grid or point value that sets the field, a quick override, or the
     * base scenario.
     */
    private static Point bind(Origins origins, int index, Map<String, Object> base, Map<String, Object> assignments, Map<String, String> sources,
            Map<String, String> errors) {
        String point = new Point(index, assignments, null).describe();
        Map<String, Object> tree = copy(base);
        for (Map.Entry<String, Object> e : assignments.entrySet()) {
            try {
                set(tree, e.getKey(), e.getValue());
            } catch (ScenarioException x) {
                String where = origins.doc().where(origins.shown(), sources.get(e.getKey())) + ": " + point;
                errors.putIfAbsent(x.field() + "\u0000" + x.problem(), UserError.at(where, x.field(), x.problem()).getMessage());
                return null;
            }
        }
        try {
            return new Point(index, assignments, Lbsim.bind(tree));
        } catch (ScenarioException x) {
            for (ScenarioException one : x.all()) {
                String where = origins.where(one.field(), assignments, sources) + ": " + point;
                errors.putIfAbsent(one.field() + "\u0000" + one.problem(), UserError.at(where, one.field(), Yaml.oneLine(one.problem())).getMessage());
            }
            return null;
        }
    }

    /** The errors of a sweep file, each at the line and column of its field, reported together. */
    private static final class Errors {
        private final Yaml.Document doc;
        private final String shown;
        private final List<String> lines = new ArrayList<>();

        Errors(Yaml.Document doc, String shown) {
            this.doc = doc;
            this.shown = shown;
        }

        void add(String field, String problem) {
            lines.add(UserError.at(doc.where(shown, field), field, problem).getMessage());
        }

        void throwIfAny() {
            if (!lines.isEmpty()) {
                throw UserError.lines(List.copyOf(lines));
            }
        }
    }

    /**
     * Where the values of a point come from: the sweep file ({@code doc}, shown as {@code shown}), its base file
     * ({@code baseDoc}, null for an inline base, named with {@code referrer}: "the baseFile of sweep.yaml:2:11"), and
     * the quick overrides applied.
     */
    private record Origins(Yaml.Document doc, String shown, Yaml.Document baseDoc, String baseShown, String referrer, List<String> quickKeys) {
        /**
         * {@code file:line:column} of the value behind {@code field} in a point: the grid or point value that sets it
         * or a map around it, else a quick override that does, else the base scenario ({@code base.yaml:4:7 (the
         * baseFile of sweep.yaml:2:11)}).
         */
        String where(String field, Map<String, Object> assignments, Map<String, String> sources) {
            String f = field == null ? "" : field;
            for (String k : assignments.keySet()) {
                if (covers(k, f)) {
                    return doc.where(shown, sources.get(k));
                }
            }
            for (String k : quickKeys) {
                if (covers(k, f)) {
                    return doc.where(shown, "quick." + k);
                }
            }
            if (baseDoc != null) {
                return baseDoc.where(baseShown, f) + " (" + referrer + ")";
            }
            return doc.where(shown, f.isEmpty() ? "base" : "base." + f);
        }
    }

    /** Whether the field path {@code key} sets {@code field}: equal, or a map or list around it. */
    private static boolean covers(String key, String field) {
        if (field.isEmpty() || !isPath(field)) {
            return false;
        }
        return FieldPath.of(key).covers(FieldPath.of(field));
    }

    /**
     * An error line of a base file, naming the sweep file that points to it: {@code base.yaml:3:5: ...} becomes
     * {@code base.yaml:3:5 (the baseFile of sweep.yaml:2:11): ...}.
     */
    private static String referred(String line, String baseShown, String referrer) {
        java.util.regex.Matcher m = Pattern.compile("^" + Pattern.quote(baseShown) + "(?::\\d+){0,2}").matcher(line);
        return m.find() ? line.substring(0, m.end()) + " (" + referrer + ")" + line.substring(m.end()) : line + " (" + referrer + ")";
    }

    private static boolean isPath(String path) {
        return FieldPath.parse(path).isPresent();
    }

    private static String notAPath(String path) {
        return "'" + path + "' is not a field path; expected keys separated by dots, such as topology.k or failures.links[0].a";
    }

    /**
     * Sets a field path (as {@code --set} understands it) to a YAML value (scalar, map or list),
     * creating maps and lists on the way; an index equal to a list's length appends.
     */
    @SuppressWarnings("unchecked")
    public static void set(Map<String, Object> root, String pathText, Object value) {
        List<Object> path = FieldPath.of(pathText).segments();
        Object container = root;
        StringBuilder at = new StringBuilder();
        for (int i = 0; i < path.size(); i++) {
            Object seg = path.get(i);
            boolean last = i == path.size() - 1;
            Object fresh = last ? copy(value) : path.get(i + 1) instanceof Integer ? new ArrayList<>() : new LinkedHashMap<String, Object>();
            if (seg instanceof String key) {
                if (!(container instanceof Map)) {
                    throw new ScenarioException(at.toString(), "is " + ScenarioText.describe(container) + ", not a map, so it has no key '" + key + "'");
                }
                Map<String, Object> m = (Map<String, Object>) container;
                if (last || m.get(key) == null) {
                    m.put(key, fresh);
                }
                container = m.get(key);
                at.append(at.length() == 0 ? "" : ".").append(key);
            } else {
                int index = (Integer) seg;
                if (!(container instanceof List)) {
                    throw new ScenarioException(at.toString(), "is " + ScenarioText.describe(container) + ", not a list, so it has no element [" + index + "]");
                }
                List<Object> l = (List<Object>) container;
                if (index > l.size()) {
                    throw new ScenarioException(at.toString(), "has " + l.size() + " elements; index " + index + " is out of range");
                }
                if (index == l.size()) {
                    l.add(fresh);
                } else if (last || l.get(index) == null) {
                    l.set(index, fresh);
                }
                container = l.get(index);
                at.append('[').append(index).append(']');
            }
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> T copy(T value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> c = new LinkedHashMap<>();
            m.forEach((k, v) -> c.put(String.valueOf(k), copy(v)));
            return (T) c;
        }
        if (value instanceof List<?> l) {
            List<Object> c = new ArrayList<>(l.size());
            l.forEach(v -> c.add(copy(v)));
            return (T) c;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stringMap(Object tree) {
        return tree == null ? new LinkedHashMap<>() : (Map<String, Object>) copy(tree); // copy() makes every key a string
    }

    private static String stem(Path file) {
        String n = file.getFileName().toString().replaceFirst("\\.(ya?ml)$", "").replaceAll("[^A-Za-z0-9._-]+", "_");
        return n.isEmpty() || !Character.isLetterOrDigit(n.charAt(0)) ? "sweep" + n : n;
    }

    /** A value in YAML flow style, for messages: {@code 4}, {@code ecmp}, {@code {type: sack, threshold: 3}}, {@code [a, b]}. */
    public static String flow(Object v) {
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(sb.length() > 1 ? ", " : "").append(e.getKey()).append(": ").append(flow(e.getValue()));
            }
            return sb.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : l) {
                sb.append(sb.length() > 1 ? ", " : "").append(flow(o));
            }
            return sb.append(']').toString();
        }
        if (v instanceof BigInteger || v instanceof Number || v instanceof Boolean) {
            return String.valueOf(v);
        }
        return v == null ? "null" : String.valueOf(v);
    }
}
