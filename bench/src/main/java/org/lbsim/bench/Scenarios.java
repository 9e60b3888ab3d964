package org.lbsim.bench;

import java.util.List;
import java.util.Locale;
import org.lbsim.cc.Dcqcn;
import org.lbsim.cc.FixedRate;
import org.lbsim.lb.HostPacketSpray;
import org.lbsim.registry.LoadBalancers;
import org.lbsim.scenario.BufferSpec;
import org.lbsim.scenario.ComponentSpec;
import org.lbsim.scenario.EcnSpec;
import org.lbsim.scenario.FailureSpec;
import org.lbsim.scenario.LimitsSpec;
import org.lbsim.scenario.LinkSpec;
import org.lbsim.scenario.PacketSpec;
import org.lbsim.scenario.PfcSpec;
import org.lbsim.scenario.Scenario;
import org.lbsim.scenario.SwitchSpec;
import org.lbsim.scenario.TopologySpec;
import org.lbsim.scenario.WorkloadSpec;
import org.lbsim.transport.IdealErasure;
import org.lbsim.transport.NicSelectiveRepeat;

/**
 * The end-to-end reference scenarios, built in code so that benchmarks do not depend on the YAML
 * reader. {@code bench/scenarios/s1.yaml} .. {@code s3.yaml} describe the same runs for the CLI.
 *
 * <p>Common settings: 800 Gb/s and 0.5 us on every tier, 800 KB per-port switch buffers with the
 * default ECN marking, 4096 B MTU + 62 B header, 64 B ACKs, 20 B inter-frame gap, host packet
 * spraying, fixed-rate senders at line rate, ideal erasure-coded loss recovery (RTO 80 us), seed 1.
 */
public final class Scenarios {
    /** Names accepted by {@link #byName}. */
    public static final List<String> NAMES = List.of("S1", "S2", "S3", "S4");

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    private Scenarios() {
    }

    /** S1: 128 hosts (fat tree k=8), random permutation of 4 MiB messages. */
    public static Scenario s1() {
        return reference("S1", 8, new WorkloadSpec.Permutation(4 * MIB, 0));
    }

    /** S2: 1024 hosts (fat tree k=16), random permutation of 1 MiB messages. */
    public static Scenario s2() {
        return reference("S2", 16, new WorkloadSpec.Permutation(MIB, 0));
    }

    /** S3: 128 hosts (fat tree k=8), all-to-all of 64 KiB per host pair, every flow starting at once. */
    public static Scenario s3() {
        return reference("S3", 8, new WorkloadSpec.AllToAll(64 * KIB, 0));
    }

    /**
     * S4: S1 over the RoCE transport: DCQCN (defaults), NIC selective repeat (RTO 80 us) and PFC
     * (static thresholds, the defaults), so the run exercises NACKs, CNPs and pauses.
     */
    public static Scenario s4() {
        Scenario s1 = reference("S4", 8, new WorkloadSpec.Permutation(4 * MIB, 0));
        PfcSpec d = PfcSpec.defaults();
        SwitchSpec lossless = new SwitchSpec(s1.switches().buffer(), s1.switches().ecn(),
                new PfcSpec(true, d.xoffBytes(), d.xonBytes(), d.dynamicAlpha(), d.headroomBytes(), d.deadlockCheckUs()));
        return new Scenario(s1.name(), s1.seed(), s1.topology(), s1.packets(), lossless, s1.loadBalancing(),
                new ComponentSpec("dcqcn", Dcqcn.Params.defaults()), new ComponentSpec("nic-sr", new NicSelectiveRepeat.Params(80)),
                s1.workload(), s1.failures(), s1.limits());
    }

    /** A small S1-like permutation for micro-benchmarks: fat tree of radix {@code k}. */
    public static Scenario smallPermutation(int k, long messageBytes) {
        return reference("perm-k" + k, k, new WorkloadSpec.Permutation(messageBytes, 0));
    }

    /** The same scenario with another registered load-balancing scheme, with that scheme's default parameters. */
    public static Scenario withLoadBalancing(Scenario s, String scheme) {
        ComponentSpec lb = new ComponentSpec(scheme, LoadBalancers.REGISTRY.find(scheme)
                .orElseThrow(() -> new IllegalArgumentException("unknown scheme '" + scheme + "'; known: "
                        + String.join(", ", LoadBalancers.REGISTRY.names())))
                .defaults());
        return new Scenario(s.name(), s.seed(), s.topology(), s.packets(), s.switches(), lb, s.congestionControl(),
                s.lossRecovery(), s.workload(), s.failures(), s.limits());
    }

    public static Scenario byName(String name) {
        switch (name.toUpperCase(Locale.ROOT)) {
            case "S1":
                return s1();
            case "S2":
                return s2();
            case "S3":
                return s3();
            case "S4":
                return s4();
            default:
                throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + String.join(", ", NAMES));
        }
    }

    /** The settings every reference scenario shares, on a fat tree of radix {@code k}. */
    public static Scenario reference(String name, int k, WorkloadSpec workload) {
        LinkSpec link = new LinkSpec(800, 500);
        TopologySpec topology = new TopologySpec.FatTree(k, link, link, link);
        PacketSpec packets = new PacketSpec(4096, 62, 64, 20);
        SwitchSpec switches = new SwitchSpec(new BufferSpec.PerPort(800_000), new EcnSpec(true, 100_000, 400_000, 0.2));
        ComponentSpec lb = new ComponentSpec("host-spray", new HostPacketSpray.Params());
        ComponentSpec cc = new ComponentSpec("fixed-rate", new FixedRate.Params(false, 0));
        ComponentSpec recovery = new ComponentSpec("erasure", IdealErasure.Params.rto(80));
        return new Scenario(name, 1, topology, packets, switches, lb, cc, recovery, workload,
                new FailureSpec(List.of(), 0, 0), new LimitsSpec(1_000_000));
    }
}
