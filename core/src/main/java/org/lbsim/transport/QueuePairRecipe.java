package org.lbsim.transport;

import org.lbsim.kernel.RandomStreams;
import org.lbsim.spi.CongestionControlFactory;
import org.lbsim.spi.LoadBalancer;
import org.lbsim.spi.QueuePairScheme;
import org.lbsim.topology.Fib;

/**
 * What each queue pair is built from.
 *
 * @param cc           makes each sender's congestion control
 * @param bundleOfQp   the scheme bundle making each queue pair's parts (entropy policy, sender loss recovery,
 *                     receiver policy, sender hooks): its traffic class's
 * @param lbOfQp       the load-balancing scheme of each queue pair (its traffic class's), which labels its ACKs
 * @param rng          the run's random streams (each queue pair draws its own by name)
 * @param ackBytes     size of an ACK on the wire
 * @param convergedFib the routes hosts know when the run starts
 */
public record QueuePairRecipe(CongestionControlFactory cc, QueuePairScheme[] bundleOfQp, LoadBalancer[] lbOfQp, RandomStreams rng,
                              int ackBytes, Fib convergedFib) {
}
