package org.lbsim.sim;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.lbsim.lb.themis.Themis;
import org.lbsim.scenario.Checks;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.scenario.TopologySpec;

/**
 * Checks of time inputs against the simulator's and the fabric's limits, on the scenario alone, before
 * anything is built: every time in microseconds or nanoseconds stays within the longest simulated
 * time (so picosecond arithmetic cannot overflow), and every timer that schedules events (retransmission
 * timeouts, periodic refreshes, failure processes, sampling) is at least as long as the fabric can
 * physically resolve: one full frame at its fastest link, and for a timeout that waits for an answer,
 * one hop's propagation delay at its shortest link. A shorter timer would fire many times per packet
 * and make a run that never ends. (Time-series sampling is not one of them: its interval doubles when a
 * series fills up.)
 */
final class InputBounds {
    /** Timers that wait for a packet or an answer from the far end: at least a frame and a hop's delay. */
    private static final List<String> RESPONSE_TIMERS = List.of("rtoUs", "minRtoUs", "nackIntervalUs", "thetaUs");
    /** Periodic and idle timers that schedule events: at least one frame time. 0 stays "off" where the field allows it. */
    private static final List<String> FRAME_TIMERS = List.of("refreshUs", "freezeUs", "availUs", "unavailUs", "flowletTimeoutUs", "dreUs",
            "agingUs", "rateIncreaseTimerUs", "rateDecreaseIntervalUs", "alphaUpdateUs", "cnpIntervalUs", "pathPauseUs", "txExpiryUs",
            "defaultReorderWaitUs");

    private InputBounds() {
    }

    /**
     * Every double field named ...Us or ...Ns, anywhere in the scenario (component parameters and lists
     * included), is finite and at most the longest simulated time: {@link Checks#MAX_TIME_US} us or
     * 1000 times that in ns. Negative sentinels (-1 = off) are left to the fields' own checks.
     */
    static void times(Scenario s) {
        List<ScenarioException> errors = new ArrayList<>();
        walk(s, "", errors);
        if (!errors.isEmpty()) {
            throw ScenarioException.of(errors);
        }
    }

    private static void walk(Object node, String path, List<ScenarioException> errors) {
        if (node instanceof ComponentSpec c) {
            walk(c.params(), path, errors);
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), path + "[" + i + "]", errors);
            }
        } else if (node instanceof Record r) {
            for (RecordComponent f : r.getClass().getRecordComponents()) {
                Object value = read(f, r);
                String at = path.isEmpty() ? f.getName() : path + "." + f.getName();
                if (value instanceof Double d) {
                    time(f.getName(), d, at, errors);
                } else {
                    walk(value, at, errors);
                }
            }
        }
    }

    private static void time(String name, double v, String path, List<ScenarioException> errors) {
        double max;
        String unit;
        if (name.length() > 2 && name.endsWith("Us")) {
            max = Checks.MAX_TIME_US;
            unit = "us";
        } else if (name.length() > 2 && name.endsWith("Ns")) {
            max = Checks.MAX_TIME_US * 1000;
            unit = "ns";
        } else {
            return;
        }
        if (Math.abs(v) > max) { // NaN is a placeholder for a value not given, reported by the field's own check
            errors.add(new ScenarioException(path, "must be at most " + Checks.fmt(max) + " " + unit
                    + " (1000 s, the longest simulated time), got " + Checks.fmt(v)));
        }
    }

    /**
     * Themis's PSN rings sized by the formula (ringEntries 0) at the fabric's host link rate and the run's
     * MTU stay within the bound a given ringEntries has ({@link Themis.Params#entries}), so a ring too large
     * to build is refused before the run rather than at its first cross-rack packet.
     */
    static void themisRings(Scenario s) {
        long hostMbps = s.topology().hostLink().rateMbps();
        List<ScenarioException> errors = new ArrayList<>();
        ring(s.loadBalancing(), "loadBalancing", hostMbps, s.packets(), errors);
        for (int i = 0; i < s.trafficClasses().size(); i++) {
            ring(s.trafficClasses().get(i).loadBalancing(), "trafficClasses[" + i + "].loadBalancing", hostMbps, s.packets(), errors);
        }
        if (!errors.isEmpty()) {
            throw ScenarioException.of(errors);
        }
    }

    private static void ring(ComponentSpec c, String path, long hostMbps, PacketSpec p, List<ScenarioException> errors) {
        if (c.params() instanceof Themis.Params t) {
            try {
                t.entries(hostMbps, p.mtuBytes());
            } catch (ScenarioException e) {
                errors.add(e.under(path));
            }
        }
    }

    /**
     * Every timer that schedules events is at least the fabric's shortest meaningful time: one frame
     * (MTU + header + inter-frame gap) at the fastest link, and for a timeout waiting for an answer
     * also the shortest link's propagation delay. 0 (off) is left to the field's own check.
     */
    static void timers(Scenario s) {
        Fabric f = Fabric.of(s.topology(), s.packets());
        List<ScenarioException> errors = new ArrayList<>();
        component(s.loadBalancing(), "loadBalancing", f, errors);
        component(s.congestionControl(), "congestionControl", f, errors);
        component(s.lossRecovery(), "lossRecovery", f, errors);
        for (int i = 0; i < s.trafficClasses().size(); i++) {
            component(s.trafficClasses().get(i).loadBalancing(), "trafficClasses[" + i + "].loadBalancing", f, errors);
        }
        if (s.switches().pfc().enabled()) {
            check(s.switches().pfc().deadlockCheckUs(), "switches.pfc.deadlockCheckUs", true, f, errors);
        }
        check(s.failures().mtbfUs(), "failures.mtbfUs", false, f, errors);
        check(s.failures().mttrUs(), "failures.mttrUs", false, f, errors);
        if (!errors.isEmpty()) {
            throw ScenarioException.of(errors);
        }
    }

    private static void component(ComponentSpec c, String path, Fabric f, List<ScenarioException> errors) {
        Record params = c.params();
        for (RecordComponent field : params.getClass().getRecordComponents()) {
            boolean response = RESPONSE_TIMERS.contains(field.getName());
            if ((response || FRAME_TIMERS.contains(field.getName())) && read(field, params) instanceof Double d) {
                check(d, path + "." + field.getName(), response, f, errors);
            }
        }
    }

    private static void check(double us, String path, boolean response, Fabric f, List<ScenarioException> errors) {
        if (!(us > 0) || !Double.isFinite(us)) {
            return; // 0 = off, or refused by the field's own check
        }
        long ps = Math.round(us * 1e6);
        if (ps < f.framePs()) {
            errors.add(new ScenarioException(path, String.format(Locale.ROOT, "must be at least %s us, the time of one %d-byte frame at %s Gb/s"
                    + " (packets.mtuBytes + headerBytes + interFrameGapBytes at the fastest link): a shorter timer fires before a packet"
                    + " is on the wire, got %s", us(f.framePs()), f.frameBytes(), Checks.fmt(f.fastestMbps() / 1000.0), Checks.plain(us))));
        } else if (response && ps < f.hopPs()) {
            errors.add(new ScenarioException(path, String.format(Locale.ROOT, "must be at least %s us, the propagation delay of the shortest"
                    + " link: a shorter timeout expires before any answer can arrive, got %s", us(f.hopPs()), Checks.plain(us))));
        }
    }

    /** Picoseconds as microseconds, exactly, without trailing zeros. */
    static String us(long ps) {
        return BigDecimal.valueOf(ps, 6).stripTrailingZeros().toPlainString();
    }

    /** The fabric's fastest link rate, shortest propagation delay and frame size, from the scenario alone. */
    record Fabric(long fastestMbps, long hopPs, long frameBytes) {
        static Fabric of(TopologySpec t, PacketSpec p) {
            long fastest = 0;
            long shortest = Long.MAX_VALUE;
            for (LinkSpec l : t.linkTiers()) {
                fastest = Math.max(fastest, l.rateMbps());
                shortest = Math.min(shortest, l.delayPs());
            }
            return new Fabric(Math.max(1, fastest), shortest == Long.MAX_VALUE ? 0 : shortest,
                    (long) p.mtuBytes() + p.headerBytes() + p.interFrameGapBytes());
        }

        /** One frame's serialisation time at the fastest link, rounded up. */
        long framePs() {
            return (frameBytes * 8 * 1_000_000 + fastestMbps - 1) / fastestMbps;
        }
    }

    private static Object read(RecordComponent f, Record r) {
        try {
            java.lang.reflect.Method m = f.getAccessor();
            m.setAccessible(true);
            return m.invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + f.getName(), e);
        }
    }

    /** For tests: the timer fields this class knows, by kind. */
    static Map<String, List<String>> timerFields() {
        return Map.of("response", RESPONSE_TIMERS, "frame", FRAME_TIMERS);
    }
}
