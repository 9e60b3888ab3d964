package org.lbsim.lb;

import org.lbsim.net.PortSelector;
import org.lbsim.scenario.Doc;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/** The switch-driven schemes that read local queue lengths; hosts keep one entropy per queue pair. */
public final class SwitchQueueScheme {
    private SwitchQueueScheme() {
    }

    /** No parameters. */
    public record NoParams() {
    }

    public record QuantizedParams(
            @Doc("bin edges as fractions of the port buffer, increasing (Table 2: 5%, 10%, 20%)") java.util.List<Double> quanta) {
        public QuantizedParams {
            ScenarioException.require(quanta != null && !quanta.isEmpty(), "quanta", "needs at least one bin edge");
            quanta = java.util.List.copyOf(quanta);
            double prev = 0;
            for (int i = 0; i < quanta.size(); i++) {
                double q = quanta.get(i);
                ScenarioException.require(q > prev && q <= 1, "quanta[" + i + "]", "bin edges must increase within (0, 1], got " + q);
                prev = q;
            }
        }
    }

    public record DrillParams(@Doc("random candidates sampled per packet (DRILL's d)") int samples) {
        public DrillParams {
            ScenarioException.require(samples >= 1, "samples", "must be >= 1, got " + samples);
        }
    }

    public static LoadBalancer jsq() {
        return of(QueueAwareSelectors.ShortestQueue::new);
    }

    public static LoadBalancer rsq() {
        return of(QueueAwareSelectors.RandomPort::new);
    }

    public static LoadBalancer quantized(QuantizedParams p) {
        double[] edges = p.quanta().stream().mapToDouble(Double::doubleValue).toArray();
        return of(sw -> new QueueAwareSelectors.QuantizedQueue(sw, edges));
    }

    public static LoadBalancer drill(DrillParams p) {
        return of(sw -> new QueueAwareSelectors.Drill(sw, p.samples()));
    }

    private static LoadBalancer of(java.util.function.Function<SwitchContext, PortSelector> selectors) {
        return new LoadBalancer() {
            @Override
            public EntropyPolicy newEntropyPolicy(HostContext host) {
                return EntropyPolicy.randomFixed(host);
            }

            @Override
            public PortSelector newPortSelector(SwitchContext sw) {
                return selectors.apply(sw);
            }
        };
    }
}
