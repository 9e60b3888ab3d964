package org.lbsim.kernel;

/**
 * A simulation component that the kernel wakes up. Each component keeps at most a few pending
 * wake-ups; {@code kind} tells which one fired and {@code tag} carries a small payload such as a
 * generation counter used to ignore cancelled wake-ups.
 */
public interface EventHandler {
    void onEvent(int kind, long tag);
}
