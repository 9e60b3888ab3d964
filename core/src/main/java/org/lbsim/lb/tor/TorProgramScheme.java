package org.lbsim.lb.tor;

import org.lbsim.net.PortSelector;
import org.lbsim.spi.EntropyPolicy;
import org.lbsim.spi.HostContext;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.SwitchContext;

/**
 * A scheme whose decisions live in ToR switch programs (LetFlow, CONGA, ConWeave, as the ConWeave
 * authors' ns-3 runs them): hosts keep one random entropy per queue pair, the source ToR picks the
 * uplink into {@code pathId} and later hops follow it ({@link SourceRoutedSelector}); subclasses
 * install their per-ToR program in {@link #programSwitch}.
 */
public abstract class TorProgramScheme implements LoadBalancer {
    private TorView tors;

    @Override
    public EntropyPolicy newEntropyPolicy(HostContext host) {
        return EntropyPolicy.randomFixed(host);
    }

    @Override
    public PortSelector newPortSelector(SwitchContext sw) {
        return new SourceRoutedSelector(sw, tors(sw));
    }

    /** The run's ToRs, built on first use (every switch of a run shares one topology). */
    protected final TorView tors(SwitchContext ctx) {
        if (tors == null) {
            tors = new TorView(ctx.topology());
        }
        return tors;
    }

    /** The run's ToRs, once any switch has been built. */
    protected final TorView tors() {
        return tors;
    }
}
