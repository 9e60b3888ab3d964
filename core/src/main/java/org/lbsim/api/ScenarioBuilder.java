package org.lbsim.api;

import org.lbsim.scenario.SetException;
import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lbsim.api.Catalog.Choice;
import org.lbsim.api.Catalog.Node;
import org.lbsim.config.Overrides;
import org.lbsim.config.ScenarioBinder;
import org.lbsim.config.ScenarioTree;
import org.lbsim.metrics.RunResult;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.sim.PreparedRun;
import org.lbsim.sim.Simulation;

/**
 * A scenario put together in code, step by step, as a scenario file would be: every call changes a
 * scenario tree (the same maps a YAML file is read into), and {@link #build()} binds that tree with
 * {@link ScenarioBinder}, so defaults, validation and error messages are exactly those of
 * {@code lbsim run FILE --set ...}. Keys left out take their defaults.
 *
 * <pre>{@code
 * RunResult r = Lbsim.scenario().fatTree(4).linkRateGbps(400).permutation(1 << 20)
 *         .scheme("ofan").set("switches.ecn.kminBytes", 50_000).seed(7).run();
 * }</pre>
 *
 * <p>Errors are {@link ScenarioException}s naming the field path ({@code switches.ecn.kminByts: unknown
 * key, did you mean 'kminBytes'? ...}). Misspelt keys and type names are reported by the call that
 * makes them; values (an odd k, kmin above kmax) by {@link #build()}, since a later call may still
 * fix them. The builder is mutable and not thread-safe; {@link #copy()} forks it.
 */
public final class ScenarioBuilder {
    private Map<String, Object> tree;
    private Path baseDir;
    /** Fabric-wide link settings, applied to every link tier and again when the topology type changes. */
    private Double linkRateGbps;
    private Double linkDelayNs;

    ScenarioBuilder(Map<String, Object> tree) {
        this.tree = tree;
    }

    // --- the whole scenario ------------------------------------------------------------------------

    /** The free-form name shown in summaries. */
    public ScenarioBuilder name(String name) {
        return set("name", name);
    }

    /** The master seed; every random stream is split from it. */
    public ScenarioBuilder seed(long seed) {
        return set("seed", seed);
    }

    // --- topology -----------------------------------------------------------------------------------

    /** A 3-tier k-ary fat tree (k^3/4 hosts). Another topology type before is replaced by fat-tree's defaults. */
    public ScenarioBuilder fatTree(int k) {
        choose("topology", "fat-tree");
        return set("topology.k", k);
    }

    /** A 2-tier leaf-spine fabric. Another topology type before is replaced by leaf-spine's defaults. */
    public ScenarioBuilder leafSpine(int hostsPerLeaf, int leaves, int spines) {
        choose("topology", "leaf-spine");
        set("topology.hostsPerLeaf", hostsPerLeaf);
        set("topology.leaves", leaves);
        return set("topology.spines", spines);
    }

    /** The rate of every link of the fabric (every link tier of the topology), kept across topology changes. */
    public ScenarioBuilder linkRateGbps(double rateGbps) {
        linkRateGbps = rateGbps;
        applyLinks(true, false); // the delays as they are: a tier's delay set since stays
        return this;
    }

    /** The one-way propagation delay of every link of the fabric, kept across topology changes. */
    public ScenarioBuilder linkDelayNs(double delayNs) {
        linkDelayNs = delayNs;
        applyLinks(false, true); // the rates as they are: a tier's rate set since stays
        return this;
    }

    // --- workload -----------------------------------------------------------------------------------

    /** Every host sends one message of {@code messageBytes} to one other host (a random derangement). */
    public ScenarioBuilder permutation(long messageBytes) {
        return permutation(messageBytes, 0);
    }

    /** A permutation among the first {@code hosts} hosts (0 = all). */
    public ScenarioBuilder permutation(long messageBytes, int hosts) {
        replace("workload", "permutation");
        set("workload.messageBytes", messageBytes);
        return set("workload.hosts", hosts);
    }

    /** Every host sends {@code messageBytes} to every other host. */
    public ScenarioBuilder allToAll(long messageBytes) {
        return allToAll(messageBytes, 0);
    }

    /** An all-to-all among the first {@code hosts} hosts (0 = all). */
    public ScenarioBuilder allToAll(long messageBytes, int hosts) {
        replace("workload", "all-to-all");
        set("workload.messageBytes", messageBytes);
        return set("workload.hosts", hosts);
    }

    /** Flows from a CSV trace (src,dst,bytes,start_ns); a relative path resolves against {@link #baseDir(Path)}. */
    public ScenarioBuilder trace(String file) {
        replace("workload", "trace");
        return set("workload.file", file);
    }

    // --- the three layers -----------------------------------------------------------------------------

    /** The load-balancing scheme, by its name in {@code lbsim list schemes}; its parameters start at their defaults. */
    public ScenarioBuilder scheme(String name) {
        choose("loadBalancing", name);
        return this;
    }

    /** The congestion control, by its name in {@code lbsim list cc}. */
    public ScenarioBuilder congestionControl(String name) {
        choose("congestionControl", name);
        return this;
    }

    /** The loss recovery, by its name in {@code lbsim list recovery}. */
    public ScenarioBuilder lossRecovery(String name) {
        choose("lossRecovery", name);
        return this;
    }

    // --- failures -------------------------------------------------------------------------------------

    /** Fails the switch-to-switch link between {@code a} and {@code b} (such as e0 and a1) for the whole run. */
    public ScenarioBuilder failLink(String a, String b) {
        return failLink(a, b, 0);
    }

    /** Fails the {@code index}-th of the parallel links between {@code a} and {@code b}. */
    public ScenarioBuilder failLink(String a, String b, int index) {
        int n = tree.get("failures") instanceof Map<?, ?> f && f.get("links") instanceof List<?> l ? l.size() : 0;
        Map<String, Object> link = new LinkedHashMap<>();
        link.put("a", a);
        link.put("b", b);
        link.put("index", index);
        return set("failures.links[" + n + "]", link);
    }

    // --- anything ---------------------------------------------------------------------------------------

    /**
     * Sets any field by its path, as {@code --set} does: {@code switches.ecn.kminBytes},
     * {@code loadBalancing.subflows}, {@code failures.links[0].a} (an index equal to the list's length
     * appends). The value is a number, boolean, string, enum, list, map or a scenario record
     * ({@code new LinkSpec(400, 1000)}, {@code BufferSpec.defaults()}), taken as it is (no YAML parsing).
     *
     * @throws ScenarioException for a malformed path, a key the schema does not have at that place
     *                           (given the types chosen so far) or a value of an unsupported Java type
     */
    public ScenarioBuilder set(String path, Object value) {
        List<Object> segments = Resolver.segments(path);
        Object v = normalize(value, path);
        Map<String, Object> next = applyOverrides(List.of(path + "=null"), path);
        put(next, segments, v);
        check(next, segments);
        tree = next;
        return this;
    }

    /**
     * Applies {@code --set} arguments ({@code "topology.k=4"}, {@code "loadBalancing.type=host-spray"}),
     * with their values read as YAML scalars exactly as on the command line.
     */
    public ScenarioBuilder override(String... assignments) {
        for (String a : assignments) {
            Map<String, Object> next = applyOverrides(List.of(a), a);
            check(next, Overrides.parse(a).path());
            tree = next;
        }
        return this;
    }

    /** Where a relative trace path is resolved (default: the working directory). */
    public ScenarioBuilder baseDir(Path dir) {
        this.baseDir = dir;
        return this;
    }

    /** An independent builder with the same settings. */
    public ScenarioBuilder copy() {
        ScenarioBuilder b = new ScenarioBuilder(Overrides.deepCopy(tree));
        b.baseDir = baseDir;
        b.linkRateGbps = linkRateGbps;
        b.linkDelayNs = linkDelayNs;
        return b;
    }

    /** The scenario tree so far (a copy): only the keys that were set; binding fills in the rest. */
    public Map<String, Object> toTree() {
        return Overrides.deepCopy(tree);
    }

    // --- results ------------------------------------------------------------------------------------------

    /** The validated, immutable scenario. @throws ScenarioException naming the field path */
    public Scenario build() {
        return ScenarioBinder.bind(tree);
    }

    /**
     * Builds the fabric, routing, workload and transport without simulating; checks what only the built
     * fabric can tell (failed links that exist, trace hosts in range). @throws ScenarioException
     */
    public PreparedRun prepare() {
        return Simulation.prepare(build(), baseDir);
    }

    /** Builds and simulates. */
    public RunResult run() {
        return prepare().run();
    }

    /**
     * Prepares the run with {@code scheme} in place of the scenario's loadBalancing, for trying a
     * scheme in code before registering it (docs/extending.md); summaries still name the scenario's.
     */
    public PreparedRun prepare(org.lbsim.spi.LoadBalancer scheme) {
        return Simulation.prepare(build(), baseDir, scheme);
    }

    /**
     * Prepares the run with every queue pair's parts (entropy policy, sender loss recovery, receiver
     * policy, sender hooks) made by the bundle {@code bundle} builds from the run's load balancer and
     * loss-recovery factory: for trying a receiver policy or a scheme's own packet kinds in code.
     */
    public PreparedRun prepare(java.util.function.BiFunction<org.lbsim.spi.LoadBalancer, org.lbsim.spi.LossRecoveryFactory,
            org.lbsim.spi.QueuePairScheme> bundle) {
        return Simulation.prepare(build(), baseDir, bundle);
    }

    @Override
    public String toString() {
        return "ScenarioBuilder" + Catalog.inline(tree);
    }

    // --- internals ----------------------------------------------------------------------------------------

    /** Chooses a type at {@code path}; keeps the map's other keys only if the type does not change. */
    private void choose(String path, String name) {
        Choice choice = (Choice) Resolver.forTree(tree).resolve(path);
        if (choice == null || choice.entry(name).isEmpty()) {
            List<String> names = choice == null ? List.of() : choice.names();
            String label = choice == null ? "type" : choice.label();
            throw new ScenarioException(path + ".type", "unknown " + label + " '" + name + "'" + Catalog.didYouMean(name, names)
                    + " (allowed: " + String.join(", ", names) + ")");
        }
        boolean same = choice.current() != null && choice.current().name().equals(name);
        if (same) {
            set(path + ".type", name);
        } else {
            replace(path, name);
        }
        if (path.equals("topology")) {
            applyLinks(true, true);
        }
    }

    /** A fresh map {@code {type: name}} at {@code path}. */
    private void replace(String path, String name) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", name);
        set(path, m);
    }

    private void applyLinks(boolean applyRates, boolean applyDelays) {
        boolean setRates = applyRates && linkRateGbps != null;
        boolean setDelays = applyDelays && linkDelayNs != null;
        if (!setRates && !setDelays) {
            return;
        }
        Node n = Resolver.forTree(tree).resolve("topology");
        if (!(n instanceof Choice c) || c.current() == null) {
            throw new ScenarioException("topology.type", "choose a topology before setting link rates or delays");
        }
        List<String> rates = new ArrayList<>();
        List<String> delays = new ArrayList<>();
        for (RecordComponent rc : c.current().type().getRecordComponents()) {
            if (rc.getType() == LinkSpec.class) { // a link tier: hostLink, edgeAggLink ...
                rates.add("topology." + rc.getName() + ".rateGbps");
                delays.add("topology." + rc.getName() + ".delayNs");
            } else if (rc.getType() == double.class && rc.getName().equals("linkRateGbps")) { // one rate for every link
                rates.add("topology.linkRateGbps");
            } else if (rc.getType() == double.class && rc.getName().equals("linkDelayNs")) {
                delays.add("topology.linkDelayNs");
            }
        }
        if (setRates && rates.isEmpty() || setDelays && delays.isEmpty()) {
            throw new ScenarioException("topology", "a " + c.current().name() + " topology has no link rate or delay to set; use set(...)");
        }
        for (String p : setRates ? rates : List.<String>of()) {
            set(p, linkRateGbps);
        }
        for (String p : setDelays ? delays : List.<String>of()) {
            set(p, linkDelayNs);
        }
    }

    private Map<String, Object> applyOverrides(List<String> arguments, String shown) {
        try {
            return Overrides.apply(tree, arguments);
        } catch (SetException e) {
            throw new ScenarioException(e.field().isEmpty() ? shown : e.field(), e.problem());
        }
    }

    /** Checks that the keys of {@code path} exist in the schema, with the types chosen in {@code t}. */
    private static void check(Map<String, Object> t, List<Object> path) {
        Resolver.forTree(t).resolve(path);
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> root, List<Object> segments, Object value) {
        Object container = root;
        for (int i = 0; i < segments.size() - 1; i++) {
            Object seg = segments.get(i);
            container = seg instanceof String k ? ((Map<String, Object>) container).get(k) : ((List<Object>) container).get((Integer) seg);
        }
        Object last = segments.get(segments.size() - 1);
        if (last instanceof String k) {
            ((Map<String, Object>) container).put(k, value);
        } else {
            ((List<Object>) container).set((Integer) last, value);
        }
    }

    /** A Java value as a scenario tree value (what a YAML parser would have produced). */
    static Object normalize(Object v, String path) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof Double || v instanceof BigInteger || v instanceof BigDecimal) {
            return v;
        }
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        if (v instanceof Float f) {
            return Double.parseDouble(f.toString()); // 0.1f -> 0.1, not 0.10000000149
        }
        if (v instanceof Character || v instanceof CharSequence || v instanceof Path) {
            return v.toString();
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        if (v instanceof Record || v instanceof ComponentSpec) {
            return ScenarioTree.toTreeValue(v);
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new ScenarioException(path, "map keys must be strings, got " + e.getKey());
                }
                out.put(k, normalize(e.getValue(), path.isEmpty() ? k : path + "." + k));
            }
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            int i = 0;
            for (Object o : c) {
                out.add(normalize(o, path + "[" + i++ + "]"));
            }
            return out;
        }
        if (v.getClass().isArray()) {
            int n = Array.getLength(v);
            List<Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(normalize(Array.get(v, i), path + "[" + i + "]"));
            }
            return out;
        }
        throw new ScenarioException(path, "cannot use a " + v.getClass().getName()
                + " as a scenario value; use a number, boolean, string, list, map or scenario record");
    }
}
