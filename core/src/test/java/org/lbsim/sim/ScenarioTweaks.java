package org.lbsim.sim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;

/** Copies of a scenario with one part replaced, and trace files for tests; complements {@link TestScenarios}. */
public final class ScenarioTweaks {
    private ScenarioTweaks() {
    }

    public static Scenario withSwitches(Scenario s, SwitchSpec switches) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), switches, s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits());
    }

    public static Scenario withPackets(Scenario s, PacketSpec packets) {
        return new Scenario(s.name(), s.seed(), s.topology(), packets, s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits());
    }

    public static Scenario withTopology(Scenario s, TopologySpec topology) {
        return new Scenario(s.name(), s.seed(), topology, s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits());
    }

    public static Scenario withLoadBalancing(Scenario s, ComponentSpec lb) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), lb, s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits());
    }

    public static Scenario withLimits(Scenario s, LimitsSpec limits) {
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), s.loadBalancing(), s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), limits);
    }

    /** A trace workload of the given rows (src, dst, bytes, startNs) written as {@code name} into {@code dir}. */
    public static WorkloadSpec.Trace trace(Path dir, String name, List<long[]> rows) {
        List<String> lines = new ArrayList<>();
        lines.add("src,dst,bytes,start_ns");
        for (long[] r : rows) {
            lines.add(r[0] + "," + r[1] + "," + r[2] + "," + r[3]);
        }
        try {
            Files.write(dir.resolve(name), lines);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new WorkloadSpec.Trace(name);
    }

    /** One row of a trace: {@code bytes} from {@code src} to {@code dst} at time 0. */
    public static long[] flow(int src, int dst, long bytes) {
        return new long[] {src, dst, bytes, 0};
    }
}
